// ConvOp: poplin::convolution with the ONNX attributes as the params'
// input padding, kernel dilation and output stride; the weights
// [M, C / G, kernel...] are poplin's [G, M / G, C / G, kernel...]; the bias
// is poplin::addBias. On the CPU device the bias and a fused activation
// (ConvActivation) are the convolution's poplin::ConvEpilogue, applied as
// each output is stored; elsewhere they run after it, as the ops did.
#include "lowering/Lowering.hpp"
#include "ops/ConvOp.hpp"
#include <poplin/ConvUtil.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

#include <poplin/Convolution.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

std::vector<std::size_t> sizes(const Shape &s, std::size_t from = 0) {
  return std::vector<std::size_t>(s.begin() + from, s.end());
}

} // namespace

poplar::Tensor denseActivations(LoweringContext &ctx, const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const std::string &name) {
  if (ctx.graph.getTarget().getTargetType() == poplar::TargetType::CPU) {
    // The CPU device's one tile: stored channels innermost, as the
    // convolution computed them and as the next one reads them, in one
    // variable (the convolution's blocks copied in long runs, unless they
    // are one already).
    const unsigned rank = unsigned(out.rank());
    std::vector<unsigned> toStored{0}, toView{0, rank - 1};
    for (unsigned d = 2; d != rank; ++d) {
      toStored.push_back(d);
      toView.push_back(d - 1);
    }
    toStored.push_back(1);
    const poplar::Tensor stored = out.dimShuffle(toStored);
    if (stored.isContiguous())
      return out;
    poplar::Tensor dense = ctx.graph.addVariable(
        out.elementType(), stored.shape(), name + "/dense");
    ctx.graph.setTileMapping(dense, 0);
    prog.add(poplar::program::Copy(stored, dense));
    return dense.dimShuffle(toView);
  }
  poplar::Tensor dense = ctx.graph.addVariable(out.elementType(), out.shape(),
                                               name + "/dense");
  // Spread evenly: the pooling after a convolution puts each output plane
  // on the tile of its input plane's first element, which the
  // convolution's blocks would gather on a few tiles.
  poputil::mapTensorLinearly(ctx.graph, dense);
  prog.add(poplar::program::Copy(out, dense));
  return dense;
}

namespace {

// poplin's parameters of the convolution of data `x` by weights `w`.
poplin::ConvParams convParams(const ConvOp &conv, const Shape &x,
                              const Shape &w, const poplar::Type &type) {
  const std::size_t groups = std::size_t(conv.group);
  const std::size_t n = x.size() - 2;
  poplin::ConvParams params(type, std::size_t(x[0]), sizes(x, 2),
                            sizes(conv.kernel), std::size_t(x[1]) / groups,
                            std::size_t(w[0]) / groups, groups);
  const auto strides = orDefault(conv.spatial.strides, n, 1);
  const auto dilations = orDefault(conv.spatial.dilations, n, 1);
  for (std::size_t d = 0; d < n; ++d) {
    params.inputTransform.paddingLower[d] = unsigned(conv.dims[d].paddingLower);
    params.inputTransform.paddingUpper[d] = unsigned(conv.dims[d].paddingUpper);
    params.kernelTransform.dilation[d] = unsigned(dilations[d]);
    params.outputTransform.stride[d] = unsigned(strides[d]);
  }
  return params;
}

// Weights [M, C / G, kernel...] as poplin's [G, M / G, C / G, kernel...].
std::vector<std::size_t> groupedWeightShape(const ConvOp &conv, const Shape &w) {
  const std::size_t groups = std::size_t(conv.group);
  std::vector<std::size_t> shape{groups, std::size_t(w[0]) / groups,
                                 std::size_t(w[1])};
  shape.insert(shape.end(), w.begin() + 2, w.end());
  return shape;
}

} // namespace

poplar::Tensor lowerConvolution(LoweringContext &ctx, const ConvOp &conv,
                                const poplar::Tensor &in,
                                const poplar::Tensor &weights,
                                poplar::program::Sequence &prog,
                                const Tensor *weightsInput,
                                const poplin::ConvEpilogue *epilogue) {
  const auto inShape = in.shape(), weightsShape = weights.shape();
  const Shape x(inShape.begin(), inShape.end());
  const Shape w(weightsShape.begin(), weightsShape.end());
  const poplin::ConvParams params = convParams(conv, x, w, in.elementType());
  const poplar::Tensor grouped = weights.reshape(groupedWeightShape(conv, w));
  if (weightsInput)
    mapLikePlannedOperand(ctx, *weightsInput, grouped, [&](poplar::Graph &g) {
      return poplin::createWeights(g, params, conv.name());
    });
  const poplar::OptionFlags options =
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions);
  poplar::Tensor out =
      epilogue
          ? poplin::convolution(ctx.graph, in, grouped, params,
                                /*transposeAndFlipWeights=*/false, *epilogue,
                                prog, conv.name(), options, &ctx.convCache)
          : poplin::convolution(ctx.graph, in, grouped, params,
                                /*transposeAndFlipWeights=*/false, prog,
                                conv.name(), options, &ctx.convCache);
  return denseActivations(ctx, out, prog, conv.name());
}

