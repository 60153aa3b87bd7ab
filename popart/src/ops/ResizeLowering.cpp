// ResizeOp: dimension by dimension, the input with that dimension last
// times the constant transposed weights of its interpolation (a poplin
// matmul, [rest, in] x [in, out]); dimensions whose weights are the
// identity are skipped. With tf_crop_and_resize, the output positions
// outside the roi take the extrapolation value.
#include "lowering/Lowering.hpp"
#include "ops/ResizeOp.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {
namespace pe = popops::expr;

void growResize(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &r = static_cast<const ResizeOp &>(op);
  const std::string &name = op.name();
  poplar::Tensor x = ctx.get(op.inTensor(0));
  const std::size_t rank = x.rank();
  const std::vector<std::size_t> outShape = dims(op.outShape(0));
  // Whether each output element lies outside the roi in some dimension.
  std::vector<int> outsideAny;
  bool anyOutside = false;
  for (std::size_t d = 0; d < rank; ++d) {
    std::vector<bool> outside;
    const std::vector<float> w = r.weights(d, outside);
    const std::size_t in = x.dim(static_cast<unsigned>(d)), out = outShape[d];
    for (bool o : outside)
      anyOutside = anyOutside || o;
    if (anyOutside && outsideAny.empty())
      outsideAny.assign(op.outInfo(0).nelms(), 0);
    if (!outsideAny.empty()) {
      std::size_t inner = 1;
      for (std::size_t e = d + 1; e < rank; ++e)
        inner *= outShape[e];
      for (std::size_t i = 0; i < outsideAny.size(); ++i)
        if (outside[(i / inner) % out])
          outsideAny[i] = 1;
    }
    bool identity = in == out;
    for (std::size_t o = 0; identity && o < out; ++o)
      for (std::size_t i = 0; identity && i < in; ++i)
        identity = w[o * in + i] == (o == i ? 1.0f : 0.0f);
    if (identity)
      continue;
    std::vector<float> transposed(in * out);
    for (std::size_t o = 0; o < out; ++o)
      for (std::size_t i = 0; i < in; ++i)
        transposed[i * out + o] = w[o * in + i];
    std::vector<unsigned> perm;
    for (unsigned e = 0; e < rank; ++e)
      if (e != d)
        perm.push_back(e);
    perm.push_back(static_cast<unsigned>(d));
    const poplar::Tensor moved = x.dimShuffle(perm);
    std::vector<std::size_t> movedShape = moved.shape();
    const std::size_t rest = moved.numElements() / std::max<std::size_t>(in, 1);
    const poplar::Tensor product = lowerMatMul(
        ctx, moved.reshape({rest, in}),
        hostConstant(ctx, x.elementType(), {in, out}, transposed,
                     name + "/weights"),
        Shape{int64_t(rest), int64_t(out)}, prog, name);
    movedShape.back() = out;
    std::vector<unsigned> inverse(rank);
    for (unsigned e = 0; e < rank; ++e)
      inverse[perm[e]] = e;
    x = product.reshape(movedShape).dimShuffle(inverse);
  }
  if (anyOutside) {
    std::vector<float> mask(outsideAny.begin(), outsideAny.end());
    x = popops::map(ctx.graph,
                    pe::Select(pe::Const(r.extrapolation), pe::_1,
                               pe::Gt(pe::_2, pe::Const(0.0f))),
                    {x, hostConstant(ctx, x.elementType(), outShape, mask,
                                     name + "/outside")},
                    prog, name);
  }
  ctx.set(op.outputs[0], copyOf(ctx, x, prog, name));
}

} // namespace popart
