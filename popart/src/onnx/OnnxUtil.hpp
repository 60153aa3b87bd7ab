// Reading ONNX models: from a file or from serialised bytes, checked with
// the ONNX checker; tensor data of initializers and Constant nodes.
#ifndef POPART_SRC_ONNX_ONNXUTIL_HPP
#define POPART_SRC_ONNX_ONNXUTIL_HPP

#include <popart/tensorinfo.hpp>

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace popart {
namespace onnxutil {

/// The model of a file, or of serialised ModelProto bytes; popart::error
/// naming the file if it cannot be read or parsed.
onnx::ModelProto getModelProto(const std::string &modelProtoOrFilename);
/// Makes the ai.graphcore ops known to the ONNX library, and puts checks
/// in front of the ONNX shape inference of the ops it would crash on
/// (once).
void registerGraphcoreSchemas();
/// The schemas of the element-wise and data-movement ops of the opset
/// (GraphcoreOpsetSchemas.cpp), called by registerGraphcoreSchemas.
void registerGraphcoreOpsetSchemas();
/// The schemas of the sequence-model ops (GraphcoreSequenceSchemas.cpp),
/// called by registerGraphcoreSchemas.
void registerGraphcoreSequenceSchemas();
/// The schemas of BatchNormalization, PrintTensor, Call and the
/// collectives (GraphcoreNormPrintCallSchemas.cpp), called by
/// registerGraphcoreSchemas.
void registerNormPrintCallSchemas();
/// The schema of MultiConv (GraphcoreMultiConvSchema.cpp), called by
/// registerGraphcoreSchemas.
void registerMultiConvSchema();
/// Those checks (ShapeInferenceGuards.cpp), called by
/// registerGraphcoreSchemas.
void guardShapeInference();
/// The node's attribute `name`, or null if it has none.
const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          const std::string &name);
/// The ONNX checker (popart::error with its message).
void checkModel(const onnx::ModelProto &model);
/// ONNX shape inference over the model, in place.
void inferShapes(onnx::ModelProto &model);
/// The bytes of a TensorProto (raw or typed fields), in its own type.
std::vector<char> tensorData(const onnx::TensorProto &tp);
/// Fills a TensorProto with a type, shape and bytes (raw_data); STRING data
/// is std::string elements (string_data).
void setTensorData(onnx::TensorProto &tp, const TensorInfo &info,
                   const void *data);
/// The ai.onnx opset a model imports (0 if none).
int64_t aiOnnxOpsetVersion(const onnx::ModelProto &model);

} // namespace onnxutil
} // namespace popart

#endif
