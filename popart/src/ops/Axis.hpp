// Axes given as ONNX attributes or inputs: negative ones count from the end;
// and the indices' types.
#ifndef POPART_SRC_OPS_AXIS_HPP
#define POPART_SRC_OPS_AXIS_HPP

#include <popart/op.hpp>

#include <popart/error.hpp>

namespace popart {

/// axis in [-rank, rank) made non-negative; popart::error naming the op
/// otherwise.
inline int64_t normaliseAxis(int64_t axis, int64_t rank, const Op &op) {
  if (axis < -rank || axis >= rank)
    throw error("{}: axis {} out of range for rank {}", op.str(), axis, rank);
  return axis < 0 ? axis + rank : axis;
}

/// popart::error naming the op unless its input i (indices) is INT32 or
/// INT64.
inline void checkIndicesType(const Op &op, InIndex i) {
  const auto t = op.inInfo(i).dataType();
  if (t != DataType::INT32 && t != DataType::INT64)
    throw error("{}: indices must be INT32 or INT64, not {}", op.str(),
                op.inInfo(i).data_type());
}

/// Whether values of type t are integers (indices and counts may be any
/// of these).
inline bool isIntegerType(DataType t) {
  switch (t) {
  case DataType::INT8:
  case DataType::UINT8:
  case DataType::INT16:
  case DataType::UINT16:
  case DataType::INT32:
  case DataType::UINT32:
  case DataType::INT64:
  case DataType::UINT64:
    return true;
  default:
    return false;
  }
}

} // namespace popart

#endif
