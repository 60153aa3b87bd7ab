#include "ops/QuantizeOps.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

namespace {

bool isQuantised(DataType t) { return t == DataType::UINT8 || t == DataType::INT8; }

// popart::error naming the op unless input `in` (a scale or zero point of
// an operand of shape `of`) is a scalar, has one element, or is 1-D with
// one value along `axis` of `of`.
void checkPerAxis(const Op &op, InIndex in, const char *what, const Shape &of,
                  int64_t axis) {
  if (!op.hasInput(in))
    return;
  const TensorInfo &info = op.inInfo(in);
  if (info.nelms() == 1)
    return;
  if (info.rank() != 1 || axis < 0 || axis >= int64_t(of.size()) ||
      info.shape()[0] != of[axis])
    throw error("{}: {} '{}' has shape {}; it must be a scalar or 1-D of {} "
                "values along axis {} of shape {}",
                op.str(), what, op.inTensor(in)->id, info.shape(),
                axis >= 0 && axis < int64_t(of.size()) ? of[axis] : 0, axis,
                of);
}

void checkType(const Op &op, InIndex in, const char *what,
               std::initializer_list<DataType> types) {
  for (auto t : types)
    if (op.inInfo(in).dataType() == t)
      return;
  throw error("{}: {} '{}' has the unsupported type {}", op.str(), what,
              op.inTensor(in)->id, op.inInfo(in).data_type());
}

// The zero points of two operands, when both are given, have one type.
void checkQuantisedPair(const Op &op, InIndex data, InIndex zero) {
  checkType(op, data, "input", {DataType::UINT8, DataType::INT8});
  if (op.hasInput(zero) &&
      op.inInfo(zero).dataType() != op.inInfo(data).dataType())
    throw error("{}: zero point '{}' is {}, its operand '{}' {}", op.str(),
                op.inTensor(zero)->id, op.inInfo(zero).data_type(),
                op.inTensor(data)->id, op.inInfo(data).data_type());
}

// The axis of the per-channel scales and zero points of input 0 (only
// read when one has more than one value).
int64_t channelAxis(const Op &op, int64_t axis) {
  for (InIndex in : {1, 2})
    if (op.hasInput(in) && op.inInfo(in).nelms() > 1)
      return normaliseAxis(axis, op.inRank(0), op);
  return axis;
}

} // namespace

void QuantizeLinearOp::setup() {
  checkType(*this, 0, "input", {DataType::FLOAT, DataType::FLOAT16,
                                DataType::INT32});
  checkType(*this, 1, "scale", {DataType::FLOAT});
  axis = channelAxis(*this, axis);
  checkPerAxis(*this, 1, "scale", inShape(0), axis);
  DataType out = DataType::UINT8;
  if (hasInput(2)) {
    out = inInfo(2).dataType();
    if (!isQuantised(out))
      throw error("{}: zero point '{}' is {}; UINT8 and INT8 are supported",
                  str(), inTensor(2)->id, inInfo(2).data_type());
    checkPerAxis(*this, 2, "zero point", inShape(0), axis);
  }
  outInfo(0) = TensorInfo(out, inShape(0));
}

void DequantizeLinearOp::setup() {
  checkType(*this, 0, "input", {DataType::UINT8, DataType::INT8,
                                DataType::INT32});
  checkType(*this, 1, "scale", {DataType::FLOAT});
  axis = channelAxis(*this, axis);
  checkPerAxis(*this, 1, "scale", inShape(0), axis);
  if (hasInput(2)) {
    if (inInfo(2).dataType() != inInfo(0).dataType())
      throw error("{}: zero point '{}' is {}, the input {}", str(),
                  inTensor(2)->id, inInfo(2).data_type(), inInfo(0).data_type());
    checkPerAxis(*this, 2, "zero point", inShape(0), axis);
  }
  outInfo(0) = TensorInfo(DataType::FLOAT, inShape(0));
}

void DynamicQuantizeLinearOp::setup() {
  checkType(*this, 0, "input", {DataType::FLOAT});
  outInfo(0) = TensorInfo(DataType::UINT8, inShape(0));
  outInfo(1) = TensorInfo(DataType::FLOAT, Shape{});
  outInfo(2) = TensorInfo(DataType::UINT8, Shape{});
}

