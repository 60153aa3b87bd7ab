// Tensor data on the host as doubles, for constant folding (exact for
// every integer up to 2^53 and every float).
#ifndef POPART_SRC_IR_HOSTDATA_HPP
#define POPART_SRC_IR_HOSTDATA_HPP

#include <popart/tensorinfo.hpp>

#include <vector>

namespace popart {

std::vector<double> toDoubles(const std::vector<char> &data, DataType type);
std::vector<char> fromDoubles(const std::vector<double> &values, DataType type);
/// The values of a broadcast operand at each index of the output shape.
std::vector<double> broadcastTo(const std::vector<double> &values,
                                const Shape &from, const Shape &to);

} // namespace popart

#endif
