// ConvOp: poplin::convolution with the ONNX attributes as the params'
// input padding, kernel dilation and output stride; the weights
// [M, C / G, kernel...] are poplin's [G, M / G, C / G, kernel...]; the bias
// is poplin::addBias.
#include "lowering/Lowering.hpp"
#include "ops/ConvOp.hpp"

#include <poplin/Convolution.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

namespace {

std::vector<std::size_t> sizes(const Shape &s, std::size_t from = 0) {
  return std::vector<std::size_t>(s.begin() + from, s.end());
}

} // namespace

poplar::Tensor denseActivations(LoweringContext &ctx, const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const std::string &name) {
  poplar::Tensor dense = ctx.graph.addVariable(out.elementType(), out.shape(),
                                               name + "/dense");
  // Spread evenly: the pooling after a convolution puts each output plane
  // on the tile of its input plane's first element, which the
  // convolution's blocks would gather on a few tiles.
  poputil::mapTensorLinearly(ctx.graph, dense);
  prog.add(poplar::program::Copy(out, dense));
  return dense;
}

void growConv(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &conv = static_cast<const ConvOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const Shape x = op.inShape(0), w = op.inShape(1);
  const std::size_t groups = std::size_t(conv.group);
  const std::size_t n = x.size() - 2;

  poplin::ConvParams params(in.elementType(), std::size_t(x[0]),
                            sizes(x, 2), sizes(conv.kernel),
                            std::size_t(x[1]) / groups,
                            std::size_t(w[0]) / groups, groups);
  const auto strides = orDefault(conv.spatial.strides, n, 1);
  const auto dilations = orDefault(conv.spatial.dilations, n, 1);
  for (std::size_t d = 0; d < n; ++d) {
    params.inputTransform.paddingLower[d] = unsigned(conv.dims[d].paddingLower);
    params.inputTransform.paddingUpper[d] = unsigned(conv.dims[d].paddingUpper);
    params.kernelTransform.dilation[d] = unsigned(dilations[d]);
    params.outputTransform.stride[d] = unsigned(strides[d]);
  }

  std::vector<std::size_t> weightShape{groups, std::size_t(w[0]) / groups,
                                       std::size_t(w[1])};
  weightShape.insert(weightShape.end(), w.begin() + 2, w.end());
  const poplar::Tensor weights = ctx.get(op.inTensor(1)).reshape(weightShape);
  mapLikePlannedOperand(ctx, *op.inTensor(1), weights, [&](poplar::Graph &g) {
    return poplin::createWeights(g, params, op.name());
  });

  poplar::Tensor out = poplin::convolution(ctx.graph, in, weights, params,
                                           /*transposeAndFlipWeights=*/false,
                                           prog, op.name(),
                                           poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions),
                                           &ctx.convCache);
  out = denseActivations(ctx, out, prog, op.name());
  if (op.hasInput(2))
    poplin::addBias(ctx.graph, out, ctx.get(op.inTensor(2)), prog, op.name());
  ctx.set(*op.outputs[0], out);
}

} // namespace popart
