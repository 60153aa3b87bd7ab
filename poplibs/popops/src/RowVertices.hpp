// Helpers for operations that work on whole rows of a [rows, columns] view:
// each tile gets one vertex for the columns it holds, so vertices never
// share an element.
#ifndef POPOPS_SRC_ROWVERTICES_HPP
#define POPOPS_SRC_ROWVERTICES_HPP

#include "Messages.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

#include <map>
#include <string>
#include <vector>

namespace popops {

/// The columns of row 0 of `rows` (2-D) grouped by the tile that holds them
/// (everything on tile 0 where the tensor has no mapping, as on the CPU).
std::map<unsigned, std::vector<poplar::Interval>>
columnsByTile(const poplar::Graph &graph, const poplar::Tensor &rows);

/// Row r of `rows` restricted to `columns`, as one 1-D tensor.
poplar::Tensor rowColumns(const poplar::Tensor &rows, std::size_t r,
                          const std::vector<poplar::Interval> &columns);

/// rowColumns of every row of `rows`.
std::vector<poplar::Tensor>
everyRowColumns(const poplar::Tensor &rows,
                const std::vector<poplar::Interval> &columns);

/// The number of columns in `columns`.
std::size_t columnCount(const std::vector<poplar::Interval> &columns);

/// `t` viewed as [t.dim(dim), everything else], `dim` first.
poplar::Tensor rowsAlong(const poplar::Tensor &t, unsigned dim);

} // namespace popops

#endif // POPOPS_SRC_ROWVERTICES_HPP
