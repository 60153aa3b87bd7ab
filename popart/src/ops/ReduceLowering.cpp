// ReduceOp: popops::reduce over the reduced axes, with an element-wise step
// before (L1: abs, L2 and SumSquare: square, LogSumExp: exp) or after
// (Mean: division, L2: sqrt, LogSum and LogSumExp: log), reshaped to keep
// or drop them.
#include "lowering/Lowering.hpp"
#include "ops/ReduceOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

namespace popart {
namespace pe = popops::expr;

void growReduce(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const std::string &type = op.opid.type;
  const auto &red = static_cast<const ReduceOp &>(op);
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const auto operation = type == "ReduceMax"    ? popops::Operation::MAX
                         : type == "ReduceMin"  ? popops::Operation::MIN
                         : type == "ReduceProd" ? popops::Operation::MUL
                                                : popops::Operation::ADD;
  std::vector<std::size_t> axes(red.reducedAxes.begin(), red.reducedAxes.end());
  // The element-wise step before the reduction, and the one after.
  if (type == "ReduceL1")
    x = popops::map(ctx.graph, pe::Abs(pe::_1), {x}, prog, op.name());
  else if (type == "ReduceSumSquare" || type == "ReduceL2")
    x = popops::map(ctx.graph, pe::Square(pe::_1), {x}, prog, op.name());
  else if (type == "ReduceLogSumExp")
    x = popops::map(ctx.graph, pe::Exp(pe::_1), {x}, prog, op.name());
  poplar::Tensor y;
  if (axes.empty()) {
    y = copyOf(ctx, x, prog, op.name());
  } else {
    y = popops::reduce(ctx.graph, x, axes, operation, prog, op.name());
  }
  if (type == "ReduceL2")
    y = popops::map(ctx.graph, pe::Sqrt(pe::_1), {y}, prog, op.name());
  else if (type == "ReduceLogSum" || type == "ReduceLogSumExp")
    y = popops::map(ctx.graph, pe::Log(pe::_1), {y}, prog, op.name());
  if (type == "ReduceMean") {
    std::size_t count = 1;
    for (auto a : axes)
      count *= x.dim(a);
    y = popops::map(ctx.graph, pe::_1 / pe::Const(static_cast<float>(count)),
                    {y}, prog, op.name());
  }
  const auto &outShape = op.outputs[0]->info.shape();
  ctx.set(*op.outputs[0],
          y.reshape(std::vector<std::size_t>(outShape.begin(), outShape.end())));
}

} // namespace popart
