#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace popart {
namespace onnxutil {

onnx::ModelProto getModelProto(const std::string &modelProtoOrFilename) {
  onnx::ModelProto model;
  std::ifstream in(modelProtoOrFilename, std::ios::binary);
  // A name short enough to be a path that opens is a file; anything else
  // is taken as serialised bytes.
  if (modelProtoOrFilename.size() < 4096 && in.is_open()) {
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string bytes = buffer.str();
    if (!model.ParseFromString(bytes))
      throw error("Failed to load a ModelProto from file '{}': it is not a "
                  "valid (or is a truncated) ONNX model",
                  modelProtoOrFilename);
    logging::session::debug("Loaded ONNX model from file '{}' ({} bytes)",
                            modelProtoOrFilename, bytes.size());
  } else {
    if (!model.ParseFromString(modelProtoOrFilename)) {
      if (modelProtoOrFilename.size() < 4096 &&
          modelProtoOrFilename.find('\0') == std::string::npos)
        throw error("Failed to load a ModelProto from '{}': no such file, "
                    "and not a serialised ONNX model",
                    modelProtoOrFilename);
      throw error("Failed to load a ModelProto from the {} bytes given: not "
                  "a valid (or a truncated) serialised ONNX model",
                  modelProtoOrFilename.size());
    }
  }
  if (!model.has_graph())
    throw error("The ONNX model has no graph");
  return model;
}

const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

void checkModel(const onnx::ModelProto &model) {
  registerGraphcoreSchemas();
  // The checker writes warnings to std::cerr (among them one for any op
  // named like an old experimental ONNX op, such as ai.graphcore Scale);
  // they go to PopART's log instead.
  std::ostringstream warnings;
  std::streambuf *cerr = std::cerr.rdbuf(warnings.rdbuf());
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    std::cerr.rdbuf(cerr);
    throw error("The ONNX checker rejected the model: {}", e.what());
  }
  std::cerr.rdbuf(cerr);
  if (!warnings.str().empty())
    logging::ir::debug("ONNX checker: {}", warnings.str());
}

void inferShapes(onnx::ModelProto &model) {
  registerGraphcoreSchemas();
  try {
    onnx::shape_inference::InferShapes(model);
  } catch (const std::exception &e) {
    throw error("ONNX shape inference failed: {}", e.what());
  }
}

namespace {
template <typename T, typename Field>
std::vector<char> copyField(const Field &field, int64_t n) {
  std::vector<char> out(sizeof(T) * n);
  T *dst = reinterpret_cast<T *>(out.data());
  for (int64_t i = 0; i < n && i < field.size(); ++i)
    dst[i] = static_cast<T>(field.Get(static_cast<int>(i)));
  return out;
}
} // namespace

std::vector<char> tensorData(const onnx::TensorProto &tp) {
  TensorInfo info(tp);
  const int64_t n = info.nelms();
  if (tp.data_location() == onnx::TensorProto::EXTERNAL)
    throw error("Tensor '{}' keeps its data in an external file, which is "
                "not supported",
                tp.name());
  if (tp.has_raw_data()) {
    if (static_cast<int64_t>(tp.raw_data().size()) != info.nbytes())
      throw error("Tensor '{}' has {} bytes of data, {} expected for {}",
                  tp.name(), tp.raw_data().size(), info.nbytes(), info);
    return std::vector<char>(tp.raw_data().begin(), tp.raw_data().end());
  }
  auto need = [&](int have) {
    if (have != n)
      throw error("Tensor '{}' has {} values, {} expected for {}", tp.name(),
                  have, n, info);
  };
  switch (info.dataType()) {
  case DataType::FLOAT:
    need(tp.float_data_size());
    return copyField<float>(tp.float_data(), n);
  case DataType::DOUBLE:
    need(tp.double_data_size());
    return copyField<double>(tp.double_data(), n);
  case DataType::INT64:
    need(tp.int64_data_size());
    return copyField<int64_t>(tp.int64_data(), n);
  case DataType::UINT64:
    need(tp.uint64_data_size());
    return copyField<uint64_t>(tp.uint64_data(), n);
  case DataType::UINT32:
    need(tp.uint64_data_size());
    return copyField<uint32_t>(tp.uint64_data(), n);
  case DataType::INT32:
    need(tp.int32_data_size());
    return copyField<int32_t>(tp.int32_data(), n);
  case DataType::INT16:
    need(tp.int32_data_size());
    return copyField<int16_t>(tp.int32_data(), n);
  case DataType::UINT16:
  case DataType::FLOAT16:
  case DataType::BFLOAT16:
    need(tp.int32_data_size());
    return copyField<uint16_t>(tp.int32_data(), n);
  case DataType::INT8:
    need(tp.int32_data_size());
    return copyField<int8_t>(tp.int32_data(), n);
  case DataType::UINT8:
  case DataType::BOOL:
    need(tp.int32_data_size());
    return copyField<uint8_t>(tp.int32_data(), n);
  default:
    throw error("Tensor '{}' of type {} cannot be read", tp.name(),
                info.data_type());
  }
}

void setTensorData(onnx::TensorProto &tp, const TensorInfo &info,
                   const void *data) {
  tp.set_data_type(getONNXDataTypeAsInt(info.dataType()));
  tp.clear_dims();
  for (auto d : info.shape())
    tp.add_dims(d);
  if (info.dataType() == DataType::STRING) { // std::string elements
    tp.clear_string_data();
    const auto *strings = static_cast<const std::string *>(data);
    for (int64_t i = 0; i < info.nelms(); ++i)
      tp.add_string_data(strings[i]);
    return;
  }
  tp.set_raw_data(std::string(static_cast<const char *>(data),
                              static_cast<std::size_t>(info.nbytes())));
}

int64_t aiOnnxOpsetVersion(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return o.version();
  return 0;
}

} // namespace onnxutil
} // namespace popart