bool QuantizedMatMulOp::requantised() const {
  return opid.type == "QLinearMatMul";
}

void QuantizedMatMulOp::setup() {
  const Shape a = inShape(0), b = inShape(bIn());
  if (a.size() < 2 || b.size() < 2)
    throw error("{}: operands of shapes {} and {}: ranks of at least 2 are "
                "supported",
                str(), a, b);
  if (a.back() != b[b.size() - 2])
    throw error("{}: operands of shapes {} and {} do not multiply", str(), a,
                b);
  checkQuantisedPair(*this, 0, aZeroIn());
  checkQuantisedPair(*this, bIn(), bZeroIn());
  const int64_t rowAxis = int64_t(a.size()) - 2;
  const int64_t columnAxis = int64_t(b.size()) - 1;
  checkPerAxis(*this, aZeroIn(), "zero point", a, rowAxis);
  checkPerAxis(*this, bZeroIn(), "zero point", b, columnAxis);
  // The batch dimensions broadcast (numpy).
  Shape batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
  Shape out;
  const std::size_t rank = std::max(batchA.size(), batchB.size());
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t da = i + batchA.size() >= rank ? batchA[i + batchA.size() - rank] : 1;
    const int64_t db = i + batchB.size() >= rank ? batchB[i + batchB.size() - rank] : 1;
    if (da != db && da != 1 && db != 1)
      throw error("{}: batch dimensions of {} and {} do not broadcast", str(),
                  a, b);
    out.push_back(std::max(da, db));
  }
  out.push_back(a[a.size() - 2]);
  out.push_back(b.back());
  if (!requantised()) {
    outInfo(0) = TensorInfo(DataType::INT32, out);
    return;
  }
  checkType(*this, 1, "scale", {DataType::FLOAT});
  checkType(*this, 4, "scale", {DataType::FLOAT});
  checkType(*this, 6, "scale", {DataType::FLOAT});
  checkPerAxis(*this, 1, "scale", a, rowAxis);
  checkPerAxis(*this, 4, "scale", b, columnAxis);
  checkPerAxis(*this, 6, "scale", {1}, 0);
  checkPerAxis(*this, 7, "zero point", {1}, 0);
  const DataType y = inInfo(7).dataType();
  if (!isQuantised(y))
    throw error("{}: zero point '{}' is {}; UINT8 and INT8 are supported",
                str(), inTensor(7)->id, inInfo(7).data_type());
  outInfo(0) = TensorInfo(y, out);
}

bool QuantizedConvOp::requantised() const { return opid.type == "QLinearConv"; }

void QuantizedConvOp::setup() {
  checkQuantisedPair(*this, 0, xZeroIn());
  checkQuantisedPair(*this, wIn(), wZeroIn());
  const Shape out = resolveGeometry(wIn());
  checkPerAxis(*this, xZeroIn(), "zero point", {1}, 0);
  checkPerAxis(*this, wZeroIn(), "zero point", inShape(wIn()), 0);
  if (!requantised()) {
    outInfo(0) = TensorInfo(DataType::INT32, out);
    return;
  }
  for (InIndex s : {1, 4, 6})
    checkType(*this, s, "scale", {DataType::FLOAT});
  checkPerAxis(*this, 1, "scale", {1}, 0);
  checkPerAxis(*this, 4, "scale", inShape(wIn()), 0);
  checkPerAxis(*this, 6, "scale", {1}, 0);
  checkPerAxis(*this, 7, "zero point", {1}, 0);
  if (hasInput(8)) {
    checkType(*this, 8, "bias", {DataType::INT32});
    if (inShape(8) != Shape{out[1]})
      throw error("{}: bias '{}' has shape {}, not [{}]", str(),
                  inTensor(8)->id, inShape(8), out[1]);
  }
  const DataType y = inInfo(7).dataType();
  if (!isQuantised(y))
    throw error("{}: zero point '{}' is {}; UINT8 and INT8 are supported",
                str(), inTensor(7)->id, inInfo(7).data_type());
  outInfo(0) = TensorInfo(y, out);
}

} // namespace popart
