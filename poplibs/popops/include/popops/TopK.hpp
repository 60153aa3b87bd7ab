#ifndef POPOPS_TOPK_HPP
#define POPOPS_TOPK_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/SortOrder.hpp>
#include <popops/popops_export.hpp>

#include <utility>

namespace popops {

/// The k largest (or smallest) elements of each innermost row, in the
/// order asked for (NONE keeps their order in the row).
struct POPOPS_API TopKParams {
  TopKParams(unsigned k, bool largest, SortOrder sortOrder,
             bool stableSort = false)
      : k(k), largest(largest), sortOrder(sortOrder), stableSort(stableSort) {}
  unsigned k;
  bool largest;
  SortOrder sortOrder;
  bool stableSort;
};

POPOPS_API poplar::Tensor topK(poplar::Graph &graph,
                               poplar::program::Sequence &prog,
                               const poplar::Tensor &t, const TopKParams &params,
                               const poplar::DebugContext &debugContext = {});
/// The top k keys and the values at the same positions.
POPOPS_API std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph &graph, poplar::program::Sequence &prog,
             const poplar::Tensor &keys, const poplar::Tensor &values,
             const TopKParams &params,
             const poplar::DebugContext &debugContext = {});
/// The top k and their positions in the row (UNSIGNED_INT).
POPOPS_API std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph &graph, poplar::program::Sequence &prog,
                    const poplar::Tensor &t, const TopKParams &params,
                    const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_TOPK_HPP
