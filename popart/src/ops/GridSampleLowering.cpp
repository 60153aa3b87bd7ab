// GridSampleOp: the source coordinates of every output point computed from
// the grid by popops expressions (unnormalised, then clamped or reflected
// by the padding mode); each tap of the interpolation (1 nearest, 4
// bilinear, 16 bicubic) gathers its pixel of every channel (popops::gather
// of the rows of X as [N * H * W, C]) and adds it with its weight, zero
// where the tap lies outside X.
#include "lowering/Lowering.hpp"
#include "ops/GridSampleOp.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

struct Sampler {
  const GridSampleOp &op;
  LoweringContext &ctx;
  poplar::program::Sequence &prog;
  poplar::Tensor rows;  // X as [N * H * W, C]
  poplar::Tensor first; // the first row of each point's image, [points]
  float height, width;

  poplar::Tensor map(const pe::Expr &e, const std::vector<poplar::Tensor> &ts) {
    return popops::map(ctx.graph, e, ts, prog, op.name());
  }

  // A grid coordinate in [-1, 1] as a pixel coordinate of a side of
  // `size` pixels.
  pe::Any unnormalised(const pe::Any &g, float size) const {
    if (op.alignCorners)
      return pe::Mul(pe::Add(g, pe::Const(1.0f)), pe::Const((size - 1) / 2));
    return pe::Divide(
        pe::Sub(pe::Mul(pe::Add(g, pe::Const(1.0f)), pe::Const(size)),
                pe::Const(1.0f)),
        pe::Const(2.0f));
  }

  // A coordinate clamped into the side (border) or reflected at its
  // edges and then clamped (reflection), as PyTorch's grid_sample does;
  // unchanged for zeros padding.
  pe::Any padded(const pe::Any &c, float size) const {
    const pe::Any clamped = pe::Max(pe::Min(c, pe::Const(size - 1)),
                                    pe::Const(0.0f));
    if (op.paddingMode == "border")
      return clamped;
    if (op.paddingMode == "zeros")
      return c;
    // Reflection between low and high (the pixel centres with
    // align_corners, else the outer edges).
    const float low = op.alignCorners ? 0.0f : -0.5f;
    const float span = op.alignCorners ? size - 1 : size;
    if (span <= 0)
      return pe::Const(0.0f);
    const pe::Any d = pe::Abs(pe::Sub(c, pe::Const(low)));
    const pe::Any flips = pe::Floor(pe::Divide(d, pe::Const(span)));
    const pe::Any extra = pe::Sub(d, pe::Mul(flips, pe::Const(span)));
    const pe::Any even =
        pe::Equal(pe::Rem(flips, pe::Const(2.0f)), pe::Const(0.0f));
    const pe::Any reflected =
        pe::Select(pe::Add(extra, pe::Const(low)),
                   pe::Add(pe::Sub(pe::Const(span), extra), pe::Const(low)),
                   even);
    return pe::Max(pe::Min(reflected, pe::Const(size - 1)), pe::Const(0.0f));
  }

  // Adds weight * X[tap] to `sum` ([points, C]) for the integer pixel
  // coordinates (tx, ty) (FLOAT [points]), zero outside X.
  void addTap(poplar::Tensor &sum, const poplar::Tensor &tx,
              const poplar::Tensor &ty, const poplar::Tensor &weight) {
    const auto inside = pe::And(
        pe::And(pe::Gte(pe::_1, pe::Const(0.0f)),
                pe::Lte(pe::_1, pe::Const(width - 1))),
        pe::And(pe::Gte(pe::_2, pe::Const(0.0f)),
                pe::Lte(pe::_2, pe::Const(height - 1))));
    const poplar::Tensor w =
        map(pe::Select(pe::_3, pe::Const(0.0f), inside), {tx, ty, weight});
    const poplar::Tensor row = map(
        pe::Add(pe::_3,
                pe::Add(pe::Mul(pe::Max(pe::Min(pe::_2, pe::Const(height - 1)),
                                        pe::Const(0.0f)),
                                pe::Const(width)),
                        pe::Max(pe::Min(pe::_1, pe::Const(width - 1)),
                                pe::Const(0.0f)))),
        {tx, ty, first});
    const poplar::Tensor values = popops::gather(
        ctx.graph, rows,
        popops::cast(ctx.graph, row, poplar::UNSIGNED_INT, prog, op.name()), 0,
        prog, {}, op.name());
    const poplar::Tensor weighted = map(
        pe::Mul(pe::_1, pe::_2),
        {values, w.expand({1}).broadcast(unsigned(rows.dim(1)), 1)});
    if (!sum.valid())
      sum = weighted;
    else
      popops::addInPlace(ctx.graph, sum, weighted, prog, op.name());
  }
};

// The cubic convolution weight (a = -0.75) of a tap at distance d.
pe::Any cubicWeight(const pe::Any &d, bool near) {
  const float a = -0.75f;
  if (near) // |d| <= 1
    return pe::Add(pe::Mul(pe::Mul(pe::Sub(pe::Mul(pe::Const(a + 2), d),
                                           pe::Const(a + 3)),
                                   d),
                           d),
                   pe::Const(1.0f));
  // 1 < |d| < 2
  return pe::Sub(
      pe::Mul(pe::Add(pe::Mul(pe::Sub(pe::Mul(pe::Const(a), d),
                                      pe::Const(5 * a)),
                              d),
                      pe::Const(8 * a)),
              d),
      pe::Const(4 * a));
}

} // namespace