poplar::Tensor createConvWeights(const Op &op, InIndex index,
                                 poplar::Graph &graph, LoweringContext &ctx,
                                 const std::string &name) {
  const auto &conv = static_cast<const ConvOp &>(op);
  if (index != 1 || !op.hasInput(0))
    return {};
  const TensorInfo &data = op.inTensor(0)->info, &weights = op.inTensor(1)->info;
  if (data.dataType() != weights.dataType())
    return {}; // the lowering reports the mismatch
  const poplar::Type type = deviceType(data.dataType());
  if (type != poplar::FLOAT && type != poplar::HALF)
    return {};
  const Shape &x = data.shape(), &w = weights.shape();
  if (x.size() < 3 || w.size() != x.size() || conv.kernel.size() != x.size() - 2)
    return {};
  const poplin::ConvParams params = convParams(conv, x, w, type);
  const poplar::Tensor grouped = poplin::createWeights(
      graph, params, name,
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions),
      &ctx.convCache);
  return grouped.reshape(std::vector<std::size_t>(w.begin(), w.end()));
}

void growConv(const Op &op, LoweringContext &ctx,
              poplar::program::Sequence &prog) {
  const auto &conv = static_cast<const ConvOp &>(op);
  const ConvActivation &activation = conv.activation;
  const poplar::Tensor in = ctx.get(op.inTensor(0)),
                       weights = ctx.get(op.inTensor(1));
  if (ctx.graph.getTarget().getTargetType() == poplar::TargetType::CPU) {
    poplin::ConvEpilogue epilogue;
    if (op.hasInput(2))
      epilogue.biases = ctx.get(op.inTensor(2));
    epilogue.clamp = !activation.type.empty();
    epilogue.lowerBound = activation.min;
    epilogue.upperBound = activation.max;
    ctx.set(*op.outputs[0], lowerConvolution(ctx, conv, in, weights, prog,
                                             op.inTensor(1), &epilogue));
    return;
  }
  poplar::Tensor out =
      lowerConvolution(ctx, conv, in, weights, prog, op.inTensor(1));
  if (op.hasInput(2))
    poplin::addBias(ctx.graph, out, ctx.get(op.inTensor(2)), prog, op.name());
  // The fused op's lowering as ReluInplace's and ClipInplace's.
  if (activation.type == "Relu")
    popops::mapInPlace(ctx.graph, popops::expr::UnaryOpType::RELU, out, prog,
                       op.name());
  else if (activation.type == "Clip")
    popops::mapInPlace(ctx.graph,
                       pe::Max(pe::Min(pe::_1, pe::Const(activation.max)),
                               pe::Const(activation.min)),
                       {out}, prog, op.name());
  ctx.set(*op.outputs[0], out);
}

void growConvGrad(const Op &op, LoweringContext &ctx,
                  poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const ConvGradOp &>(op);
  const ConvOp &conv = *grad.fwd;
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const Shape x = grad.fwdInShape(0), w = grad.fwdInShape(1);
  const poplin::ConvParams params = convParams(conv, x, w, g.elementType());
  const poplar::OptionFlags options =
      poplibsOptionFlags(ctx.convOptions, conv.poplibsOptions);
  poplar::Tensor out;
  if (grad.arg == 0) {
    // The input gradient: the output's gradient convolved with the weights
    // transposed in their channels and flipped.
    const poplar::Tensor weights =
        ctx.get(op.inTensor(1)).reshape(groupedWeightShape(conv, w));
    out = poplin::convolution(ctx.graph, g, weights,
                              poplin::getGradientParams(params),
                              /*transposeAndFlipWeights=*/true, prog, op.name(),
                              options, &ctx.convCache);
    out = denseActivations(ctx, out, prog, op.name());
  } else if (grad.arg == 1) {
    out = poplin::calculateWeightDeltas(ctx.graph, g, ctx.get(op.inTensor(1)),
                                        params, prog, op.name(), options,
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
