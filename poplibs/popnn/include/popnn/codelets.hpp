#ifndef POPNN_CODELETS_HPP
#define POPNN_CODELETS_HPP

#include <poplar/Graph.hpp>
#include <popnn/popnn_export.hpp>

namespace popnn {

/// Adds popnn's vertices (popnn.gp, installed beside libpopnn) to the
/// graph. popnn's operations also use popops' and poplin's vertices: add
/// those too (popops::addCodelets, poplin::addCodelets).
POPNN_API void addCodelets(poplar::Graph &graph);

} // namespace popnn

#endif // POPNN_CODELETS_HPP
