// Where the work of an element-wise popnn vertex goes: for every tile, the
// intervals of a tensor's flattened elements held there, grouped into
// vertices of bounded size (one tile holding much also gets several
// vertices, which the host runs in parallel).
#ifndef POPNN_SRC_TILEWORK_HPP
#define POPNN_SRC_TILEWORK_HPP

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popnn {
namespace detail {

/// The most elements one element-wise vertex takes.
constexpr std::size_t maxElementsPerVertex = 1u << 16;

/// Calls fn(tile, intervals) for each vertex working on `t`. On the CPU
/// target unmapped elements count as on tile 0; on IPU targets they are a
/// poplibs_error naming `opName` and the tensor.
void forEachVertexGroup(
    const poplar::Graph &graph, const poplar::Tensor &t,
    const std::string &opName,
    const std::function<void(unsigned tile,
                             const std::vector<poplar::Interval> &)> &fn);

/// The slices of a 1-D tensor for each interval.
std::vector<poplar::Tensor>
intervalSlices(const poplar::Tensor &flat,
               const std::vector<poplar::Interval> &intervals);

/// The sizes of the intervals.
std::vector<std::size_t>
intervalSizes(const std::vector<poplar::Interval> &intervals);

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
