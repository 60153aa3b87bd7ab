#include <popart/error.hpp>
#include <popart/tensorinfo.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace popart {
namespace {

const std::vector<DataTypeInfo> &dataTypeInfos() {
  static const std::vector<DataTypeInfo> infos = {
      {DataType::UINT8, 1, true, "UINT8", "uint8"},
      {DataType::INT8, 1, true, "INT8", "int8"},
      {DataType::FLOAT8_143, 1, false, "FLOAT8_143", "float8_143"},
      {DataType::FLOAT8_152, 1, false, "FLOAT8_152", "float8_152"},
      {DataType::UINT16, 2, true, "UINT16", "uint16"},
      {DataType::INT16, 2, true, "INT16", "int16"},
      {DataType::INT32, 4, true, "INT32", "int32"},
      {DataType::INT64, 8, true, "INT64", "int64"},
      {DataType::UINT32, 4, true, "UINT32", "uint32"},
      {DataType::UINT64, 8, true, "UINT64", "uint64"},
      {DataType::BOOL, 1, true, "BOOL", "bool"},
      {DataType::FLOAT, 4, false, "FLOAT", "float32"},
      {DataType::FLOAT16, 2, false, "FLOAT16", "float16"},
      {DataType::BFLOAT16, 2, false, "BFLOAT16", "bfloat16"},
      {DataType::DOUBLE, 8, false, "DOUBLE", "float64"},
      {DataType::COMPLEX64, 8, false, "COMPLEX64", "complex64"},
      {DataType::COMPLEX128, 16, false, "COMPLEX128", "complex128"},
      {DataType::STRING, -1, false, "STRING", "string"},
      {DataType::UNDEFINED, -1, false, "UNDEFINED", "undefined"},
  };
  return infos;
}

// ONNX TensorProto::DataType numbers, by popart DataType.
const std::vector<std::pair<DataType, int>> &onnxNumbers() {
  using TP = onnx::TensorProto;
  static const std::vector<std::pair<DataType, int>> numbers = {
      {DataType::UINT8, TP::UINT8},       {DataType::INT8, TP::INT8},
      {DataType::UINT16, TP::UINT16},     {DataType::INT16, TP::INT16},
      {DataType::INT32, TP::INT32},       {DataType::INT64, TP::INT64},
      {DataType::UINT32, TP::UINT32},     {DataType::UINT64, TP::UINT64},
      {DataType::BOOL, TP::BOOL},         {DataType::FLOAT, TP::FLOAT},
      {DataType::FLOAT16, TP::FLOAT16},   {DataType::BFLOAT16, TP::BFLOAT16},
      {DataType::DOUBLE, TP::DOUBLE},     {DataType::COMPLEX64, TP::COMPLEX64},
      {DataType::COMPLEX128, TP::COMPLEX128}, {DataType::STRING, TP::STRING},
      {DataType::UNDEFINED, TP::UNDEFINED}};
  return numbers;
}

Shape parseShape(const std::string &text) {
  // "(2,3)", "[2, 3]" or "2 3".
  Shape shape;
  std::string digits;
  for (char c : text + ",") {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      digits += c;
    } else if (!digits.empty()) {
      shape.push_back(std::stoll(digits));
      digits.clear();
    }
  }
  return shape;
}

} // namespace

DataTypeInfo::DataTypeInfo(DataType type, int nbytes, bool isFixedPoint,
                           std::string name, std::string lcasename)
    : type_(type), nbytes_(nbytes), isFixedPoint_(isFixedPoint),
      name_(std::move(name)), lcasename_(std::move(lcasename)) {}

const DataTypeInfo &getDataTypeInfo(DataType t) {
  return dataTypeInfos().at(static_cast<std::size_t>(t));
}

DataType dataTypeFromString(const std::string &s) {
  for (const auto &i : dataTypeInfos())
    if (i.name() == s || i.lcasename() == s)
      return i.type();
  throw error("'{}' is not a data type: use a name such as FLOAT, FLOAT16, "
              "INT32, INT64, BOOL (or float32, int32, ...)",
              s);
}

int getONNXDataTypeAsInt(DataType t) {
  for (const auto &p : onnxNumbers())
    if (p.first == t)
      return p.second;
  throw error("Data type {} has no ONNX equivalent", getDataTypeInfo(t).name());
}

