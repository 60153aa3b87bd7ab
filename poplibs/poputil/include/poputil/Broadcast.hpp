#ifndef POPUTIL_BROADCAST_HPP
#define POPUTIL_BROADCAST_HPP

#include <poplar/Tensor.hpp>
#include <poputil/poputil_export.hpp>

#include <cstddef>
#include <vector>

namespace poputil {

/// Adds leading dimensions of size 1 to the tensor of lower rank.
POPUTIL_API void expandToMatchRanks(poplar::Tensor &a, poplar::Tensor &b);

/// Broadcasts a (numpy rules) to `shape`; poplibs_error if it cannot be.
POPUTIL_API void broadcastToMatch(poplar::Tensor &a,
                                  const std::vector<std::size_t> &shape);
/// Broadcasts a and b to a common shape.
POPUTIL_API void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b);
POPUTIL_API void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b,
                                  poplar::Tensor &c);

/// Whether a and b can be broadcast to a common shape.
POPUTIL_API bool canBroadcastToMatch(const poplar::Tensor &a,
                                     const poplar::Tensor &b);

} // namespace poputil

#endif // POPUTIL_BROADCAST_HPP
