// What the lowerings of the ops that run subgraphs share
// (CallLowering.cpp, IfLowering.cpp, OnnxLoopLowering.cpp).
#ifndef POPART_SRC_OPS_SUBGRAPHLOWERING_HPP
#define POPART_SRC_OPS_SUBGRAPHLOWERING_HPP

#include "lowering/Lowering.hpp"

namespace popart {

class Graph;

/// The subgraph lowered once, into a poplar function with tensors of its
/// own for its inputs and outputs (later calls reuse it).
const LoweringContext::LoweredGraph &lowerSubgraph(const Graph &g,
                                                   LoweringContext &ctx);

} // namespace popart

#endif
