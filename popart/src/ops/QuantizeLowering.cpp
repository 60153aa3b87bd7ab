// The quantised ops: operands widened to FLOAT (or INT) by popops, zero
// points subtracted and scales applied by popops expressions, rounded half
// to even (NearbyInt) and saturated to the range of the 8-bit type. The
// integer products of MatMulInteger and ConvInteger are poplin's FLOAT
// matmuls and convolutions over runs of at most exactIntegerProducts
// products (each sum exact in FLOAT), added in INT.
#include "lowering/Lowering.hpp"
#include "ops/QuantizeOps.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

#include <popart/error.hpp>

#include <algorithm>
#include <limits>

namespace popart {
namespace pe = popops::expr;

namespace {

// p (one value, or 1-D along `axis`) as a view of `shape`.
poplar::Tensor alongAxis(const poplar::Tensor &p, int64_t axis,
                         const std::vector<std::size_t> &shape) {
  if (p.numElements() == 1)
    return broadcastScalar(p.flatten()[0], shape);
  std::vector<std::size_t> one(shape.size(), 1);
  one[std::size_t(axis)] = p.numElements();
  poplar::Tensor t = p.reshape(one);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (d != std::size_t(axis))
      t = t.broadcast(unsigned(shape[d]), unsigned(d));
  return t;
}

// Input `in` of op (a scale or zero point, or zero when absent) as FLOAT,
// viewed as `shape`.
poplar::Tensor floatOperand(const Op &op, LoweringContext &ctx, InIndex in,
                            int64_t axis, const std::vector<std::size_t> &shape,
                            poplar::program::Sequence &prog) {
  if (!op.hasInput(in))
    return broadcastScalar(
        scalarConstant(ctx, poplar::FLOAT, 0.0, op.name() + "/zero"), shape);
  return alongAxis(
      castTo(ctx, ctx.get(op.inTensor(in)), poplar::FLOAT, prog, op.name()),
      axis, shape);
}

// The range of a quantised type.
std::pair<float, float> range(DataType type) {
  if (type == DataType::INT8)
    return {-128.0f, 127.0f};
  return {0.0f, 255.0f};
}

// saturate(round(x * multiplier) + zero) in `type` (UINT8 or INT8):
// `multiplied` selects x * m (else x / m, as QuantizeLinear divides).
poplar::Tensor requantise(LoweringContext &ctx, const poplar::Tensor &x,
                          const poplar::Tensor &m, const poplar::Tensor &zero,
                          bool multiplied, DataType type,
                          poplar::program::Sequence &prog,
                          const std::string &name) {
  const auto [lo, hi] = range(type);
  const pe::Any scaled = multiplied ? pe::Any(pe::Mul(pe::_1, pe::_2))
                                    : pe::Any(pe::Divide(pe::_1, pe::_2));
  const poplar::Tensor q = popops::map(
      ctx.graph,
      pe::Max(pe::Min(pe::Add(pe::NearbyInt(scaled), pe::_3), pe::Const(hi)),
              pe::Const(lo)),
      {x, m, zero}, prog, name);
  return popops::cast(ctx.graph, q, deviceType(type), prog, name);
}

// (input `in` - its zero point `zero`) as FLOAT, the zero point along
// `axis`.
poplar::Tensor centred(const Op &op, LoweringContext &ctx, InIndex in,
                       InIndex zero, int64_t axis,
                       poplar::program::Sequence &prog) {
  const poplar::Tensor x =
      castTo(ctx, ctx.get(op.inTensor(in)), poplar::FLOAT, prog, op.name());
  if (!op.hasInput(zero))
    return x;
  return popops::sub(ctx.graph, x,
                     floatOperand(op, ctx, zero, axis, x.shape(), prog), prog,
                     op.name());
}

// The sum of the INT32 parts (FLOAT, each exact) as INT.
void accumulate(LoweringContext &ctx, poplar::Tensor &sum,
                const poplar::Tensor &part, poplar::program::Sequence &prog,
                const std::string &name) {
  const poplar::Tensor p = popops::cast(ctx.graph, part, poplar::INT, prog, name);
  if (!sum.valid())
    sum = p;
  else
    popops::addInPlace(ctx.graph, sum, p, prog, name);
}

// The INT32 product of QuantizedMatMulOp's operands less their zero points.
poplar::Tensor integerProduct(const QuantizedMatMulOp &op, LoweringContext &ctx,
                              poplar::program::Sequence &prog) {
  const Shape &outShape = op.outShape(0);
  const poplar::Tensor a =
      centred(op, ctx, 0, op.aZeroIn(), op.inRank(0) - 2, prog);
  const poplar::Tensor b =
      centred(op, ctx, op.bIn(), op.bZeroIn(), op.inRank(op.bIn()) - 1, prog);
  const std::size_t k = a.dim(a.rank() - 1);
  poplar::Tensor sum;
  for (std::size_t k0 = 0; k0 < k; k0 += exactIntegerProducts) {
    const std::size_t k1 = std::min<std::size_t>(k, k0 + exactIntegerProducts);
    accumulate(ctx, sum,
               lowerMatMul(ctx, a.slice(k0, k1, a.rank() - 1),
                           b.slice(k0, k1, b.rank() - 2), outShape, prog,
                           op.name()),
               prog, op.name());
  }
  return sum;
}

// The INT32 convolution of QuantizedConvOp's operands less their zero
// points, over runs of input channels whose products a FLOAT sum holds
// exactly.
poplar::Tensor integerConvolution(const QuantizedConvOp &op,
                                  LoweringContext &ctx,
                                  poplar::program::Sequence &prog) {
  const poplar::Tensor x = centred(op, ctx, 0, op.xZeroIn(), 1, prog);
  const poplar::Tensor w = centred(op, ctx, op.wIn(), op.wZeroIn(), 0, prog);
  std::size_t kernel = 1;
  for (auto d : op.kernel)
    kernel *= std::size_t(d);
  const std::size_t channels = w.dim(1);
  const std::size_t run =
      std::max<std::size_t>(1, std::size_t(exactIntegerProducts) / kernel);
  if (kernel > std::size_t(exactIntegerProducts) ||
      (op.group != 1 && channels > run))
    throw error("{}: {} products per output value exceed the {} a FLOAT sum "
                "of 8-bit products holds exactly",
                op.str(), channels * kernel, exactIntegerProducts);
  poplar::Tensor sum;
  for (std::size_t c0 = 0; c0 < channels; c0 += run) {
    const std::size_t c1 = std::min(channels, c0 + run);
    accumulate(ctx, sum,
               lowerConvolution(ctx, op, x.slice(c0, c1, 1),
                                w.slice(c0, c1, 1), prog),
               prog, op.name());
  }
  return sum;
}

} // namespace

void growQuantizeLinear(const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const auto &q = static_cast<const QuantizeLinearOp &>(op);
  const poplar::Tensor x =
      castTo(ctx, ctx.get(op.inTensor(0)), poplar::FLOAT, prog, op.name());
  ctx.set(op.outputs[0],
          requantise(ctx, x, floatOperand(op, ctx, 1, q.axis, x.shape(), prog),
                     floatOperand(op, ctx, 2, q.axis, x.shape(), prog),
                     /*multiplied=*/false, op.outInfo(0).dataType(), prog,
                     op.name()));
}

void growDequantizeLinear(const Op &op, LoweringContext &ctx,
                          poplar::program::Sequence &prog) {
  const auto &d = static_cast<const DequantizeLinearOp &>(op);
  const poplar::Tensor x = centred(op, ctx, 0, 2, d.axis, prog);
  ctx.set(op.outputs[0],
          popops::mul(ctx.graph, x,
                      floatOperand(op, ctx, 1, d.axis, x.shape(), prog), prog,
                      op.name()));
}

void growDynamicQuantizeLinear(const Op &op, LoweringContext &ctx,
                               poplar::program::Sequence &prog) {
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  const poplar::Tensor flat = x.flatten();
  // The range of x widened to hold 0.
  const poplar::Tensor lo = popops::reduce(ctx.graph, flat, poplar::FLOAT, {0},
                                           {popops::Operation::MIN}, prog,
                                           op.name() + "/min");
  const poplar::Tensor hi = popops::reduce(ctx.graph, flat, poplar::FLOAT, {0},
                                           {popops::Operation::MAX}, prog,
                                           op.name() + "/max");
  const poplar::Tensor scale = popops::map(
      ctx.graph,
      pe::Divide(pe::Sub(pe::Max(pe::_2, pe::Const(0.0f)),
                         pe::Min(pe::_1, pe::Const(0.0f))),
                 pe::Const(255.0f)),
      {lo, hi}, prog, op.name() + "/scale");
  const poplar::Tensor zero = popops::map(
      ctx.graph,
      pe::Max(pe::Min(pe::NearbyInt(pe::Divide(
                          pe::Neg(pe::Min(pe::_1, pe::Const(0.0f))), pe::_2)),
                      pe::Const(255.0f)),
              pe::Const(0.0f)),
      {lo, scale}, prog, op.name() + "/zero");
  ctx.set(op.outputs[0],
          requantise(ctx, x, broadcastScalar(scale, x.shape()),
                     broadcastScalar(zero, x.shape()), /*multiplied=*/false,
                     DataType::UINT8, prog, op.name()));
  ctx.set(op.outputs[1], scale);
  ctx.set(op.outputs[2], popops::cast(ctx.graph, zero, poplar::UNSIGNED_CHAR,
                                      prog, op.name()));
}

void growQuantizedMatMul(const Op &op, LoweringContext &ctx,
                         poplar::program::Sequence &prog) {
  const auto &mm = static_cast<const QuantizedMatMulOp &>(op);
  const poplar::Tensor product = integerProduct(mm, ctx, prog);
  if (!mm.requantised()) {
    ctx.set(op.outputs[0], product);
    return;
  }
  // a_scale * b_scale / y_scale, per row of a and column of b.
  const auto shape = product.shape();
  const std::size_t rank = shape.size();
  const poplar::Tensor multiplier = popops::map(
      ctx.graph, pe::Divide(pe::Mul(pe::_1, pe::_2), pe::_3),
      {floatOperand(op, ctx, 1, int64_t(rank) - 2, shape, prog),
       floatOperand(op, ctx, 4, int64_t(rank) - 1, shape, prog),
       floatOperand(op, ctx, 6, 0, shape, prog)},
      prog, op.name() + "/multiplier");
  ctx.set(op.outputs[0],
          requantise(ctx, castTo(ctx, product, poplar::FLOAT, prog, op.name()),
                     multiplier, floatOperand(op, ctx, 7, 0, shape, prog),
                     /*multiplied=*/true, op.outInfo(0).dataType(), prog,
                     op.name()));
}

void growQuantizedConv(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &conv = static_cast<const QuantizedConvOp &>(op);
  poplar::Tensor sum = integerConvolution(conv, ctx, prog);
  if (!conv.requantised()) {
    ctx.set(op.outputs[0], sum);
    return;
  }
  const auto shape = sum.shape();
  if (op.hasInput(8))
    popops::addInPlace(ctx.graph, sum,
                       alongAxis(ctx.get(op.inTensor(8)), 1, shape), prog,
                       op.name() + "/bias");
  // x_scale * w_scale / y_scale, w_scale per output channel.
  const poplar::Tensor multiplier = popops::map(
      ctx.graph, pe::Divide(pe::Mul(pe::_1, pe::_2), pe::_3),
      {floatOperand(op, ctx, 1, 0, shape, prog),
       floatOperand(op, ctx, 4, 1, shape, prog),
       floatOperand(op, ctx, 6, 0, shape, prog)},
      prog, op.name() + "/multiplier");
  ctx.set(op.outputs[0],
          requantise(ctx, castTo(ctx, sum, poplar::FLOAT, prog, op.name()),
                     multiplier, floatOperand(op, ctx, 7, 0, shape, prog),
                     /*multiplied=*/true, op.outInfo(0).dataType(), prog,
                     op.name()));
}

} // namespace popart
