// ConvTransposeOp: the input gradient of the convolution it transposes.
// That forward convolution reads the ConvTranspose's output field (with
// its padding) and writes X; poplin::getGradientParams turns its params
// into those of the "full" convolution of X with the flipped kernel, which
// poplin::convolution runs with transposeAndFlipWeights. ONNX's weights
// [C, M / G, kernel...] are the forward weights [G, C / G, M / G, kernel...].
#include "lowering/Lowering.hpp"
#include "ops/ConvTransposeOp.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>

namespace popart {

void growConvTranspose(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &conv = static_cast<const ConvTransposeOp &>(op);
  const poplar::Tensor in = ctx.get(op.inTensor(0));
  const Shape x = op.inShape(0), w = op.inShape(1);
  const std::size_t groups = std::size_t(conv.group);
  const std::size_t n = x.size() - 2;
  const std::size_t inChansPerGroup = std::size_t(x[1]) / groups;
  const std::size_t outChansPerGroup = std::size_t(w[1]);

  poplin::ConvParams forward(
      in.elementType(), std::size_t(x[0]),
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
  const poplar::Tensor weights = ctx.get(op.inTensor(1)).reshape(weightShape);

  poplar::Tensor out = poplin::convolution(
      ctx.graph, in, weights, poplin::getGradientParams(forward),
      /*transposeAndFlipWeights=*/true, prog, op.name(),
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions), &ctx.convCache);
  out = denseActivations(ctx, out, prog, op.name());
  if (op.hasInput(2))
    poplin::addBias(ctx.graph, out, ctx.get(op.inTensor(2)), prog, op.name());
  ctx.set(*op.outputs[0], out);
}

} // namespace popart
