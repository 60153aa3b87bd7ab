// PoolOp: popnn::pooling::pool (MAX, AVG, or SUM and a division by the
// window sizes with padding when AveragePool counts it), or a popops
// reduction over the whole field for the global pools.
#include "lowering/Lowering.hpp"
#include "ops/PoolOp.hpp"

#include <popnn/Pooling.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

#include <limits>

namespace popart {
namespace pe = popops::expr;

namespace {

// For count_include_pad: how many positions of each output's window lie in
// the padded input, per output, [outField...] (the extra padding ceil_mode
// adds does not count, as in PyTorch).
std::vector<float> paddedWindowSizes(const PoolOp &pool, const Shape &field) {
  const std::size_t n = field.size();
  const auto strides = orDefault(pool.spatial.strides, n, 1);
  const auto pads = orDefault(pool.spatial.pads, 2 * n, 0);
  std::vector<float> sizes{1.0f};
  for (std::size_t d = 0; d < n; ++d) {
    std::vector<float> next;
    const auto &dim = pool.dims[d];
    const int64_t end = field[d] + (pool.spatial.autoPad == "NOTSET"
                                        ? pads[d + n]
                                        : dim.paddingUpper);
    for (float s : sizes)
      for (int64_t o = 0; o < dim.outSize; ++o) {
        const int64_t start = o * strides[d] - dim.paddingLower;
        const int64_t stop = std::min(start + pool.kernel[d], end);
        next.push_back(s * float(stop - start));
      }
    sizes.swap(next);
  }
  return sizes;
}

// popnn's pooling of a PoolOp: MAX, AVG, or SUM then a division by each
// window's size in the padded input when AveragePool counts the padding.
struct PoolPlan {
  PoolPlan(const PoolOp &pool, const Shape &x, const poplar::Type &type)
      : pool(pool), field(x.begin() + 2, x.end()),
        params(makeParams(pool, x, field, type, divideByPaddedWindow)) {}

  static popnn::pooling::PoolParams makeParams(const PoolOp &pool,
                                               const Shape &x,
                                               const Shape &field,
                                               const poplar::Type &type,
                                               bool &divideByPaddedWindow) {
    bool padded = false;
    std::vector<int> lower, upper;
    for (const auto &d : pool.dims) {
      lower.push_back(int(d.paddingLower));
      upper.push_back(int(d.paddingUpper));
      padded = padded || d.paddingLower || d.paddingUpper;
    }
    divideByPaddedWindow = !pool.isMax() && pool.countIncludePad && padded;
    const auto method = pool.isMax()            ? popnn::PoolingType::MAX
                        : divideByPaddedWindow ? popnn::PoolingType::SUM
                                               : popnn::PoolingType::AVG;
    const std::size_t n = field.size();
    const auto strides = orDefault(pool.spatial.strides, n, 1);
    return popnn::pooling::PoolParams(
        method, std::vector<std::size_t>(field.begin(), field.end()),
        std::vector<std::size_t>(pool.kernel.begin(), pool.kernel.end()),
        std::vector<unsigned>(strides.begin(), strides.end()), lower, upper,
        std::size_t(x[1]), std::size_t(x[0]), type);
  }

  // The window sizes, broadcast to the output's shape `outDims`.
  poplar::Tensor windowSizes(LoweringContext &ctx,
                             const std::vector<std::size_t> &outDims,
                             const poplar::Type &type,
                             poplar::program::Sequence &prog,
                             const std::string &name) const {
    const auto sizes = paddedWindowSizes(pool, field);
    std::vector<std::size_t> fieldDims(outDims.begin() + 2, outDims.end());
    poplar::Tensor divisor = ctx.graph.addConstant(
        poplar::FLOAT, fieldDims, sizes.data(), name + "/windowSizes");
    ctx.graph.setTileMapping(divisor, 0);
    divisor = castTo(ctx, divisor, type, prog, name);
    for (std::size_t d = 0; d < 2; ++d)
      divisor = divisor.expand({0});
    return divisor.broadcast(unsigned(outDims[0]), 0)
        .broadcast(unsigned(outDims[1]), 1);
  }

