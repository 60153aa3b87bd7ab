// ConvTransposeOp: the input gradient of the convolution it transposes.
// That forward convolution reads the ConvTranspose's output field (with
// its padding) and writes X; poplin::getGradientParams turns its params
// into those of the "full" convolution of X with the flipped kernel, which
// poplin::convolution runs with transposeAndFlipWeights. ONNX's weights
// [C, M / G, kernel...] are the forward weights [G, C / G, M / G, kernel...].
#include "lowering/Lowering.hpp"
#include "ops/ConvTransposeOp.hpp"

#include <popops/Reduce.hpp>

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>

namespace popart {

namespace {

// The convolution the transposed one is the input gradient of: it reads
// the output field and writes X, with the weights
// [G, C / G, M / G, kernel...].
struct TransposedConv {
  poplin::ConvParams forward;
  std::vector<std::size_t> weightShape;
};

TransposedConv transposedConv(const ConvTransposeOp &conv, const Shape &x,
                              const Shape &w, const poplar::Type &type) {
  const std::size_t groups = std::size_t(conv.group);
  const std::size_t n = x.size() - 2;
  const std::size_t inChansPerGroup = std::size_t(x[1]) / groups;
  const std::size_t outChansPerGroup = std::size_t(w[1]);

  poplin::ConvParams forward(
      type, std::size_t(x[0]),
      std::vector<std::size_t>(conv.outField.begin(), conv.outField.end()),
      std::vector<std::size_t>(conv.kernel.begin(), conv.kernel.end()),
      outChansPerGroup, inChansPerGroup, groups);
  const auto strides = orDefault(conv.spatial.strides, n, 1);
  const auto dilations = orDefault(conv.spatial.dilations, n, 1);
  for (std::size_t d = 0; d < n; ++d) {
    forward.inputTransform.paddingLower[d] = unsigned(conv.padLower[d]);
    forward.inputTransform.paddingUpper[d] = unsigned(conv.padUpper[d]);
    forward.kernelTransform.dilation[d] = unsigned(dilations[d]);
    forward.outputTransform.stride[d] = unsigned(strides[d]);
    // A large output_padding would give the forward convolution outputs
    // past X's field: they are truncated (before the stride).
    const std::size_t full = forward.getUntransformedOutputSize(unsigned(d));
    const std::size_t needed = std::size_t(x[d + 2] - 1) * strides[d] + 1;
    if (full > needed)
      forward.outputTransform.truncationUpper[d] = unsigned(full - needed);
  }

  std::vector<std::size_t> weightShape{groups, inChansPerGroup,
                                       outChansPerGroup};
  weightShape.insert(weightShape.end(), w.begin() + 2, w.end());
  return {forward, weightShape};
}

} // namespace

void growConvTranspose(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &conv = static_cast<const ConvTransposeOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const auto t = transposedConv(conv, op.inShape(0), op.inShape(1),
                                in.elementType());
  const poplin::ConvParams &forward = t.forward;
  const poplar::Tensor weights = ctx.get(op.inTensor(1)).reshape(t.weightShape);

  poplar::Tensor out = poplin::convolution(
      ctx.graph, in, weights, poplin::getGradientParams(forward),
      /*transposeAndFlipWeights=*/true, prog, op.name(),
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions), &ctx.convCache);
  out = denseActivations(ctx, out, prog, op.name());
  if (op.hasInput(2))
    poplin::addBias(ctx.graph, out, ctx.get(op.inTensor(2)), prog, op.name());
  ctx.set(*op.outputs[0], out);
}


void growConvTransposeGrad(const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ConvTransposeGradOp &>(op);
  const ConvTransposeOp &conv = *grad.fwd;
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const auto t = transposedConv(conv, grad.fwdInShape(0), grad.fwdInShape(1),
                                g.elementType());
  const poplar::OptionFlags options =
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions);
  poplar::Tensor out;
  if (grad.arg == 0) {
    out = poplin::convolution(ctx.graph, g,
                              ctx.get(op.inTensor(1)).reshape(t.weightShape),
                              t.forward, /*transposeAndFlipWeights=*/false,
                              prog, op.name(), options, &ctx.convCache);
  } else if (grad.arg == 1) {
    // <g, convT(x)> = <conv(g), x>: the weight deltas of the convolution
    // with g as its input and x as its output's gradient.
    out = poplin::calculateWeightDeltas(ctx.graph, ctx.get(op.inTensor(1)), g,
                                        t.forward, prog, op.name(), options,
                                        &ctx.convCache);
  } else {
    std::vector<std::size_t> axes{0};
    for (std::size_t d = 2; d < g.rank(); ++d)
      axes.push_back(d);
    out = popops::reduce(ctx.graph, g, g.elementType(), axes,
                         popops::Operation::ADD, prog, op.name());
  }
  ctx.set(op.outputs[0], out.reshape(dims(op.outputs[0]->info.shape())));
}

} // namespace popart
