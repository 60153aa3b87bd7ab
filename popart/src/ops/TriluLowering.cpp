// TriluOp: a select between the input and zeros with the triangle's mask,
// a constant of the matrix's shape broadcast over the leading dimensions.
#include "lowering/Lowering.hpp"
#include "ops/TriluOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

poplar::Tensor keepTriangle(const Triangle &triangle, LoweringContext &ctx,
                            const poplar::Tensor &x,
                            poplar::program::Sequence &prog,
                            const std::string &name) {
  const std::size_t r = x.rank(), rows = x.dim(r - 2), cols = x.dim(r - 1);
  std::vector<int> keep(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      keep[i * cols + j] = triangle.keeps(static_cast<int64_t>(i),
                                       static_cast<int64_t>(j));
  poplar::Tensor mask =
      hostConstant(ctx, poplar::BOOL, {rows, cols}, keep, name + "/mask");
  std::vector<std::size_t> ones(r - 2, 1);
  ones.push_back(rows);
  ones.push_back(cols);
  mask = mask.reshape(ones);
  for (std::size_t d = 0; d + 2 < r; ++d)
    mask = mask.broadcast(static_cast<unsigned>(x.dim(d)),
                          static_cast<unsigned>(d));
  const poplar::Tensor zero = broadcastScalar(
      scalarConstant(ctx, x.elementType(), 0.0, name + "/zero"), x.shape());
  return popops::map(ctx.graph, pe::Select(pe::_1, pe::_2, pe::_3),
                     {x, zero, mask}, prog, name);
}

} // namespace

void growTrilu(const Op &op, LoweringContext &ctx,
               poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0], keepTriangle(static_cast<const TriluOp &>(op).triangle, ctx,
                                      ctx.get(op.inTensor(0)), prog, op.name()));
}

void growTriluGrad(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  ctx.set(op.outputs[0],
          keepTriangle(static_cast<const TriluGradOp &>(op).triangle, ctx,
                       ctx.get(op.inTensor(0)), prog, op.name()));
}

} // namespace popart
