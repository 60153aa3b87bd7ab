// Tensor data on the host as doubles, for constant folding (exact for
// every integer up to 2^53 and every float).
#ifndef POPART_SRC_IR_HOSTDATA_HPP
#define POPART_SRC_IR_HOSTDATA_HPP

#include <popart/tensor.hpp>
#include <popart/tensorinfo.hpp>

#include <vector>

namespace popart {

std::vector<double> toDoubles(const std::vector<char> &data, DataType type);
std::vector<char> fromDoubles(const std::vector<double> &values, DataType type);
/// Tensor data as 64-bit integers: integer types exactly (INT64's whole
/// range, which doubles cannot hold), floating-point ones truncated and
/// saturated; popart::error for a NaN.
std::vector<int64_t> toInt64s(const std::vector<char> &data, DataType type);
/// A variable of which each replica holds a part (replicated tensor
/// sharding): its info is the part's, its meta shape and host data the
/// whole tensor's.
inline bool isReplicaSharded(const Tensor &t) {
  return t.type == TensorType::Variable && !t.info.metaShape().empty();
}
/// The info of a tensor's host copy: the whole tensor for a sharded one.
inline TensorInfo hostInfo(const Tensor &t) {
  return isReplicaSharded(t) ? TensorInfo(t.info.dataType(), t.info.metaShape())
                             : t.info;
}

/// The values of a broadcast operand at each index of the output shape.
std::vector<double> broadcastTo(const std::vector<double> &values,
                                const Shape &from, const Shape &to);

} // namespace popart

#endif
