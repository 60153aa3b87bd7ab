#include <onnx_io/HostTensor.hpp>

#include <popart/error.hpp>
#include <poplar/detail/HalfBits.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace onnx_io {
namespace {

using popart::DataType;

// popart's type for an ONNX element type, for the types a host tensor can
// hold (fixed-size numbers, booleans and strings).
DataType dataTypeOf(int onnxType, const std::string &origin) {
  DataType type = DataType::UNDEFINED;
  try {
    type = popart::onnxToPopartType(onnxType);
  } catch (const popart::error &) {
  }
  if (type == DataType::STRING)
    return type;
  if (type == DataType::UNDEFINED || popart::getDataTypeInfo(type).nbytes() <= 0 ||
      type == DataType::COMPLEX64 || type == DataType::COMPLEX128)
    throw popart::error("{}: ONNX element type {} is not supported", origin,
                        onnxType);
  return type;
}

std::size_t elementSize(DataType type) {
  return std::size_t(popart::getDataTypeInfo(type).nbytes());
}

template <typename T> void writeElements(HostTensor &t, const std::vector<T> &v) {
  const std::size_t size = elementSize(t.info.dataType());
  for (std::size_t i = 0; i < v.size(); ++i) {
    switch (t.info.dataType()) {
    case DataType::FLOAT: {
      float x = float(v[i]);
      std::memcpy(&t.bytes[i * size], &x, size);
      break;
    }
    case DataType::DOUBLE: {
      double x = double(v[i]);
      std::memcpy(&t.bytes[i * size], &x, size);
      break;
    }
    default: { // integers narrowed to the element width (little endian)
      int64_t x = int64_t(v[i]);
      std::memcpy(&t.bytes[i * size], &x, size);
    }
    }
  }
}

// STRING tensors: same type, shape and elements.
Comparison compareStrings(const HostTensor &actual,
                          const HostTensor &expected) {
  if (actual.info.dataType() != expected.info.dataType())
    return {false, "is " + actual.info.data_type() + ", expected " +
                       expected.info.data_type()};
  if (actual.info.shape() != expected.info.shape()) {
    std::ostringstream s;
    popart::operator<<(s << "has shape ", actual.info.shape()) << ", expected ";
    popart::operator<<(s, expected.info.shape());
    return {false, s.str()};
  }
  for (std::size_t i = 0; i < expected.strings.size(); ++i)
    if (actual.strings.at(i) != expected.strings[i])
      return {false, "element " + std::to_string(i) + " is \"" +
                         actual.strings[i] + "\", expected \"" +
                         expected.strings[i] + "\""};
  return {true, ""};
}

} // namespace

