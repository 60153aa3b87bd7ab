// Checks put in front of the ONNX library's own shape inference for the
// operators whose inference reads past the end of a malformed node's
// inputs or attributes, or indexes dimensions with an unchecked axis (libonnx 1.12 crashes on them): the node is refused
// with an onnx::InferenceError, which inferShapes reports as popart::error.
#include "onnx/OnnxUtil.hpp"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <cstdint>
#include <string>

namespace popart {
namespace onnxutil {
namespace {

// An INTS attribute, if present, must have `expected` values.
void checkLength(onnx::InferenceContext &ctx, const char *name, std::size_t expected) {
  const onnx::AttributeProto *attr = ctx.getAttribute(name);
  if (attr && std::size_t(attr->ints_size()) != expected)
    fail_shape_inference("attribute '", name, "' has ", attr->ints_size(),
                         " values where the input's spatial dimensions need ",
                         expected);
}

// Conv and ConvTranspose: X (N, C, spatial...) and W of the same rank, and
// per-dimension attributes with one value per spatial dimension (two for
// pads).
void checkConvolution(onnx::InferenceContext &ctx) {
  if (!onnx::hasInputShape(ctx, 0) || !onnx::hasInputShape(ctx, 1))
    return;
  const int xRank = onnx::getInputShape(ctx, 0).dim_size();
  const int wRank = onnx::getInputShape(ctx, 1).dim_size();
  if (xRank < 3)
    fail_shape_inference("input X has rank ", xRank,
                         "; a convolution needs at least 3 (N, C, and a "
                         "spatial dimension)");
  if (wRank != xRank)
    fail_shape_inference("weights W have rank ", wRank, " but input X has rank ",
                         xRank, "; they must be the same");
  const std::size_t spatial = std::size_t(xRank - 2);
  for (const char *name : {"kernel_shape", "strides", "dilations", "output_padding",
                           "output_shape"})
    checkLength(ctx, name, spatial);
  checkLength(ctx, "pads", 2 * spatial);
}

// LayerNormalization: `axis` within [-rank, rank) of X (libonnx indexes
// X's dimensions with it unchecked).
void checkNormalisedAxis(onnx::InferenceContext &ctx) {
  if (!onnx::hasInputShape(ctx, 0))
    return;
  const int rank = onnx::getInputShape(ctx, 0).dim_size();
  const onnx::AttributeProto *attr = ctx.getAttribute("axis");
  const std::int64_t axis = attr ? attr->i() : -1;
  if (axis < -rank || axis >= rank)
    fail_shape_inference("attribute 'axis' is ", axis,
                         ", outside [-", rank, ", ", rank - 1,
                         "] for input X of rank ", rank);
}

void guard(const char *opType, void (*check)(onnx::InferenceContext &)) {
  const int lastVersion =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at(onnx::ONNX_DOMAIN).second;
  for (int version = 1; version <= lastVersion; ++version) {
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(opType, version);
    if (!schema || schema->SinceVersion() != version)
      continue; // each definition once, at the version that introduced it
    onnx::InferenceFunction original = schema->GetTypeAndShapeInferenceFunction();
    // The registry hands out its schemas as const; it owns them, and this
    // runs once, before any inference reads them.
    const_cast<onnx::OpSchema *>(schema)->TypeAndShapeInferenceFunction(
        [check, original](onnx::InferenceContext &ctx) {
          check(ctx);
          if (original)
            original(ctx);
        });
  }
}

} // namespace

void guardShapeInference() {
  guard("Conv", checkConvolution);
  guard("ConvTranspose", checkConvolution);
  guard("LayerNormalization", checkNormalisedAxis);
}

} // namespace onnxutil
} // namespace popart
