#ifndef POPOPS_PAD_HPP
#define POPOPS_PAD_HPP

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

#include <cstddef>
#include <vector>

namespace popops {
namespace padding {
/// Padding without a value: repeat the edge element, or mirror the tensor
/// without repeating the edge.
enum class Type { EDGE, REFLECT };
/// Where constant padding lives: unmapped, on tile 0, or beside the edge
/// element it is next to.
enum class MappingMethod { NONE, ZERO, EDGE };
} // namespace padding

/// t with paddingLower[d] elements before and paddingUpper[d] after it in
/// each dimension d, of value val (negative amounts truncate instead).
POPOPS_API poplar::Tensor
pad(poplar::Graph &graph, const poplar::Tensor &t,
    const std::vector<std::ptrdiff_t> &paddingLower,
    const std::vector<std::ptrdiff_t> &paddingUpper, float val = 0.0f,
    padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
POPOPS_API poplar::Tensor
pad(poplar::Graph &graph, const poplar::Tensor &t,
    const std::vector<std::ptrdiff_t> &paddingLower,
    const std::vector<std::ptrdiff_t> &paddingUpper, int val,
    padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// Padding whose value is the (scalar) tensor val.
POPOPS_API poplar::Tensor
pad(poplar::Graph &graph, const poplar::Tensor &t,
    const std::vector<std::ptrdiff_t> &paddingLower,
    const std::vector<std::ptrdiff_t> &paddingUpper, const poplar::Tensor &val,
    padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// One dimension.
POPOPS_API poplar::Tensor
pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
    std::ptrdiff_t paddingUpper, unsigned dim, float val = 0.0f,
    padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// EDGE or REFLECT padding: a view of t, no new data.
POPOPS_API poplar::Tensor pad(const poplar::Tensor &t,
                              const std::vector<std::ptrdiff_t> &paddingLower,
                              const std::vector<std::ptrdiff_t> &paddingUpper,
                              padding::Type type);

} // namespace popops

#endif // POPOPS_PAD_HPP