HostTensor fromTensorProto(const onnx::TensorProto &proto,
                           const std::string &origin) {
  if (proto.has_data_location() &&
      proto.data_location() == onnx::TensorProto::EXTERNAL)
    throw popart::error("{}: tensor '{}' keeps its data in an external file, "
                        "which is not supported",
                        origin, proto.name());
  HostTensor t;
  popart::Shape shape(proto.dims().begin(), proto.dims().end());
  t.info = popart::TensorInfo(dataTypeOf(proto.data_type(), origin), shape);
  int64_t count = 1;
  for (auto d : shape) {
    if (d < 0 || (d > 0 && count > (int64_t(1) << 40) / d))
      throw popart::error("{}: tensor '{}' has a bad shape {}", origin,
                          proto.name(), shape);
    count *= d;
  }
  auto checkCount = [&](int64_t have) {
    if (have != count)
      throw popart::error("{}: tensor '{}' holds {} values for shape with {} "
                          "elements",
                          origin, proto.name(), have, count);
  };
  if (t.isString()) {
    checkCount(proto.string_data_size());
    t.strings.assign(proto.string_data().begin(), proto.string_data().end());
    return t;
  }
  const std::size_t size = elementSize(t.info.dataType());
  // float_data and double_data hold their own type's values only.
  auto checkField = [&](DataType holds, const char *field) {
    if (t.info.dataType() != holds)
      throw popart::error("{}: tensor '{}' of type {} has its values in {}, "
                          "which holds {} values",
                          origin, proto.name(), t.info.data_type(), field,
                          popart::getDataTypeInfo(holds).name());
  };
  // The values present, before anything is allocated for them (a file
  // that is not a TensorProto can parse as one with any dims).
  const int64_t present =
      proto.has_raw_data() ? int64_t(proto.raw_data().size() / size)
      : proto.float_data_size() > 0  ? proto.float_data_size()
      : proto.double_data_size() > 0 ? proto.double_data_size()
      : proto.int64_data_size() > 0  ? proto.int64_data_size()
      : proto.uint64_data_size() > 0 ? proto.uint64_data_size()
                                     : proto.int32_data_size();
  checkCount(present);
  t.bytes.assign(std::size_t(count) * size, 0);

  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != t.bytes.size())
      throw popart::error("{}: tensor '{}' has {} bytes of raw data for {} "
                          "elements of {} bytes",
                          origin, proto.name(), proto.raw_data().size(), count,
                          size);
    if (!t.bytes.empty()) // an empty vector's data() may be null
      std::memcpy(t.bytes.data(), proto.raw_data().data(), t.bytes.size());
  } else if (proto.float_data_size() > 0) {
    checkCount(proto.float_data_size());
    checkField(DataType::FLOAT, "float_data");
    std::memcpy(t.bytes.data(), proto.float_data().data(), t.bytes.size());
  } else if (proto.double_data_size() > 0) {
    checkCount(proto.double_data_size());
    checkField(DataType::DOUBLE, "double_data");
    std::memcpy(t.bytes.data(), proto.double_data().data(), t.bytes.size());
  } else if (proto.int64_data_size() > 0) {
    checkCount(proto.int64_data_size());
    writeElements(t, std::vector<int64_t>(proto.int64_data().begin(),
                                          proto.int64_data().end()));
  } else if (proto.uint64_data_size() > 0) {
    checkCount(proto.uint64_data_size());
    writeElements(t, std::vector<uint64_t>(proto.uint64_data().begin(),
                                           proto.uint64_data().end()));
  } else if (proto.int32_data_size() > 0) {
    // int32_data carries every narrow type, FLOAT16 as its bit pattern.
    checkCount(proto.int32_data_size());
    writeElements(t, std::vector<int64_t>(proto.int32_data().begin(),
                                          proto.int32_data().end()));
  } else {
    checkCount(0);
  }
  return t;
}

HostTensor readTensorProtoFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw popart::error("cannot open tensor file '{}'", path);
  onnx::TensorProto proto;
  if (!proto.ParseFromIstream(&in))
    throw popart::error("'{}' is not a serialised onnx TensorProto", path);
  return fromTensorProto(proto, path);
}

void toTensorProto(const HostTensor &tensor, const std::string &name,
                   onnx::TensorProto &proto) {
  proto.set_name(name);
  proto.set_data_type(popart::getONNXDataTypeAsInt(tensor.info.dataType()));
  for (auto d : tensor.info.shape())
    proto.add_dims(d);
  if (tensor.isString()) {
    for (const auto &s : tensor.strings)
      proto.add_string_data(s);
    return;
  }
  proto.set_raw_data(tensor.bytes.data(), tensor.bytes.size());
}

HostTensor randomTensor(const popart::TensorInfo &info, unsigned seed) {
  HostTensor t;
  t.info = info;
  const std::size_t count = std::size_t(info.nelms());
  if (t.isString()) { // numbers in [0, 10), as text
    std::mt19937 engine(seed);
    std::uniform_int_distribution<int> digit(0, 9);
    for (std::size_t i = 0; i < count; ++i)
      t.strings.push_back(std::to_string(digit(engine)));
    return t;
  }
  const std::size_t size = elementSize(info.dataType());
  t.bytes.assign(count * size, 0);
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> integer(0, 9);
  for (std::size_t i = 0; i < count; ++i) {
    char *at = &t.bytes[i * size];
    switch (info.dataType()) {
    case DataType::FLOAT: {
      float x = real(engine);
      std::memcpy(at, &x, 4);
      break;
    }
    case DataType::DOUBLE: {
      double x = real(engine);
      std::memcpy(at, &x, 8);
      break;
    }
    case DataType::FLOAT16: {
      uint16_t x = poplar::detail::floatToHalfBits(real(engine));
      std::memcpy(at, &x, 2);
      break;
    }
    case DataType::BOOL:
      *at = char(integer(engine) % 2);
      break;
    default: {
      int64_t x = integer(engine);
      std::memcpy(at, &x, size);
    }
    }
  }
  return t;
}

