// DFTOp: the signal along the axis (cut or zero-padded to the length) as
// rows, multiplied by cosine and sine matrices (host constants, poplin
// matmuls) into the real and imaginary parts of the frequencies.
#include "lowering/Lowering.hpp"
#include "ops/DFTOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include <cmath>

namespace popart {
namespace pe = popops::expr;

void growDFT(const Op &op, LoweringContext &ctx,
             poplar::program::Sequence &prog) {
  const auto &dft = static_cast<const DFTOp &>(op);
  const std::string &name = op.name();
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const unsigned rank = unsigned(x.rank());
  const unsigned axis = unsigned(dft.axis);
  // [others..., axis, complex]: the axis moved next to the last.
  std::vector<unsigned> order;
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (d != axis)
      order.push_back(d);
  order.push_back(axis);
  order.push_back(rank - 1);
  x = x.dimShuffle(order);
  const auto moved = x.shape();
  const std::size_t given = moved[rank - 2];
  const std::size_t n = std::size_t(dft.length), k = std::size_t(dft.frequencies);
  std::size_t rows = 1;
  for (unsigned d = 0; d + 2 < rank; ++d)
    rows *= moved[d];
  x = x.reshape({rows, given, moved[rank - 1]});
  // Cut or padded with zeros to the length.
  if (given > n)
    x = x.slice(0, n, 1);
  auto part = [&](std::size_t c) {
    poplar::Tensor p = x.slice(c, c + 1, 2).reshape({rows, std::min(given, n)});
    if (given < n)
      p = poplar::concat(
          p, broadcastScalar(scalarConstant(ctx, poplar::FLOAT, 0.0,
                                            name + "/zero"),
                             {rows, n - given}),
          1);
    return p;
  };
  const poplar::Tensor re = part(0);
  std::vector<float> cosines(n * k), sines(n * k);
  const double pi = std::acos(-1.0);
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t f = 0; f < k; ++f) {
      // The angle of t * f / n turns, reduced first to keep it exact.
      const double angle = 2 * pi * double((t * f) % n) / double(n);
      cosines[t * k + f] = float(std::cos(angle));
      sines[t * k + f] = float(std::sin(angle));
    }
  const poplar::Tensor cos =
      hostConstant(ctx, poplar::FLOAT, {n, k}, cosines, name + "/cos");
  const poplar::Tensor sin =
      hostConstant(ctx, poplar::FLOAT, {n, k}, sines, name + "/sin");
  const Shape product{int64_t(rows), int64_t(k)};
  const poplar::Tensor rc = lowerMatMul(ctx, re, cos, product, prog, name);
  const poplar::Tensor rs = lowerMatMul(ctx, re, sin, product, prog, name);
  // e^(-i angle) forwards, e^(i angle) / n inverse.
  const float sign = dft.inverse ? 1.0f : -1.0f;
  const float scale = dft.inverse ? 1.0f / float(n) : 1.0f;
  poplar::Tensor real, imaginary;
  if (moved[rank - 1] == 2) {
    const poplar::Tensor im = part(1);
    const poplar::Tensor ic = lowerMatMul(ctx, im, cos, product, prog, name);
    const poplar::Tensor is = lowerMatMul(ctx, im, sin, product, prog, name);
    // (re + i im)(cos + i sign sin)
    real = popops::map(ctx.graph,
                       pe::Mul(pe::Sub(pe::_1, pe::Mul(pe::Const(sign), pe::_2)),
                               pe::Const(scale)),
                       {rc, is}, prog, name);
    imaginary = popops::map(
        ctx.graph,
        pe::Mul(pe::Add(pe::_1, pe::Mul(pe::Const(sign), pe::_2)),
                pe::Const(scale)),
        {ic, rs}, prog, name);
  } else {
    real = popops::map(ctx.graph, pe::Mul(pe::_1, pe::Const(scale)), {rc},
                       prog, name);
    imaginary = popops::map(ctx.graph,
                            pe::Mul(pe::_1, pe::Const(sign * scale)), {rs},
                            prog, name);
  }
  // Back to the input's order with the frequencies on the axis.
  std::vector<std::size_t> shape(moved.begin(), moved.end());
  shape[rank - 2] = k;
  shape[rank - 1] = 2;
  poplar::Tensor y =
      poplar::concat(real.expand({2}), imaginary.expand({2}), 2).reshape(shape);
  std::vector<unsigned> back(rank);
  for (unsigned d = 0; d < rank; ++d)
    back[order[d]] = d;
  ctx.set(op.outputs[0], copyOf(ctx, y.dimShuffle(back), prog, name));
}

} // namespace popart
