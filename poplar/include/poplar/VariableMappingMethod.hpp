#ifndef POPLAR_VARIABLEMAPPINGMETHOD_HPP
#define POPLAR_VARIABLEMAPPINGMETHOD_HPP

namespace poplar {

/// How Graph::addVariable maps a new variable: not at all (NONE), or spread
/// evenly over the tiles of the graph in element order (LINEAR).
enum class VariableMappingMethod { NONE, LINEAR };

} // namespace poplar

#endif // POPLAR_VARIABLEMAPPINGMETHOD_HPP
