#ifndef POPOPS_SORT_HPP
#define POPOPS_SORT_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// t sorted ascending along dim (stable), as a new tensor.
POPOPS_API poplar::Tensor sort(poplar::Graph &graph, const poplar::Tensor &t,
                               unsigned dim, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});
POPOPS_API void sortInPlace(poplar::Graph &graph, const poplar::Tensor &t,
                            unsigned dim, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

/// v reordered as sorting k along dim reorders it.
POPOPS_API poplar::Tensor sortKeyValue(poplar::Graph &graph,
                                       const poplar::Tensor &k,
                                       const poplar::Tensor &v, unsigned dim,
                                       poplar::program::Sequence &prog,
                                       const poplar::DebugContext &debugContext = {});
/// Sorts k and reorders v with it, both in place.
POPOPS_API void sortKeyValueInPlace(poplar::Graph &graph, const poplar::Tensor &k,
                                    const poplar::Tensor &v, unsigned dim,
                                    poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SORT_HPP
