// Setting every element of a tensor to a value. The value is converted to
// the tensor's element type as a cast would (popops/Cast.hpp).
#ifndef POPOPS_FILL_HPP
#define POPOPS_FILL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <popops/popops_export.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace popops {
namespace detail {

/// A fill value of any C++ arithmetic type.
struct FillValue {
  template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  FillValue(T v) {
    isFloating = std::is_floating_point<T>::value;
    floating = static_cast<double>(v);
    if (!isFloating) {
      isNegative = std::is_signed<T>::value && floating < 0;
      integer = static_cast<std::uint64_t>(v);
    }
  }
  bool isFloating = false;
  bool isNegative = false;
  double floating = 0;
  std::uint64_t integer = 0; // two's complement when negative
};

POPOPS_API void fill(poplar::Graph &graph, const poplar::Tensor &t,
                     const std::vector<poplar::Interval> &tileRegions,
                     unsigned tile, poplar::ComputeSet fillCS,
                     const FillValue &value);
POPOPS_API void fill(poplar::Graph &graph, const poplar::Tensor &t,
                     unsigned tile, poplar::ComputeSet fillCS,
                     const FillValue &value);
POPOPS_API void fill(poplar::Graph &graph, const poplar::Tensor &t,
                     const std::vector<std::vector<poplar::Interval>> &mapping,
                     poplar::ComputeSet fillCS, const FillValue &value);
POPOPS_API void fill(poplar::Graph &graph, const poplar::Tensor &t,
                     poplar::program::Sequence &prog, const FillValue &value,
                     const poplar::DebugContext &debugContext);

} // namespace detail

/// Adds to fillCS vertices on `tile` that fill the regions tileRegions (of
/// the flattened t), which must be on that tile.
template <typename FillValueType>
void fill(poplar::Graph &graph, poplar::Tensor t,
          const std::vector<poplar::Interval> &tileRegions, unsigned tile,
          poplar::ComputeSet fillCS, FillValueType fillValue) {
  detail::fill(graph, t, tileRegions, tile, fillCS, fillValue);
}

/// Adds to fillCS vertices that fill the elements of t on `tile`.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, unsigned tile,
          poplar::ComputeSet fillCS, FillValueType fillValue) {
  detail::fill(graph, t, tile, fillCS, fillValue);
}

/// Adds to fillCS vertices that fill t, mapping[tile] being the regions of
/// the flattened t on each tile.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t,
          const std::vector<std::vector<poplar::Interval>> &mapping,
          poplar::ComputeSet fillCS, FillValueType fillValue) {
  detail::fill(graph, t, mapping, fillCS, fillValue);
}

/// Adds to prog a compute set that fills t with fillValue, on the tiles
/// that hold t.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t,
          poplar::program::Sequence &prog, FillValueType fillValue,
          const poplar::DebugContext &debugContext = {}) {
  detail::fill(graph, t, prog, fillValue, debugContext);
}

} // namespace popops

#endif // POPOPS_FILL_HPP
