// Where the work of an element-wise popnn vertex goes, and the checks of
// popnn's operands.
#ifndef POPNN_SRC_TILEWORK_HPP
#define POPNN_SRC_TILEWORK_HPP

#include <poplibs_support/TileRegions.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popnn {
namespace detail {

// Work goes where the tensor lives, grouped into vertices as popops groups
// it (poplibs_support/TileRegions.hpp).
using poplibs_support::forEachVertexGroup;
using poplibs_support::maxElementsPerVertex;
using poplibs_support::regionSizes;
using poplibs_support::regionSlices;

/// Throws a poplibs_error naming `opName`, `what` and the tensor unless its
/// element type is FLOAT or HALF.
void checkFloatingPoint(const poplar::Tensor &t, const std::string &opName,
                        const std::string &what);

/// Throws a poplibs_error naming `opName` and both tensors unless they
/// have the same shape.
void checkSameShape(const poplar::Tensor &a, const std::string &aName,
                    const poplar::Tensor &b, const std::string &bName,
                    const std::string &opName);

/// "'<debug name>' [d0,d1,...]" for messages.
std::string describe(const poplar::Tensor &t);

} // namespace detail
} // namespace popnn

#endif // POPNN_SRC_TILEWORK_HPP
