// MultiConv on poplin::multiconv: each convolution's params carry its
// input dilation and padding, kernel dilation, stride and output padding;
// its own options (partialsType, availableMemoryProportion,
// enableConvDithering) lie over the session's convolution options, and
// the op's planType, perConvReservedTiles and cycleBackOff are the call's
// multi-convolution options. The data gradients are one multiconv of the
// output gradients with the transposed, flipped weights; the weights
// gradients one multiconv::calculateWeightDeltas; a bias gradient sums the
// output gradient over all but its channels.
#include "lowering/Lowering.hpp"
#include "ops/MultiConvOp.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/MultiConvolution.hpp>
#include <popops/Reduce.hpp>

namespace popart {

namespace {

std::vector<unsigned> unsignedOf(const std::vector<int64_t> &v) {
  return std::vector<unsigned>(v.begin(), v.end());
}

poplin::ConvParams convParams(const MultiConvGeometry &g, const Shape &x,
                              const Shape &w, const poplar::Type &type) {
  const auto groups = std::size_t(g.groups);
  poplin::ConvParams params(type, std::size_t(x[0]), dims(g.field),
                            dims(g.kernel), std::size_t(x[1]) / groups,
                            std::size_t(w[0]) / groups, groups);
  params.inputTransform.dilation = unsignedOf(g.inDilations);
  params.inputTransform.paddingLower = unsignedOf(g.padsLower);
  params.inputTransform.paddingUpper = unsignedOf(g.padsUpper);
  params.kernelTransform.dilation = unsignedOf(g.dilations);
  params.outputTransform.stride = unsignedOf(g.strides);
  params.outputTransform.paddingLower = unsignedOf(g.outPadsLower);
  params.outputTransform.paddingUpper = unsignedOf(g.outPadsUpper);
  return params;
}

// Weights [M, C / G, kernel...] as poplin's [G, M / G, C / G, kernel...].
std::vector<std::size_t> groupedWeightShape(const MultiConvGeometry &g,
                                            const Shape &w) {
  std::vector<std::size_t> shape{std::size_t(g.groups),
                                 std::size_t(w[0] / g.groups),
                                 std::size_t(w[1])};
  shape.insert(shape.end(), w.begin() + 2, w.end());
  return shape;
}

poplar::OptionFlags flagsOf(const PoplibsOptions &options) {
  poplar::OptionFlags flags;
  for (const auto &[key, value] : options)
    flags.set(key, value);
  return flags;
}

} // namespace

void growMultiConv(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &mc = static_cast<const MultiConvOp &>(op);
  const poplar::OptionFlags planOptions = flagsOf(mc.planOptions);
  std::vector<poplin::multiconv::CreateTensorArgs> create;
  std::vector<poplin::multiconv::ConvolutionArgs> args;
  for (int i = 0; i < mc.numConvs(); ++i) {
    const MultiConvGeometry &g = mc.convs[i];
    const Tensor &x = *op.inTensor(MultiConvOp::getDataInIndex(i));
    const Tensor &w = *op.inTensor(MultiConvOp::getWeightsInIndex(i));
    const poplar::Tensor in = ctx.get(x);
    const poplin::ConvParams params =
        convParams(g, x.info.shape(), w.info.shape(), in.elementType());
    const poplar::OptionFlags options =
        poplibsOptionFlags(ctx.convOptions, g.options);
    create.push_back({params, options, op.name()});
    args.push_back({in,
                    ctx.get(w).reshape(groupedWeightShape(g, w.info.shape())),
                    params, options});
  }
  for (int i = 0; i < mc.numConvs(); ++i)
    mapLikePlannedOperand(
        ctx, *op.inTensor(MultiConvOp::getWeightsInIndex(i)), args[i].weights,
        [&](poplar::Graph &g) {
          return poplin::multiconv::createWeights(g, create, unsigned(i),
                                                  planOptions);
        });
  const std::vector<poplar::Tensor> outs =
      poplin::multiconv::convolution(ctx.graph, args,
                                     /*transposeAndFlipWeights=*/false, prog,
                                     op.name(), planOptions, &ctx.convCache);
  for (int i = 0; i < mc.numConvs(); ++i) {
    poplar::Tensor out = denseActivations(ctx, outs[i], prog, op.name());
    if (op.hasInput(MultiConvOp::getBiasInIndex(i)))
      poplin::addBias(ctx.graph, out,
                      ctx.get(op.inTensor(MultiConvOp::getBiasInIndex(i))),
                      prog, op.name());
    ctx.set(*op.outputs[MultiConvOp::getOutIndex(i)], out);
  }
}

void growMultiConvGrad(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  using Kind = MultiConvGradOp::Kind;
  const auto &grad = static_cast<const MultiConvGradOp &>(op);
  if (grad.kind == Kind::Bias) {
    for (std::size_t j = 0; j < grad.biasConvs.size(); ++j) {
      const poplar::Tensor g = ctx.get(op.inTensor(int(j)));
      std::vector<std::size_t> axes{0};
      for (std::size_t d = 2; d < g.rank(); ++d)
        axes.push_back(d);
      ctx.set(op.outputs[j],
              popops::reduce(ctx.graph, g, g.elementType(), axes,
                             popops::Operation::ADD, prog, op.name()));
    }
    return;
  }
  const poplar::OptionFlags planOptions = flagsOf(grad.planOptions);
  const int n = static_cast<int>(grad.convs.size());
  std::vector<poplin::ConvParams> fwdParams;
  for (int i = 0; i < n; ++i) {
    const Shape x = grad.fwdInShape(MultiConvOp::getDataInIndex(i));
    const Shape w = grad.fwdInShape(MultiConvOp::getWeightsInIndex(i));
    fwdParams.push_back(convParams(grad.convs[i], x, w,
                                   ctx.get(op.inTensor(2 * i)).elementType()));
  }
  std::vector<poplar::Tensor> outs;
  if (grad.kind == Kind::Data) {
    // The input gradient: the output's gradient convolved with the weights
    // transposed in their channels and flipped.
    std::vector<poplin::multiconv::ConvolutionArgs> args;
    for (int i = 0; i < n; ++i) {
      const Shape w = grad.fwdInShape(MultiConvOp::getWeightsInIndex(i));
      args.push_back(
          {ctx.get(op.inTensor(2 * i)),
           ctx.get(op.inTensor(2 * i + 1))
               .reshape(groupedWeightShape(grad.convs[i], w)),
           poplin::getGradientParams(fwdParams[i]),
           poplibsOptionFlags(ctx.convOptions, grad.convs[i].options)});
    }
    outs = poplin::multiconv::convolution(ctx.graph, args,
                                          /*transposeAndFlipWeights=*/true,
                                          prog, op.name(), planOptions,
                                          &ctx.convCache);
    for (auto &out : outs)
      out = denseActivations(ctx, out, prog, op.name());
  } else {
    std::vector<poplin::multiconv::CalculateWeightDeltasArgs> args;
    for (int i = 0; i < n; ++i)
      args.push_back(
          {ctx.get(op.inTensor(2 * i)), ctx.get(op.inTensor(2 * i + 1)),
           fwdParams[i],
           poplibsOptionFlags(ctx.convOptions, grad.convs[i].options)});
    outs = poplin::multiconv::calculateWeightDeltas(
        ctx.graph, args, prog, op.name(), planOptions, &ctx.convCache);
  }
  for (int i = 0; i < n; ++i)
    ctx.set(op.outputs[i], outs[i].reshape(dims(op.outputs[i]->info.shape())));
}

} // namespace popart
