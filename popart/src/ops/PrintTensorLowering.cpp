// PrintTensorOp and its gradient: poplar's PrintTensor with the op's
// PrintTensorFmt, then a copy of the input as the output.
#include "lowering/Lowering.hpp"
#include "ops/PrintTensorOp.hpp"

namespace popart {
namespace {

void printAndPass(const Op &op, bool print, const std::string &title,
                  const poplar::PrintTensorFmt &format, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  if (print)
    prog.add(poplar::program::PrintTensor(title, x, format, op.name()));
  ctx.set(op.outputs[0], copyOf(ctx, x, prog, op.outId(0)));
}

} // namespace

void growPrintTensor(const Op &op_, LoweringContext &ctx,
                     poplar::program::Sequence &prog) {
  const auto &op = static_cast<const PrintTensorOp &>(op_);
  printAndPass(op, true, op.title.empty() ? op.inId(0) : op.title, op.format,
               ctx, prog);
}

void growPrintTensorGrad(const Op &op_, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &op = static_cast<const PrintTensorGradOp &>(op_);
  printAndPass(op, op.print, op.title, op.format, ctx, prog);
}

} // namespace popart
