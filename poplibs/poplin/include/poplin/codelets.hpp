#ifndef POPLIN_CODELETS_HPP
#define POPLIN_CODELETS_HPP

#include <poplar/Graph.hpp>
#include <poplin/poplin_export.hpp>

namespace poplin {

/// Adds poplin's vertices (poplin.gp, installed beside libpoplin) to the
/// graph. Call it once per graph (with popops::addCodelets) before using
/// poplin's operations; calling it again does nothing.
POPLIN_API void addCodelets(poplar::Graph &graph);

} // namespace poplin

#endif // POPLIN_CODELETS_HPP
