#include "ops/ConvTransposeOp.hpp"

#include <popart/error.hpp>

namespace popart {

ConvTransposeOp::ConvTransposeOp(const OperatorIdentifier &id,
                                 const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), group(a.getInt("group", 1)),
      poplibsOptions(readPoplibsAnnotations(a, settings.name)), outputPadding(a.getInts("output_padding", {})),
      outputShape(a.getInts("output_shape", {})) {
  spatial.read(a, name(), /*readCeilMode=*/false, /*readDilations=*/true);
  if (group < 1)
    throw error("ConvTranspose '{}': group {} must be positive", name(), group);
  if (spatial.autoPad == "VALID")
    spatial.autoPad = "NOTSET"; // no padding either way
}

void ConvTransposeOp::setup() {
  const Shape x = inShape(0), w = inShape(1);
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; convolutions support FLOAT and "
                "FLOAT16",
                str(), inTensor(0)->id, inInfo(0).data_type());
  if (x.size() < 3 || x.size() > 5)
    throw error("{}: input '{}' has shape {}: 1 to 3 spatial dimensions are "
                "supported",
                str(), inTensor(0)->id, x);
  if (w.size() != x.size() || w[0] != x[1] || x[1] % group != 0)
    throw error("{}: weights '{}' of shape {} do not match the input's shape "
                "{} in {} groups",
                str(), inTensor(1)->id, w, x, group);
  const std::size_t n = x.size() - 2;
  kernel.assign(w.begin() + 2, w.end());
  if (!spatial.kernelShape.empty() && spatial.kernelShape != kernel)
    throw error("{}: kernel_shape {} differs from the weights' {}", str(),
                spatial.kernelShape, kernel);
  const int64_t outChans = w[1] * group;
  if (hasInput(2) && inShape(2) != Shape{outChans})
    throw error("{}: bias '{}' has shape {}, not [{}]", str(), inTensor(2)->id,
                inShape(2), outChans);
  const auto strides = orDefault(spatial.strides, n, 1);
  const auto dilations = orDefault(spatial.dilations, n, 1);
  const auto pads = orDefault(spatial.pads, 2 * n, 0);
  const auto outPad = orDefault(outputPadding, n, 0);
  if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n ||
      outPad.size() != n || (!outputShape.empty() && outputShape.size() != n))
    throw error("{}: {} spatial dimensions, but strides {}, dilations {}, "
                "pads {}, output_padding {} and output_shape {}",
                str(), n, strides, dilations, pads, outPad, outputShape);
  padLower.assign(n, 0);
  padUpper.assign(n, 0);
  outField.assign(n, 0);
  for (std::size_t d = 0; d < n; ++d) {
    if (strides[d] < 1 || dilations[d] < 1)
      throw error("{}: strides {} and dilations {} must be positive", str(),
                  strides, dilations);
    if (outPad[d] < 0 || outPad[d] >= std::max(strides[d], dilations[d]))
      throw error("{}: output_padding {} must be smaller than the stride or "
                  "the dilation",
                  str(), outPad);
    // The output before any padding is taken off.
    const int64_t full = strides[d] * (x[d + 2] - 1) + outPad[d] +
                         (kernel[d] - 1) * dilations[d] + 1;
    if (!outputShape.empty() || spatial.autoPad != "NOTSET") {
      const int64_t target = !outputShape.empty()
                                 ? outputShape[d]
                                 : x[d + 2] * strides[d];
      const int64_t total = full - target;
      if (total < 0) {
        // As the ONNX reference: a larger output_shape is output padding.
        if (-total >= std::max(strides[d], dilations[d]))
          throw error("{}: output_shape {} is larger than the full output "
                      "and the stride allow",
                      str(), outputShape);
        outField[d] = target;
        continue;
      }
      // As the ONNX spec: SAME_UPPER puts the odd one last, otherwise first.
      const bool lowerGetsMore = spatial.autoPad != "SAME_UPPER";
      padLower[d] = lowerGetsMore ? total - total / 2 : total / 2;
      padUpper[d] = total - padLower[d];
    } else {
      padLower[d] = pads[d];
      padUpper[d] = pads[d + n];
      if (padLower[d] < 0 || padUpper[d] < 0)
        throw error("{}: negative pads {} are not supported", str(), pads);
    }
    outField[d] = full - padLower[d] - padUpper[d];
    if (outField[d] < 1)
      throw error("{}: the output would be empty in spatial dimension {}",
                  str(), d);
  }
  Shape out{x[0], outChans};
  out.insert(out.end(), outField.begin(), outField.end());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> ConvTransposeOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  for (int arg = 0; arg < 3; ++arg)
    if (hasInput(arg))
      ops.push_back(std::make_unique<ConvTransposeGradOp>(*this, arg));
  return ops;
}

ConvTransposeGradOp::ConvTransposeGradOp(const ConvTransposeOp &fwd_, int arg_)
    : GradOp(fwd_,
             arg_ == 0   ? "ConvTransposeDataGrad"
             : arg_ == 1 ? "ConvTransposeWeightsGrad"
                         : "ConvTransposeBiasGrad",
             arg_ == 2 ? std::vector<GradInOutMapper>{{0, 0, GradOpInType::GradOut}}
                       : std::vector<GradInOutMapper>{{0, 0, GradOpInType::GradOut},
                                                      {1, arg_ == 0 ? 1 : 0,
                                                       GradOpInType::In}},
             {{0, arg_}}),
      arg(arg_),
      fwd(std::static_pointer_cast<const ConvTransposeOp>(
          std::shared_ptr<Op>(fwd_.clone()))) {}

} // namespace popart
