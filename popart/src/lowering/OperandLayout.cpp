// Model inputs (weights) laid out as the op that reads them plans its
// operand, so that its vertices find their blocks on their own tiles
// instead of receiving a copy of them.
#include "lowering/Lowering.hpp"

#include <popart/error.hpp>

namespace popart {

void mapLikePlannedOperand(
    LoweringContext &ctx, const Tensor &input, const poplar::Tensor &view,
    const std::function<poplar::Tensor(poplar::Graph &)> &create) {
  // Only tensors no op produces (constants, weights, streamed inputs)
  // and that nothing else reads: their layout is free to choose.
  if (input.producer || input.consumers.size() != 1)
    return;
  // Weights and constants whose reader has an InputCreator were created
  // in its layout already (IrLowering::createdByReader).
  const bool created =
      input.type == TensorType::Variable || input.type == TensorType::Const;
  if (created && LoweringRegistry::instance().creator(*input.consumers.front()))
    return;
  // The planned layout comes from a graph of the same target that is
  // never compiled, so the real graph gets no variable for it.
  poplar::Graph scratch(ctx.graph.getTarget());
  const poplar::Tensor planned = create(scratch);
  if (planned.shape() != view.shape())
    throw internal_error("the planned layout of '{}' has {} elements, the "
                         "operand {}",
                         input.id, planned.numElements(), view.numElements());
  ctx.graph.setTileMapping(view, scratch.getTileMapping(planned));
}

} // namespace popart
