// The ai.graphcore operators the builder offers, registered with the ONNX
// library so that its checker knows their attributes and its shape
// inference sees through them (getTensorShape of their outputs).
#include "onnx/OnnxUtil.hpp"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <mutex>

namespace popart {
namespace onnxutil {
namespace {

const std::vector<std::string> numericTypes = {
    "tensor(float)", "tensor(float16)", "tensor(int32)", "tensor(int64)",
    "tensor(uint32)", "tensor(int8)", "tensor(uint8)", "tensor(int16)",
    "tensor(uint16)", "tensor(bool)", "tensor(double)"};

onnx::OpSchema unarySchema(const char *name) {
  onnx::OpSchema s;
  s.SetName(name)
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "X", "input", "T")
      .Output(0, "Y", "output", "T")
      .TypeConstraint("T", numericTypes, "tensor types")
      .TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
  return s;
}

void registerSchema(onnx::OpSchema s) {
  // Supported ops, not experimental ones (which the checker warns about).
  s.SetSupportLevel(onnx::OpSchema::SupportType::COMMON);
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(s);
}

// The losses: a scalar for Sum and Mean, else the loss per element.
void lossShape(onnx::InferenceContext &ctx, bool dropLast) {
  onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
  const auto *reduction = ctx.getAttribute("reduction");
  auto *out = ctx.getOutputType(0)->mutable_tensor_type();
  if (!reduction || reduction->s() != "None") {
    out->mutable_shape();
    return;
  }
  if (!onnx::hasInputShape(ctx, 0))
    return;
  const auto &in = ctx.getInputType(0)->tensor_type().shape();
  auto *shape = out->mutable_shape();
  for (int i = 0; i < in.dim_size() - (dropLast ? 1 : 0); ++i)
    *shape->add_dim() = in.dim(i);
}

void registerLossSchemas() {
  const std::vector<std::string> floats = {"tensor(float)", "tensor(float16)"};
  onnx::OpSchema l1;
  l1.SetName("L1")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "A", "input", "T")
      .Output(0, "B", "loss", "T")
      .Attr("lambda", "the factor", onnx::AttributeProto::FLOAT)
      .Attr("reduction", "Sum, Mean or None", onnx::AttributeProto::STRING)
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeAndShapeInferenceFunction(
          [](onnx::InferenceContext &ctx) { lossShape(ctx, false); });
  registerSchema(l1);
  onnx::OpSchema nll;
  nll.SetName("Nll")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "A", "probabilities", "T")
      .Input(1, "B", "labels", "Tind")
      .Output(0, "C", "loss", "T")
      .Attr("reduction", "Sum, Mean or None", onnx::AttributeProto::STRING)
      .Attr("ignoreIndex", "the label to ignore", onnx::AttributeProto::INT,
            false)
      .Attr("inputIsLogProbability", "whether A holds log probabilities",
            onnx::AttributeProto::INT, false)
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeConstraint("Tind", {"tensor(int32)", "tensor(int64)", "tensor(uint32)"},
                      "integer tensors")
      .TypeAndShapeInferenceFunction(
          [](onnx::InferenceContext &ctx) { lossShape(ctx, true); });
  registerSchema(nll);
  onnx::OpSchema identity;
  identity.SetName("IdentityLoss")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "A", "input", "T")
      .Output(0, "B", "loss", "T")
      .Attr("reduction", "Sum, Mean or None", onnx::AttributeProto::STRING)
      .TypeConstraint("T", floats, "floating-point tensors")
      .TypeAndShapeInferenceFunction(
          [](onnx::InferenceContext &ctx) { lossShape(ctx, false); });
  registerSchema(identity);
}

} // namespace

void registerGraphcoreSchemas() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    onnx::OpSchemaRegistry::DomainToVersionRange::Instance().AddDomainToVersion(
        "ai.graphcore", 1, 1);
    for (const char *name : {"Gelu", "GeluErf", "Detach", "Nop", "Square",
                             "Swish", "Log1p", "Expm1"})
      registerSchema(unarySchema(name));
    auto scale = unarySchema("Scale");
    scale.Attr("scale", "the factor", onnx::AttributeProto::FLOAT);
    registerSchema(scale);
    onnx::OpSchema scaledAdd;
    scaledAdd.SetName("ScaledAdd")
        .SetDomain("ai.graphcore")
        .SinceVersion(1)
        .Input(0, "X", "input", "T")
        .Input(1, "Y", "input", "T")
        .Output(0, "Z", "output", "T")
        .Attr("scale0", "factor of X", onnx::AttributeProto::FLOAT)
        .Attr("scale1", "factor of Y", onnx::AttributeProto::FLOAT)
        .TypeConstraint("T", numericTypes, "tensor types")
        .TypeAndShapeInferenceFunction(onnx::propagateShapeAndTypeFromFirstInput);
    registerSchema(scaledAdd);
    onnx::OpSchema reshape;
    reshape.SetName("Reshape")
        .SetDomain("ai.graphcore")
        .SinceVersion(1)
        .Input(0, "X", "input", "T")
        .Output(0, "Y", "output", "T")
        .Attr("shape", "the new shape", onnx::AttributeProto::INTS)
        .TypeConstraint("T", numericTypes, "tensor types")
        .TypeAndShapeInferenceFunction([](onnx::InferenceContext &ctx) {
          onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
          const auto *shape = ctx.getAttribute("shape");
          if (!shape)
            return;
          auto *out = ctx.getOutputType(0)->mutable_tensor_type()->mutable_shape();
          for (auto d : shape->ints())
            out->add_dim()->set_dim_value(d);
        });
    registerSchema(reshape);
    registerLossSchemas();
    registerGraphcoreOpsetSchemas();
    registerGraphcoreSequenceSchemas();
    registerNormPrintCallSchemas();
    registerMultiConvSchema();
    guardShapeInference();
  });
}

} // namespace onnxutil
} // namespace popart
