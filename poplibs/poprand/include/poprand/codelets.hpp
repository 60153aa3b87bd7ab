#ifndef POPRAND_CODELETS_HPP
#define POPRAND_CODELETS_HPP

#include <poplar/Graph.hpp>
#include <poprand/poprand_export.hpp>

namespace poprand {

/// Adds poprand's vertices (poprand.gp, installed beside libpoprand) to the
/// graph. Call it once per graph before using poprand's operations (and
/// popops::addCodelets too for shapedDropout); calling it again does
/// nothing.
POPRAND_API void addCodelets(poplar::Graph &graph);

} // namespace poprand

#endif // POPRAND_CODELETS_HPP