  const PoolOp &pool;
  Shape field;
  bool divideByPaddedWindow = false;
  popnn::pooling::PoolParams params;
};

// The flat position in the input (row-major over N and C, then the
// field row-major, or column-major for storage_order 1) of every element
// of the padded input [N, C, padded field...]; 0 in the padding.
std::vector<int> inputPositions(const PoolOp &pool, const Shape &x) {
  const std::size_t n = x.size() - 2;
  Shape padded(x.begin(), x.begin() + 2);
  for (std::size_t d = 0; d < n; ++d)
    padded.push_back(x[2 + d] + pool.dims[d].paddingLower +
                     pool.dims[d].paddingUpper);
  int64_t total = 1, fieldSize = 1;
  for (auto v : padded)
    total *= v;
  for (std::size_t d = 0; d < n; ++d)
    fieldSize *= x[2 + d];
  std::vector<int> positions(std::size_t(total), 0);
  std::vector<int64_t> at(padded.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t flat = (at[0] * x[1] + at[1]) * fieldSize, inner = 0;
    bool inside = true;
    for (std::size_t k = 0; k < n; ++k) {
      // Row-major: the last spatial dimension varies fastest; column-major:
      // the first.
      const std::size_t d = pool.storageOrder == 0 ? k : n - 1 - k;
      const int64_t v = at[2 + d] - pool.dims[d].paddingLower;
      inside = inside && v >= 0 && v < x[2 + d];
      inner = inner * x[2 + d] + v;
    }
    if (inside)
      positions[std::size_t(i)] = int(flat + inner);
    for (std::size_t d = padded.size(); d-- > 0;) {
      if (++at[d] < padded[d])
        break;
      at[d] = 0;
    }
  }
  return positions;
}

// t padded in each spatial dimension with `fill` as the pool's dims say.
poplar::Tensor padField(LoweringContext &ctx, const PoolOp &pool,
                        poplar::Tensor t, double fill, const std::string &name) {
  for (std::size_t d = 0; d < pool.dims.size(); ++d) {
    const unsigned dim = unsigned(2 + d);
    std::vector<poplar::Tensor> parts;
    auto filler = [&](int64_t size) {
      auto shape = t.shape();
      shape[dim] = std::size_t(size);
      return broadcastScalar(
          scalarConstant(ctx, t.elementType(), fill, name + "/fill"), shape);
    };
    if (pool.dims[d].paddingLower > 0)
      parts.push_back(filler(pool.dims[d].paddingLower));
    parts.push_back(t);
    if (pool.dims[d].paddingUpper > 0)
      parts.push_back(filler(pool.dims[d].paddingUpper));
    t = poplar::concat(parts, dim);
  }
  return t;
}

// MaxPool as a scan over the kernel's positions, one spatial dimension at
// a time (the maximum of a window is the maximum over its last dimension,
// then over the one before ...: the sum of the kernel's sizes steps, not
// their product). At each position of the dimension's window, a strided
// view of the tensor so far is compared with the maximum, which it
// replaces where it is greater: the first maximum in the window's
// row-major order is kept, with its input position (the Indices output).
void maxPoolByWindows(const PoolOp &pool, LoweringContext &ctx,
                      poplar::program::Sequence &prog) {
  const Shape x = pool.inShape(0);
  const std::size_t n = x.size() - 2;
  const std::string &name = pool.name();
  const poplar::Tensor in = ctx.get(pool.inTensor(0));
  const poplar::Type compute = arithmeticType(in.elementType());
  const double lowest = compute == poplar::INT
                            ? double(std::numeric_limits<int>::min())
                            : -std::numeric_limits<double>::infinity();
  // A tensor of its own spread over the tiles (the padding is a broadcast
  // constant on one tile, which every window would otherwise map there).
  const poplar::Tensor padded = padField(
      ctx, pool, castTo(ctx, in, compute, prog, name), lowest, name);
  poplar::Tensor best =
      ctx.graph.addVariable(compute, padded.shape(), name + "/padded");
  poputil::mapTensorLinearly(ctx.graph, best);
  prog.add(poplar::program::Copy(padded, best));
  const bool withIndices = pool.hasOutput(1);
  poplar::Tensor bestAt;
  if (withIndices)
    bestAt = hostConstant(ctx, poplar::INT, best.shape(),
                          inputPositions(pool, x), name + "/positions");
  const auto strides = orDefault(pool.spatial.strides, n, 1);
  const auto dilations = orDefault(pool.spatial.dilations, n, 1);
  for (std::size_t d = n; d-- > 0;) {
    const unsigned dim = unsigned(2 + d);
    auto window = [&](const poplar::Tensor &t, int64_t k) {
      const std::size_t start = std::size_t(k * dilations[d]);
      const std::size_t extent =
          std::size_t((pool.dims[d].outSize - 1) * strides[d] + 1);
      return t.slice(start, start + extent, dim)
          .subSample(unsigned(strides[d]), dim);
    };
    poplar::Tensor max = copyOf(ctx, window(best, 0), prog, name + "/max");
    poplar::Tensor at;
    if (withIndices)
      at = copyOf(ctx, window(bestAt, 0), prog, name + "/indices");
    for (int64_t k = 1; k < pool.kernel[d]; ++k) {
      const poplar::Tensor candidate = window(best, k);
      if (!withIndices) {
        popops::mapInPlace(ctx.graph, pe::Max(pe::_1, pe::_2),
                           {max, candidate}, prog, name);
        continue;
      }
      const poplar::Tensor greater = popops::map(
          ctx.graph, pe::Gt(pe::_1, pe::_2), {candidate, max}, prog, name);
      popops::mapInPlace(ctx.graph, pe::Select(pe::_2, pe::_1, pe::_3),
                         {at, window(bestAt, k), greater}, prog, name);
      popops::mapInPlace(ctx.graph, pe::Select(pe::_2, pe::_1, pe::_3),
                         {max, candidate, greater}, prog, name);
    }
    best = max;
    bestAt = at;
  }
  ctx.set(pool.outputs[0], castTo(ctx, best, in.elementType(), prog, name));
  if (withIndices)
    ctx.set(pool.outputs[1], bestAt);
}

} // namespace

void growPool(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &pool = static_cast<const PoolOp &>(op);
  if (pool.scansWindows()) {
    maxPoolByWindows(pool, ctx, prog);
    return;
  }
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const Shape x = op.inShape(0);
  const Shape field(x.begin() + 2, x.end());
  const auto &outShape = op.outputs[0]->info.shape();
  const std::vector<std::size_t> outDims(outShape.begin(), outShape.end());

  if (pool.isGlobal()) {
    std::vector<std::size_t> axes;
    std::size_t count = 1;
    for (std::size_t d = 2; d < x.size(); ++d) {
      axes.push_back(d);
      count *= std::size_t(x[d]);
    }
    poplar::Tensor y = popops::reduce(
        ctx.graph, in, axes,
        pool.isMax() ? popops::Operation::MAX : popops::Operation::ADD, prog,
        op.name());
    if (!pool.isMax())
      popops::mapInPlace(ctx.graph, pe::_1 * pe::Const(1.0f / float(count)),
                         {y}, prog, op.name());
    ctx.set(*op.outputs[0], y.reshape(outDims));
    return;
  }

  const PoolPlan plan(pool, x, in.elementType());
  poplar::Tensor y =
      popnn::pooling::pool(ctx.graph, plan.params, in, prog, op.name());
  if (plan.divideByPaddedWindow)
    popops::divInPlace(ctx.graph, y,
                       plan.windowSizes(ctx, outDims, y.elementType(), prog,
                                        op.name()),
                       prog, op.name());
  ctx.set(*op.outputs[0], y);
}

void growPoolGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const PoolOp &pool = *static_cast<const PoolGradOp &>(op).fwd;
  poplar::Tensor g = ctx.get(op.inTensor(0));
  const poplar::Tensor in = ctx.get(op.inTensor(1));
  const poplar::Tensor pooled = ctx.get(op.inTensor(2));
  const Shape &x = op.outputs[0]->info.shape();
  if (pool.isGlobal()) {
    // The output's gradient spread over the field (to the maxima for max).
    std::vector<std::size_t> kept{in.dim(0), in.dim(1)};
    kept.resize(in.rank(), 1);
    std::size_t count = 1;
    for (std::size_t d = 2; d < x.size(); ++d)
      count *= std::size_t(x[d]);
    auto spread = [&](const poplar::Tensor &t) {
      poplar::Tensor r = t.reshape(kept);
      for (std::size_t d = 2; d < x.size(); ++d)
        r = r.broadcast(static_cast<unsigned>(x[d]), static_cast<unsigned>(d));
      return r;
    };
    poplar::Tensor out =
        pool.isMax()
            ? popops::map(ctx.graph,
                          pe::Select(pe::_1, pe::Const(0.0f),
                                     pe::Equal(pe::_2, pe::_3)),
                          {spread(g), in, spread(pooled)}, prog, op.name())
            : popops::map(ctx.graph, pe::_1 * pe::Const(1.0f / float(count)),
                          {spread(g)}, prog, op.name());
    ctx.set(op.outputs[0], out);
    return;
  }
  const PoolPlan plan(pool, x, g.elementType());
  poplar::Tensor out;
  if (pool.isMax()) {
    out = popnn::pooling::poolInputGradient(ctx.graph, plan.params, in, pooled,
                                            g, false, prog, op.name());
  } else {
    if (plan.divideByPaddedWindow)
      g = popops::div(ctx.graph, g,
                      plan.windowSizes(ctx, g.shape(), g.elementType(), prog,
                                       op.name()),
                      prog, op.name());
    out = popnn::pooling::poolInputGradient(ctx.graph, plan.params, 1, g, prog,
                                            op.name());
  }
  ctx.set(op.outputs[0], out);
}

} // namespace popart
