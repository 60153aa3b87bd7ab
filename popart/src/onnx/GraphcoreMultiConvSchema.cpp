// The schema of ai.graphcore MultiConv: data, weights and an optional bias
// for each convolution (3 inputs each, "" for no bias), one output each,
// and the per-dimension attributes of all the convolutions concatenated.
#include "onnx/OnnxUtil.hpp"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <cstdint>
#include <vector>

namespace popart {
namespace onnxutil {
namespace {

std::vector<int64_t> intsAttribute(onnx::InferenceContext &ctx,
                                   const char *name) {
  const auto *a = ctx.getAttribute(name);
  if (!a)
    return {};
  return {a->ints().begin(), a->ints().end()};
}

// The `count` values of one convolution from offset, or `def`; false when
// the attribute is too short (the op names the node with the error).
bool slice(const std::vector<int64_t> &flat, std::size_t offset,
           std::size_t count, int64_t def, std::vector<int64_t> &out) {
  if (flat.empty()) {
    out.assign(count, def);
    return true;
  }
  if (offset + count > flat.size())
    return false;
  out.assign(flat.begin() + offset, flat.begin() + offset + count);
  return true;
}

void inferMultiConv(onnx::InferenceContext &ctx) {
  const std::size_t numConvs = ctx.getNumOutputs();
  // A malformed node is left without shapes: the op's setup names it.
  if (ctx.getNumInputs() > 3 * numConvs)
    return;
  const auto strides = intsAttribute(ctx, "strides");
  const auto pads = intsAttribute(ctx, "pads");
  const auto outPads = intsAttribute(ctx, "outPads");
  const auto dilations = intsAttribute(ctx, "dilations");
  const auto inDilations = intsAttribute(ctx, "inDilations");
  std::size_t offset = 0;
  for (std::size_t o = 0; o < numConvs; ++o) {
    const std::size_t x = 3 * o, w = 3 * o + 1;
    if (x < ctx.getNumInputs() && ctx.getInputType(x))
      onnx::propagateElemTypeFromInputToOutput(ctx, x, o);
    if (w >= ctx.getNumInputs() || !onnx::hasInputShape(ctx, x) ||
        !onnx::hasInputShape(ctx, w))
      return; // the later convolutions' offsets are unknown too
    const auto &xs = onnx::getInputShape(ctx, x);
    const auto &ws = onnx::getInputShape(ctx, w);
    if (xs.dim_size() < 3 || ws.dim_size() != xs.dim_size())
      return;
    const std::size_t d = std::size_t(xs.dim_size() - 2);
    std::vector<int64_t> s, dil, inDil, p, op;
    if (!slice(strides, offset, d, 1, s) || !slice(dilations, offset, d, 1, dil) ||
        !slice(inDilations, offset, d, 1, inDil) ||
        !slice(pads, 2 * offset, 2 * d, 0, p) ||
        !slice(outPads, 2 * offset, 2 * d, 0, op))
      return;
    offset += d;
    auto *out = ctx.getOutputType(o)->mutable_tensor_type()->mutable_shape();
    out->clear_dim();
    *out->add_dim() = xs.dim(0);
    *out->add_dim() = ws.dim(0);
    for (std::size_t k = 0; k < d; ++k) {
      const auto &in = xs.dim(int(k + 2)), &kernel = ws.dim(int(k + 2));
      const int64_t field =
          inDil[k] * (in.dim_value() - 1) + 1 + p[k] + p[d + k];
      const int64_t window = dil[k] * (kernel.dim_value() - 1) + 1;
      // Impossible geometry is left unknown: the op's setup names it.
      if (!in.has_dim_value() || !kernel.has_dim_value() || s[k] < 1 ||
          field < window) {
        out->add_dim();
        continue;
      }
      out->add_dim()->set_dim_value((field - window) / s[k] + 1 + op[k] +
                                    op[d + k]);
    }
  }
}

} // namespace

void registerMultiConvSchema() {
  onnx::OpSchema s;
  s.SetName("MultiConv")
      .SetDomain("ai.graphcore")
      .SinceVersion(1)
      .Input(0, "inputs", "data, weights and bias (or \"\") of each "
             "convolution", "T", onnx::OpSchema::Variadic, false)
      .Output(0, "outputs", "the output of each convolution", "T",
              onnx::OpSchema::Variadic, false)
      .Attr("strides", "the strides of every convolution, concatenated",
            onnx::AttributeProto::INTS, false)
      .Attr("pads", "the pads (lower ..., upper ...) of every convolution",
            onnx::AttributeProto::INTS, false)
      .Attr("outPads", "the output padding (lower ..., upper ...) of every "
            "convolution", onnx::AttributeProto::INTS, false)
      .Attr("dilations", "the kernel dilations of every convolution",
            onnx::AttributeProto::INTS, false)
      .Attr("inDilations", "the input dilations of every convolution",
            onnx::AttributeProto::INTS, false)
      .Attr("planType", "parallel or serial", onnx::AttributeProto::STRING,
            false)
      .Attr("perConvReservedTiles", "tiles reserved per convolution when "
            "planning in parallel", onnx::AttributeProto::INT, false)
      .Attr("cycleBackOff", "the cycle back-off proportion of a parallel "
            "plan, in [0, 1)", onnx::AttributeProto::FLOAT, false)
      .Attr("numConvs", "the number of convolutions", onnx::AttributeProto::INT,
            true)
      .TypeConstraint("T", {"tensor(float)", "tensor(float16)"},
                      "floating-point tensors")
      .TypeAndShapeInferenceFunction(inferMultiConv);
  onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(s);
}

} // namespace onnxutil
} // namespace popart