void growGridSample(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &gs = static_cast<const GridSampleOp &>(op);
  const Shape x = op.inShape(0), grid = op.inShape(1);
  const std::size_t n = std::size_t(x[0]), c = std::size_t(x[1]),
                    h = std::size_t(x[2]), w = std::size_t(x[3]);
  const std::size_t points = n * std::size_t(grid[1] * grid[2]);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const poplar::Tensor g = ctx.get(op.inTensor(1)).reshape({points, 2});
  std::vector<int> firstRows;
  for (std::size_t p = 0; p < points; ++p)
    firstRows.push_back(int((p / (points / n)) * h * w));
  Sampler s{gs,
            ctx,
            prog,
            in.dimShuffle({0, 2, 3, 1}).reshape({n * h * w, c}),
            hostConstant(ctx, poplar::FLOAT, {points}, firstRows,
                         op.name() + "/firstRows"),
            float(h),
            float(w)};
  const poplar::Tensor gx = g.slice(0, 1, 1).flatten();
  const poplar::Tensor gy = g.slice(1, 2, 1).flatten();
  poplar::Tensor sum;
  if (gs.mode == "bicubic") {
    // The taps around the unpadded point; each tap padded on its own.
    const poplar::Tensor ux = s.map(s.unnormalised(pe::_1, s.width), {gx});
    const poplar::Tensor uy = s.map(s.unnormalised(pe::_1, s.height), {gy});
    const poplar::Tensor x0 = s.map(pe::Floor(pe::_1), {ux});
    const poplar::Tensor y0 = s.map(pe::Floor(pe::_1), {uy});
    const poplar::Tensor fx = s.map(pe::Sub(pe::_1, pe::_2), {ux, x0});
    const poplar::Tensor fy = s.map(pe::Sub(pe::_1, pe::_2), {uy, y0});
    // The weights of taps -1, 0, 1, 2 at fractional position f.
    auto weights = [&](const poplar::Tensor &f) {
      return std::vector<poplar::Tensor>{
          s.map(cubicWeight(pe::Add(pe::_1, pe::Const(1.0f)), false), {f}),
          s.map(cubicWeight(pe::_1, true), {f}),
          s.map(cubicWeight(pe::Sub(pe::Const(1.0f), pe::_1), true), {f}),
          s.map(cubicWeight(pe::Sub(pe::Const(2.0f), pe::_1), false), {f})};
    };
    const auto wx = weights(fx), wy = weights(fy);
    for (int j = 0; j < 4; ++j) {
      const poplar::Tensor ty =
          s.map(s.padded(pe::Add(pe::_1, pe::Const(float(j - 1))), s.height),
                {y0});
      for (int i = 0; i < 4; ++i) {
        const poplar::Tensor tx =
            s.map(s.padded(pe::Add(pe::_1, pe::Const(float(i - 1))), s.width),
                  {x0});
        s.addTap(sum, tx, ty,
                 s.map(pe::Mul(pe::_1, pe::_2),
                       {wx[std::size_t(i)], wy[std::size_t(j)]}));
      }
    }
  } else {
    const poplar::Tensor px =
        s.map(s.padded(s.unnormalised(pe::_1, s.width), s.width), {gx});
    const poplar::Tensor py =
        s.map(s.padded(s.unnormalised(pe::_1, s.height), s.height), {gy});
    if (gs.mode == "nearest") {
      s.addTap(sum, s.map(pe::NearbyInt(pe::_1), {px}),
               s.map(pe::NearbyInt(pe::_1), {py}),
               broadcastScalar(scalarConstant(ctx, poplar::FLOAT, 1.0,
                                              op.name() + "/one"),
                               {points}));
    } else {
      const poplar::Tensor x0 = s.map(pe::Floor(pe::_1), {px});
      const poplar::Tensor y0 = s.map(pe::Floor(pe::_1), {py});
      const poplar::Tensor fx = s.map(pe::Sub(pe::_1, pe::_2), {px, x0});
      const poplar::Tensor fy = s.map(pe::Sub(pe::_1, pe::_2), {py, y0});
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
          s.addTap(sum, s.map(pe::Add(pe::_1, pe::Const(float(i))), {x0}),
                   s.map(pe::Add(pe::_1, pe::Const(float(j))), {y0}),
                   s.map(pe::Mul(i ? pe::Any(pe::_1)
                                   : pe::Any(pe::Sub(pe::Const(1.0f), pe::_1)),
                                 j ? pe::Any(pe::_2)
                                   : pe::Any(pe::Sub(pe::Const(1.0f), pe::_2))),
                         {fx, fy}));
    }
  }
  // [N, H_out, W_out, C] -> [N, C, H_out, W_out]
  ctx.set(op.outputs[0],
          copyOf(ctx,
                 sum.reshape({n, std::size_t(grid[1]), std::size_t(grid[2]), c})
                     .dimShuffle({0, 3, 1, 2}),
                 prog, op.name()));
}

} // namespace popart
