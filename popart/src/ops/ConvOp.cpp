#include "ops/ConvOp.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

ConvOp::ConvOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings), group(a.getInt("group", 1)),
      poplibsOptions(readPoplibsAnnotations(a, settings.name)) {
  spatial.read(a, name(), /*readCeilMode=*/false, /*readDilations=*/true);
  if (group < 1)
    throw error("Conv '{}': group {} must be positive", name(), group);
}

void ConvOp::setup() {
  const auto type = inInfo(0).dataType();
  if (type != DataType::FLOAT && type != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; convolutions support FLOAT and "
                "FLOAT16",
                str(), inTensor(0)->id, inInfo(0).data_type());
  const Shape out = resolveGeometry(1);
  if (hasInput(2) && inShape(2) != Shape{out[1]})
    throw error("{}: bias '{}' has shape {}, not [{}]", str(), inTensor(2)->id,
                inShape(2), out[1]);
  outInfo(0) = TensorInfo(type, out);
}

Shape ConvOp::resolveGeometry(InIndex wIn) {
  const Shape x = inShape(0), w = inShape(wIn);
  if (x.size() < 3 || x.size() > 5)
    throw error("{}: input '{}' has shape {}: 1 to 3 spatial dimensions are "
                "supported",
                str(), inTensor(0)->id, x);
  if (w.size() != x.size())
    throw error("{}: weights '{}' of shape {} do not match the input's rank "
                "{}",
                str(), inTensor(wIn)->id, w, x.size());
  if (x[1] % group != 0 || w[0] % group != 0 || w[1] * group != x[1])
    throw error("{}: input channels {} and weights {} do not make {} groups",
                str(), x[1], w, group);
  kernel.assign(w.begin() + 2, w.end());
  if (!spatial.kernelShape.empty() && spatial.kernelShape != kernel)
    throw error("{}: kernel_shape {} differs from the weights' {}", str(),
                spatial.kernelShape, kernel);
  dims = resolveSpatial(spatial, Shape(x.begin() + 2, x.end()), kernel, *this);
  Shape out{x[0], w[0]};
  for (const auto &d : dims)
    out.push_back(d.outSize);
  return out;
}

std::vector<std::unique_ptr<Op>> ConvOp::getGradOps() {
  if (!activation.type.empty())
    throw internal_error("{} has a fused {}: it has no gradient ops (the "
                         "ConvActivation pattern fuses in inference only)",
                         str(), activation.type);
  std::vector<std::unique_ptr<Op>> ops;
  for (int arg = 0; arg < 3; ++arg)
    if (hasInput(arg))
      ops.push_back(std::make_unique<ConvGradOp>(*this, arg));
  return ops;
}

void ConvOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  if (activation.type.empty())
    return;
  os.appendAttribute("activation", activation.type);
  os.appendAttribute("activation_min", activation.min);
  os.appendAttribute("activation_max", activation.max);
}

namespace {
const char *convGradType(int arg) {
  return arg == 0 ? "ConvDataGrad" : arg == 1 ? "ConvWeightsGrad" : "ConvBiasGrad";
}
std::vector<GradInOutMapper> convGradInputs(int arg) {
  if (arg == 2)
    return {{0, 0, GradOpInType::GradOut}};
  return {{0, 0, GradOpInType::GradOut},
          {1, arg == 0 ? 1 : 0, GradOpInType::In}};
}
} // namespace

ConvGradOp::ConvGradOp(const ConvOp &fwd_, int arg_)
    : GradOp(fwd_, convGradType(arg_), convGradInputs(arg_), {{0, arg_}}),
      arg(arg_),
      fwd(std::static_pointer_cast<const ConvOp>(
          std::shared_ptr<Op>(fwd_.clone()))) {}

} // namespace popart
