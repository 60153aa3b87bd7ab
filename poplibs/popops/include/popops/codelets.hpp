#ifndef POPOPS_CODELETS_HPP
#define POPOPS_CODELETS_HPP

#include <poplar/Graph.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// Adds popops' vertices (popops.gp, installed beside libpopops) to the
/// graph. Call it once per graph before using popops' operations; calling
/// it again does nothing.
POPOPS_API void addCodelets(poplar::Graph &graph);

} // namespace popops

#endif // POPOPS_CODELETS_HPP