std::vector<double> toDoubles(const HostTensor &tensor) {
  const DataType type = tensor.info.dataType();
  if (tensor.isString())
    throw popart::error("STRING tensors have no numeric values");
  const std::size_t size = elementSize(type);
  const std::size_t count = tensor.bytes.size() / size;
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const char *at = &tensor.bytes[i * size];
    switch (type) {
    case DataType::FLOAT: { float x; std::memcpy(&x, at, 4); out[i] = x; break; }
    case DataType::DOUBLE: { double x; std::memcpy(&x, at, 8); out[i] = x; break; }
    case DataType::FLOAT16: { uint16_t x; std::memcpy(&x, at, 2); out[i] = poplar::detail::halfBitsToFloat(x); break; }
    case DataType::BFLOAT16: {
      uint16_t x; std::memcpy(&x, at, 2);
      uint32_t bits = uint32_t(x) << 16; float f; std::memcpy(&f, &bits, 4);
      out[i] = f; break;
    }
    case DataType::BOOL:
    case DataType::UINT8: out[i] = uint8_t(*at); break;
    case DataType::INT8: out[i] = int8_t(*at); break;
    case DataType::UINT16: { uint16_t x; std::memcpy(&x, at, 2); out[i] = x; break; }
    case DataType::INT16: { int16_t x; std::memcpy(&x, at, 2); out[i] = x; break; }
    case DataType::INT32: { int32_t x; std::memcpy(&x, at, 4); out[i] = x; break; }
    case DataType::UINT32: { uint32_t x; std::memcpy(&x, at, 4); out[i] = x; break; }
    case DataType::UINT64: { uint64_t x; std::memcpy(&x, at, 8); out[i] = double(x); break; }
    default: { int64_t x; std::memcpy(&x, at, 8); out[i] = double(x); }
    }
  }
  return out;
}

Comparison compareElementwise(const HostTensor &actual,
                              const HostTensor &expected, double rtol,
                              double atol) {
  if (actual.isString() || expected.isString())
    return compareStrings(actual, expected);
  const auto a = toDoubles(actual);
  const auto e = toDoubles(expected);
  if (a.size() != e.size())
    return {false, "has " + std::to_string(a.size()) + " elements, expected " +
                       std::to_string(e.size())};
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(e[i]) && std::isnan(a[i]))
      continue;
    if (std::isinf(e[i]) && a[i] == e[i])
      continue;
    if (!(std::abs(a[i] - e[i]) <= atol + rtol * std::abs(e[i]))) {
      std::ostringstream s;
      s << "element " << i << " is " << a[i] << ", expected " << e[i];
      return {false, s.str()};
    }
  }
  return {true, ""};
}

Comparison compareRelative(const HostTensor &actual,
                           const HostTensor &expected, double limit) {
  if (actual.isString() || expected.isString())
    return compareStrings(actual, expected);
  const auto a = toDoubles(actual);
  const auto e = toDoubles(expected);
  if (a.size() != e.size())
    return {false, "has " + std::to_string(a.size()) + " elements, expected " +
                       std::to_string(e.size())};
  double worstDifference = 0, largest = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double difference = std::abs(a[i] - e[i]);
    worstDifference = std::isnan(difference)
                          ? INFINITY
                          : std::max(worstDifference, difference);
    largest = std::max(largest, std::abs(e[i]));
  }
  const double relative =
      largest > 0 ? worstDifference / largest : worstDifference;
  std::ostringstream s;
  s << "relative error " << relative;
  return {relative <= limit, s.str()};
}

} // namespace onnx_io
