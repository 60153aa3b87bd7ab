// RoiAlignOp. A bilinear sample of X at row y (clamped into [0, H - 1])
// is sum_h max(0, 1 - |y - h|) X[h]: the tent weights of the rows. The
// average over a bin's samples is so, for region r, A_r X_r B_r^T, where
// A_r [output_height, H] sums the row weights of each bin's sample rows
// (zero for a sample more than a pixel outside X) and B_r
// [output_width, W] the column weights: popops expressions build A and B
// from the regions on the device, popops::gather takes each region's
// image and two poplin matmuls apply them.
//
// Mode max is ONNX's (its reference implementation's, and onnxruntime's):
// each sample is the largest of its four bilinear terms w_k * X[corner k]
// (not their sum), and each bin the largest of its samples. The rows of
// A_r and B_r are then one corner of one sample each (its weight at its
// pixel, zero elsewhere), so A_r X_r B_r^T holds every term of every
// sample, and a max reduction over each bin's terms gives the output.
#include "lowering/Lowering.hpp"
#include "ops/RoiAlignOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Reduce.hpp>

#include <algorithm>

namespace popart {
namespace pe = popops::expr;

namespace {

// The four operands [R, bins * grid, size] of the expressions below, all
// broadcast to that shape: each region's start and bin length along the
// axis, each sample's position in bins from the start (sample k of bin b
// lies b + (k + 0.5) / grid bins in), and each pixel's coordinate.
std::vector<poplar::Tensor> sampleOperands(LoweringContext &ctx,
                                           const poplar::Tensor &start,
                                           const poplar::Tensor &bin,
                                           std::size_t bins, std::size_t grid,
                                           std::size_t size,
                                           const std::string &name) {
  const std::size_t samples = bins * grid;
  std::vector<float> fractions, pixels;
  for (std::size_t b = 0; b < bins; ++b)
    for (std::size_t k = 0; k < grid; ++k)
      fractions.push_back(float(b) + (float(k) + 0.5f) / float(grid));
  for (std::size_t p = 0; p < size; ++p)
    pixels.push_back(float(p));
  const poplar::Tensor f =
      hostConstant(ctx, poplar::FLOAT, {samples}, fractions, name + "/fractions");
  const poplar::Tensor p =
      hostConstant(ctx, poplar::FLOAT, {size}, pixels, name + "/pixels");
  const std::vector<std::size_t> shape{start.dim(0), samples, size};
  // t (one of the dimensions of `shape`) broadcast along the others.
  auto spread = [&](const poplar::Tensor &t, std::vector<std::size_t> axes) {
    std::vector<std::size_t> ones(shape.size(), 1);
    for (std::size_t a = 0; a < shape.size(); ++a)
      if (std::find(axes.begin(), axes.end(), a) == axes.end())
        ones[a] = shape[a];
    poplar::Tensor out = t.reshape(ones);
    for (std::size_t a : axes)
      out = out.broadcast(unsigned(shape[a]), unsigned(a));
    return out;
  };
  return {spread(start, {1, 2}), spread(bin, {1, 2}), spread(f, {0, 2}),
          spread(p, {0, 1})};
}

// A sample's position (_1 + _2 * _3 of sampleOperands), and whether it is
// near enough to the axis to count (ONNX drops samples more than a pixel
// outside).
pe::Any samplePosition() { return pe::Add(pe::_1, pe::Mul(pe::_2, pe::_3)); }
pe::Any sampleInside(std::size_t size) {
  return pe::And(pe::Gte(samplePosition(), pe::Const(-1.0f)),
                 pe::Lte(samplePosition(), pe::Const(float(size))));
}
pe::Any clampedPosition(std::size_t size) {
  return pe::Min(pe::Max(samplePosition(), pe::Const(0.0f)),
                 pe::Const(float(size) - 1));
}

// The weights [R, bins, size] of one axis: `start` and `bin` [R] are each
// region's start and bin length along it.
poplar::Tensor axisWeights(LoweringContext &ctx, const poplar::Tensor &start,
                           const poplar::Tensor &bin, std::size_t bins,
                           std::size_t grid, std::size_t size,
                           poplar::program::Sequence &prog,
                           const std::string &name) {
  const std::size_t regions = start.dim(0);
  const auto tent = pe::Max(
      pe::Sub(pe::Const(1.0f), pe::Abs(pe::Sub(clampedPosition(size), pe::_4))),
      pe::Const(0.0f));
  const poplar::Tensor weights = popops::map(
      ctx.graph, pe::Select(tent, pe::Const(0.0f), sampleInside(size)),
      sampleOperands(ctx, start, bin, bins, grid, size, name), prog, name);
  return popops::reduce(ctx.graph, weights.reshape({regions, bins, grid, size}),
                        {2}, popops::Operation::ADD, prog, name);
}

// The corner weights [R, bins * grid * 2, size] of one axis: for sample
// k of bin b, row (b * grid + k) * 2 holds the weight of its lower pixel
// at that pixel, the next row that of its upper pixel (both zero for a
// sample more than a pixel outside X).
poplar::Tensor axisCornerWeights(LoweringContext &ctx,
                                 const poplar::Tensor &start,
                                 const poplar::Tensor &bin, std::size_t bins,
                                 std::size_t grid, std::size_t size,
                                 poplar::program::Sequence &prog,
                                 const std::string &name) {
  const std::size_t regions = start.dim(0), samples = bins * grid;
  const auto low = pe::Floor(clampedPosition(size));
  const auto upperShare = pe::Sub(clampedPosition(size), low);
  const std::vector<poplar::Tensor> operands =
      sampleOperands(ctx, start, bin, bins, grid, size, name);
  const auto at = [&](const pe::Any &weight, const pe::Any &pixel) {
    return pe::Select(pe::Select(weight, pe::Const(0.0f), pe::Equal(pe::_4, pixel)),
                      pe::Const(0.0f), sampleInside(size));
  };
  const poplar::Tensor lower =
      popops::map(ctx.graph, at(pe::Sub(pe::Const(1.0f), upperShare), low),
                  operands, prog, name + "/lower");
  const poplar::Tensor upper =
      popops::map(ctx.graph, at(upperShare, pe::Add(low, pe::Const(1.0f))),
                  operands, prog, name + "/upper");
  return poplar::concat(lower.expand({2}), upper.expand({2}), 2)
      .reshape({regions, samples * 2, size});
}

} // namespace

void growRoiAlign(const Op &op_, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &op = static_cast<const RoiAlignOp &>(op_);
  const Shape x = op.inShape(0);
  const std::size_t n = std::size_t(x[0]), c = std::size_t(x[1]),
                    h = std::size_t(x[2]), w = std::size_t(x[3]);
  const std::size_t regions = std::size_t(op.inShape(1)[0]);
  const auto ph = std::size_t(op.outputHeight),
             pw = std::size_t(op.outputWidth),
             grid = std::size_t(op.samplingRatio);
  const std::string name = op.name();
  const poplar::Tensor rois = ctx.get(op.inTensor(1));
  auto map = [&](const pe::Expr &e, const std::vector<poplar::Tensor> &ts) {
    return popops::map(ctx.graph, e, ts, prog, name);
  };
  const float offset = op.halfPixel ? 0.5f : 0.0f;
  // Each region's start and bin length along one axis from its
  // coordinates lo and hi.
  auto axis = [&](unsigned lo, unsigned hi, std::size_t bins) {
    const poplar::Tensor a = rois.slice(lo, lo + 1, 1).flatten();
    const poplar::Tensor b = rois.slice(hi, hi + 1, 1).flatten();
    const auto scaled = [&](const pe::Any &v) {
      return pe::Sub(pe::Mul(v, pe::Const(op.spatialScale)), pe::Const(offset));
    };
    const poplar::Tensor start = map(scaled(pe::_1), {a});
    pe::Any length = pe::Sub(scaled(pe::_2), scaled(pe::_1));
    if (!op.halfPixel)
      length = pe::Max(length, pe::Const(1.0f));
    const poplar::Tensor bin =
        map(pe::Divide(length, pe::Const(float(bins))), {a, b});
    return std::make_pair(start, bin);
  };
  const auto [startY, binY] = axis(1, 3, ph);
  const auto [startX, binX] = axis(0, 2, pw);
  const bool max = op.mode == RoiAlignOp::Mode::Max;
  // Rows of the weights: the bins (avg), or every corner of every sample
  // (max).
  const std::size_t rowsY = max ? ph * grid * 2 : ph,
                    rowsX = max ? pw * grid * 2 : pw;
  const auto weights = max ? axisCornerWeights : axisWeights;
  const poplar::Tensor rowWeights =
      weights(ctx, startY, binY, ph, grid, h, prog, name + "/rows");
  const poplar::Tensor columnWeights =
      weights(ctx, startX, binX, pw, grid, w, prog, name + "/columns");

  // Each region's image [R, C, H, W].
  const poplar::Tensor indices = popops::cast(
      ctx.graph, ctx.get(op.inTensor(2)).flatten(), poplar::UNSIGNED_INT, prog,
      name);
  const poplar::Tensor images =
      popops::gather(ctx.graph, ctx.get(op.inTensor(0)).reshape({n, c * h * w}),
                     indices, 0, prog, {}, name)
          .reshape({regions, c, h, w});
  // [R, C, H, W] x [R, 1, W, PW], then [R, 1, PH, H] x [R, C, H, PW].
  const Shape rc = {int64_t(regions), int64_t(c)};
  const poplar::Tensor columnsDone = lowerMatMul(
      ctx, images, columnWeights.dimShuffle({0, 2, 1}).expand({1}),
      {rc[0], rc[1], int64_t(h), int64_t(rowsX)}, prog, name + "/columns");
  const poplar::Tensor sums =
      lowerMatMul(ctx, rowWeights.expand({1}), columnsDone,
                  {rc[0], rc[1], int64_t(rowsY), int64_t(rowsX)}, prog,
                  name + "/rows");
  if (max) {
    // [R, C, PH, grid * 2, PW, grid * 2]: the terms of each bin.
    ctx.set(op.outputs[0],
            popops::reduce(ctx.graph,
                           sums.reshape({regions, c, ph, grid * 2, pw, grid * 2}),
                           {3, 5}, popops::Operation::MAX, prog, name + "/max"));
    return;
  }
  ctx.set(op.outputs[0], map(pe::Mul(pe::_1, pe::Const(1.0f / float(grid * grid))),
                             {sums}));
}

} // namespace popart
