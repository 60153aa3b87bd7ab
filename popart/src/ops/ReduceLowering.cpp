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


void growReduceGrad(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ReduceGradOp &>(op);
  const poplar::Tensor x = ctx.get(op.inTensor(1));
  // The output's gradient and value with the reduced dimensions as 1,
  // broadcast to the input's shape.
  std::vector<std::size_t> kept = x.shape();
  std::size_t count = 1;
  for (auto a : grad.reducedAxes) {
    count *= kept[static_cast<std::size_t>(a)];
    kept[static_cast<std::size_t>(a)] = 1;
  }
  auto spread = [&](const poplar::Tensor &t) {
    poplar::Tensor r = t.reshape(kept);
    for (auto a : grad.reducedAxes)
      r = r.broadcast(static_cast<unsigned>(x.dim(static_cast<std::size_t>(a))),
                      static_cast<unsigned>(a));
    return r;
  };
  const poplar::Tensor g = spread(ctx.get(op.inTensor(0)));
  const poplar::Tensor y = spread(ctx.get(op.inTensor(2)));
  const auto &t = grad.fwdType;
  // _1 g, _2 x, _3 y.
  pe::Any e = pe::_1;
  if (t == "ReduceMean")
    e = pe::_1 / pe::Const(static_cast<float>(count));
  else if (t == "ReduceMax" || t == "ReduceMin")
    e = pe::Select(pe::_1, pe::Const(0.0f), pe::Equal(pe::_2, pe::_3));
  else if (t == "ReduceProd")
    e = pe::_1 * pe::_3 / pe::_2;
  else if (t == "ReduceSumSquare")
    e = pe::_1 * pe::Const(2.0f) * pe::_2;
  else if (t == "ReduceL1")
    e = pe::_1 * pe::Signum(pe::_2);
  else if (t == "ReduceL2")
    e = pe::_1 * pe::_2 / pe::_3;
  else if (t == "ReduceLogSum")
    e = pe::_1 / pe::Exp(pe::_3);
  else if (t == "ReduceLogSumExp")
    e = pe::_1 * pe::Exp(pe::_2 - pe::_3);
  ctx.set(op.outputs[0],
          popops::map(ctx.graph, e, {g, x, y}, prog, op.name()));
}

} // namespace popart
