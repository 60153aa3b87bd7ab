// ClipOp: a Clamp expression with the (constant) bounds.
#include "lowering/Lowering.hpp"
#include "ops/ClipOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growClip(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &clip = static_cast<const ClipOp &>(op);
  ctx.set(*op.outputs[0],
          popops::map(ctx.graph,
                      pe::Clamp(pe::_1, pe::Const(clip.min), pe::Const(clip.max)),
                      {ctx.get(op.inTensor(0))}, prog, op.name));
}

} // namespace popart
