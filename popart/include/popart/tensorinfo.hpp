// The element type and shape of a tensor.
#ifndef POPART_TENSORINFO_HPP
#define POPART_TENSORINFO_HPP

#include <popart/datatype.hpp>
#include <popart/names.hpp>
#include <popart/popart_export.hpp>

#include <cstdint>
#include <ostream>
#include <string>

namespace onnx {
class TensorProto;
class TypeProto;
} // namespace onnx

namespace popart {

/// "FLOAT", "INT32", ... (the enumerator's spelling) or the numpy names
/// ("float32", "int32", ...), case as written.
POPART_API DataType dataTypeFromString(const std::string &s);
/// The ONNX TensorProto::DataType number of t.
POPART_API int getONNXDataTypeAsInt(DataType t);
POPART_API DataType onnxToPopartType(int onnxType);

/// Name, numpy name and byte size of each type.
class POPART_API DataTypeInfo {
public:
  DataTypeInfo(DataType type, int nbytes, bool isFixedPoint, std::string name,
               std::string lcasename);
  DataType type() const { return type_; }
  const std::string &name() const { return name_; }
  const std::string &lcasename() const { return lcasename_; }
  /// Bytes per element; -1 for STRING and UNDEFINED.
  int nbytes() const { return nbytes_; }
  bool isFixedPoint() const { return isFixedPoint_; }

private:
  DataType type_;
  int nbytes_;
  bool isFixedPoint_;
  std::string name_;
  std::string lcasename_;
};

POPART_API const DataTypeInfo &getDataTypeInfo(DataType t);

template <typename T> DataType getDataType();

class POPART_API TensorInfo {
public:
  TensorInfo() = default;
  TensorInfo(DataType type, const Shape &shape);
  TensorInfo(DataType type, const Shape &shape, const Shape &metaShape);
  /// TensorInfo("FLOAT", "(2,3)") as the original's text form.
  TensorInfo(const std::string &dataType, const std::string &shape);
  TensorInfo(const std::string &dataType, const Shape &shape);
  explicit TensorInfo(const onnx::TensorProto &tp);
  explicit TensorInfo(const onnx::TypeProto &tp);

  void set(DataType type);
  void set(DataType type, const Shape &shape);
  void set(DataType type, const Shape &shape, const Shape &metaShape);

  const Shape &shape() const { return shape_; }
  const Shape &metaShape() const { return metaShape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t nelms() const;
  int64_t nbytes() const;
  int64_t dim(int i) const;
  DataType dataType() const { return type_; }
  /// "FLOAT", "INT32", ...
  const std::string &data_type() const;
  /// "float32", "int32", ...
  const std::string &data_type_lcase() const;
  bool isSet() const { return type_ != DataType::UNDEFINED; }
  void append(std::ostream &out) const;

  bool operator==(const TensorInfo &) const;
  bool operator!=(const TensorInfo &) const;

private:
  DataType type_ = DataType::UNDEFINED;
  Shape shape_;
  Shape metaShape_;
};

POPART_API std::ostream &operator<<(std::ostream &, const TensorInfo &);
POPART_API std::ostream &operator<<(std::ostream &, const DataType &);
POPART_API std::ostream &operator<<(std::ostream &, const Shape &);

/// The numpy broadcast of two shapes (popart::error if incompatible).
POPART_API Shape npOut(const Shape &s0, const Shape &s1);
POPART_API TensorInfo npOut(const TensorInfo &i0, const TensorInfo &i1);

template <> inline DataType getDataType<uint8_t>() { return DataType::UINT8; }
template <> inline DataType getDataType<int8_t>() { return DataType::INT8; }
template <> inline DataType getDataType<uint16_t>() { return DataType::UINT16; }
template <> inline DataType getDataType<int16_t>() { return DataType::INT16; }
template <> inline DataType getDataType<int32_t>() { return DataType::INT32; }
template <> inline DataType getDataType<int64_t>() { return DataType::INT64; }
template <> inline DataType getDataType<uint32_t>() { return DataType::UINT32; }
template <> inline DataType getDataType<uint64_t>() { return DataType::UINT64; }
template <> inline DataType getDataType<bool>() { return DataType::BOOL; }
template <> inline DataType getDataType<float>() { return DataType::FLOAT; }
template <> inline DataType getDataType<double>() { return DataType::DOUBLE; }
/// STRING tensors' host data: one std::string per element.
template <> inline DataType getDataType<std::string>() {
  return DataType::STRING;
}

} // namespace popart

#endif