DataType onnxToPopartType(int onnxType) {
  for (const auto &p : onnxNumbers())
    if (p.second == onnxType)
      return p.first;
  throw error("ONNX data type {} is not supported", onnxType);
}

TensorInfo::TensorInfo(DataType type, const Shape &shape) { set(type, shape); }
TensorInfo::TensorInfo(DataType type, const Shape &shape, const Shape &meta) {
  set(type, shape, meta);
}
TensorInfo::TensorInfo(const std::string &dataType, const std::string &shape)
    : TensorInfo(dataTypeFromString(dataType), parseShape(shape)) {}
TensorInfo::TensorInfo(const std::string &dataType, const Shape &shape)
    : TensorInfo(dataTypeFromString(dataType), shape) {}

TensorInfo::TensorInfo(const onnx::TensorProto &tp) {
  Shape shape(tp.dims().begin(), tp.dims().end());
  set(onnxToPopartType(tp.data_type()), shape);
}

TensorInfo::TensorInfo(const onnx::TypeProto &tp) {
  if (!tp.has_tensor_type())
    throw error("Only tensor types are supported (not sequences, maps or "
                "optionals)");
  const auto &tt = tp.tensor_type();
  Shape shape;
  for (const auto &d : tt.shape().dim()) {
    if (!d.has_dim_value())
      throw error("The shape has an unknown dimension '{}'", d.dim_param());
    shape.push_back(d.dim_value());
  }
  set(onnxToPopartType(tt.elem_type()), shape);
}

void TensorInfo::set(DataType type) { type_ = type; }
void TensorInfo::set(DataType type, const Shape &shape) {
  set(type, shape, {});
}
void TensorInfo::set(DataType type, const Shape &shape, const Shape &meta) {
  for (auto d : shape)
    if (d < 0)
      throw error("Invalid shape {}: dimensions must not be negative", shape);
  type_ = type;
  shape_ = shape;
  metaShape_ = meta;
}

int64_t TensorInfo::nelms() const {
  int64_t n = 1;
  for (auto d : shape_)
    n *= d;
  return n;
}

int64_t TensorInfo::nbytes() const {
  return nelms() * getDataTypeInfo(type_).nbytes();
}

int64_t TensorInfo::dim(int i) const {
  if (i < 0 || i >= rank())
    throw error("Dimension {} out of range for a tensor of rank {}", i, rank());
  return shape_[i];
}

const std::string &TensorInfo::data_type() const {
  return getDataTypeInfo(type_).name();
}
const std::string &TensorInfo::data_type_lcase() const {
  return getDataTypeInfo(type_).lcasename();
}

void TensorInfo::append(std::ostream &out) const {
  out << data_type() << " " << shape_;
}

bool TensorInfo::operator==(const TensorInfo &o) const {
  return type_ == o.type_ && shape_ == o.shape_ && metaShape_ == o.metaShape_;
}
bool TensorInfo::operator!=(const TensorInfo &o) const { return !(*this == o); }

std::ostream &operator<<(std::ostream &os, const TensorInfo &info) {
  info.append(os);
  return os;
}
std::ostream &operator<<(std::ostream &os, const DataType &t) {
  return os << getDataTypeInfo(t).name();
}
std::ostream &operator<<(std::ostream &os, const Shape &shape) {
  os << "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    os << (i ? " " : "") << shape[i];
  return os << "]";
}

Shape npOut(const Shape &s0, const Shape &s1) {
  std::size_t rank = std::max(s0.size(), s1.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - s0.size() ? 1 : s0[i - (rank - s0.size())];
    int64_t b = i < rank - s1.size() ? 1 : s1[i - (rank - s1.size())];
    if (a != b && a != 1 && b != 1) {
      std::ostringstream msg;
      msg << "np broadcasting failed, frames " << s0 << " and " << s1
          << " are not aligned";
      throw error(msg.str());
    }
    out[i] = a == 1 ? b : a;
  }
  return out;
}

TensorInfo npOut(const TensorInfo &i0, const TensorInfo &i1) {
  if (i0.dataType() != i1.dataType())
    throw error("np broadcasting of tensors of different types ({} and {})",
                i0.data_type(), i1.data_type());
  return TensorInfo(i0.dataType(), npOut(i0.shape(), i1.shape()));
}

} // namespace popart
