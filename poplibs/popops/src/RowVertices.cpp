#include "RowVertices.hpp"

namespace popops {

std::map<unsigned, std::vector<poplar::Interval>>
columnsByTile(const poplar::Graph &graph, const poplar::Tensor &rows) {
  std::map<unsigned, std::vector<poplar::Interval>> result;
  const std::size_t columns = rows.dim(1);
  if (rows.dim(0) == 0 || columns == 0)
    return result;
  bool complete = false;
  const auto mapping = graph.getTileMapping(rows[0], &complete);
  if (!complete) {
    result[0].emplace_back(0, columns);
    return result;
  }
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &i : mapping[tile])
      result[tile].push_back(i);
  return result;
}

poplar::Tensor rowColumns(const poplar::Tensor &rows, std::size_t r,
                          const std::vector<poplar::Interval> &columns) {
  std::vector<poplar::Tensor> parts;
  for (const auto &c : columns)
    parts.push_back(rows[r].slice(c.begin(), c.end()));
  return parts.size() == 1 ? parts[0] : poplar::concat(parts);
}

std::vector<poplar::Tensor>
everyRowColumns(const poplar::Tensor &rows,
                const std::vector<poplar::Interval> &columns) {
  std::vector<poplar::Tensor> result;
  for (std::size_t r = 0; r != rows.dim(0); ++r)
    result.push_back(rowColumns(rows, r, columns));
  return result;
}

std::size_t columnCount(const std::vector<poplar::Interval> &columns) {
  std::size_t n = 0;
  for (const auto &c : columns)
    n += c.size();
  return n;
}

poplar::Tensor rowsAlong(const poplar::Tensor &t, unsigned dim) {
  const std::size_t n = t.dim(dim);
  const std::size_t rest = n == 0 ? 0 : t.numElements() / n;
  return t.dimRoll(dim, 0).reshape({n, rest});
}

} // namespace popops
