// Sorting and top-k along one dimension. Each row along the dimension is
// sorted by one vertex on the tile that holds its first element; rows that
// are not contiguous are gathered for the vertex and scattered back.
#include <popops/Sort.hpp>
#include <popops/TopK.hpp>

#include "DataMovementEstimates.hpp"
#include "RowVertices.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <map>

namespace popops {
namespace {

using poplar::Tensor;

void checkSortable(const std::string &op, const Tensor &t) {
  const auto type = t.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
      type != poplar::UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                 "' has type " + type.toString().str() +
                                 ", which cannot be sorted");
}

// t viewed as rows along dim (the dimension innermost).
Tensor rowsWithInner(const Tensor &t, unsigned dim) {
  const std::size_t n = t.dim(dim);
  return t.dimRoll(dim, t.rank() - 1)
      .reshape({n == 0 ? 0 : t.numElements() / n, n});
}

// Row indices grouped by the tile holding each row's first element.
std::map<unsigned, std::vector<std::size_t>>
rowsByTile(const poplar::Graph &graph, const Tensor &rows) {
  std::map<unsigned, std::vector<std::size_t>> result;
  if (rows.dim(1) == 0)
    return result;
  bool complete = false;
  const Tensor firsts = rows.slice(0, 1, 1).flatten();
  const auto mapping = graph.getTileMapping(firsts, &complete);
  if (!complete) {
    for (std::size_t r = 0; r != rows.dim(0); ++r)
      result[0].push_back(r);
    return result;
  }
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &i : mapping[tile])
      for (std::size_t r = i.begin(); r != i.end(); ++r)
        result[tile].push_back(r);
  return result;
}

std::vector<Tensor> pick(const Tensor &rows, const std::vector<std::size_t> &r) {
  std::vector<Tensor> out;
  for (auto i : r)
    out.push_back(rows[i]);
  return out;
}

// The user's tensors are checked before anything is added for them, so
// that a refused call leaves the graph and program as they were.
void checkSortRows(const Tensor &keys, const Tensor *values, unsigned dim,
                   const std::string &op) {
  checkSortable(op, keys);
  if (dim >= keys.rank())
    throw poputil::poplibs_error(op + ": tensor '" + keys.getDebugStr() +
                                 "' has no dimension " + std::to_string(dim));
  if (values && values->shape() != keys.shape())
    throw poputil::poplibs_error(op + ": values '" + values->getDebugStr() +
                                 "' do not have the shape of the keys '" +
                                 keys.getDebugStr() + "'");
}

void sortRows(poplar::Graph &graph, const Tensor &keys, const Tensor *values,
              unsigned dim, poplar::program::Sequence &prog,
              const std::string &op) {
  checkSortRows(keys, values, dim, op);
  const Tensor keyRows = rowsWithInner(keys, dim);
  const Tensor valueRows = values ? rowsWithInner(*values, dim) : keyRows;
  const std::string type = poputil::templateVertex(
      "popops::SortRows", keys.elementType(),
      values ? values->elementType() : keys.elementType());
  poplar::ComputeSet cs = graph.addComputeSet({op});
  for (const auto &[tile, rows] : rowsByTile(graph, keyRows)) {
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v["keys"], pick(keyRows, rows));
    graph.connect(v["values"],
                  values ? pick(valueRows, rows) : std::vector<Tensor>{});
    graph.setInitialValue(v["descending"], false);
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v,
                          detail::sortRowsCycles(rows.size(), keyRows.dim(1)));
  }
  prog.add(poplar::program::Execute(cs));
}

} // namespace

void sortInPlace(poplar::Graph &graph, const Tensor &t, unsigned dim,
                 poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  sortRows(graph, t, nullptr, dim, prog, opName(debugContext, "sort"));
}

Tensor sort(poplar::Graph &graph, const Tensor &t, unsigned dim,
            poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext) {
  checkSortRows(t, nullptr, dim, opName(debugContext, "sort"));
  Tensor out = graph.clone(t, {opName(debugContext, "sort") + "/out"});
  prog.add(poplar::program::Copy(t, out));
  sortInPlace(graph, out, dim, prog, debugContext);
  return out;
}

void sortKeyValueInPlace(poplar::Graph &graph, const Tensor &k, const Tensor &v,
                         unsigned dim, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext) {
  sortRows(graph, k, &v, dim, prog, opName(debugContext, "sortKeyValue"));
}

Tensor sortKeyValue(poplar::Graph &graph, const Tensor &k, const Tensor &v,
                    unsigned dim, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "sortKeyValue");
  checkSortRows(k, &v, dim, op);
  Tensor keys = graph.clone(k, {op + "/keys"});
  Tensor values = graph.clone(v, {op + "/values"});
  prog.add(poplar::program::Copy(k, keys));
  prog.add(poplar::program::Copy(v, values));
  sortRows(graph, keys, &values, dim, prog, op);
  return values;
}

std::pair<Tensor, Tensor> topKWithPermutation(poplar::Graph &graph,
                                              poplar::program::Sequence &prog,
                                              const Tensor &t,
                                              const TopKParams &params,
                                              const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "topK");
  checkSortable(op, t);
  if (t.rank() == 0 || params.k > t.dim(t.rank() - 1))
    throw poputil::poplibs_error(op + ": k = " + std::to_string(params.k) +
                                 " is larger than the innermost dimension of '" +
                                 t.getDebugStr() + "'");
  const unsigned inner = static_cast<unsigned>(t.rank() - 1);
  auto shape = t.shape();
  shape[inner] = params.k;
  Tensor values = graph.addVariable(t.elementType(), shape, {op + "/values"});
  Tensor indices =
      graph.addVariable(poplar::UNSIGNED_INT, shape, {op + "/indices"});
  const Tensor inRows = rowsWithInner(t, inner);
  const Tensor valueRows = rowsWithInner(values, inner);
  const Tensor indexRows = rowsWithInner(indices, inner);
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const std::string type =
      poputil::templateVertex("popops::TopKRows", t.elementType());
  auto byTile = rowsByTile(graph, inRows);
  for (const auto &[tile, rows] : byTile) {
    for (auto r : rows) {
      graph.setTileMapping(valueRows[r], tile);
      graph.setTileMapping(indexRows[r], tile);
    }
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v["in"], pick(inRows, rows));
    graph.connect(v["values"], pick(valueRows, rows));
    graph.connect(v["indices"], pick(indexRows, rows));
    graph.setInitialValue(v["largest"], params.largest);
    graph.setInitialValue(v["order"],
                          static_cast<unsigned>(params.sortOrder ==
                                                        SortOrder::NONE
                                                    ? 0
                                                : params.sortOrder ==
                                                        SortOrder::ASCENDING
                                                    ? 1
                                                    : 2));
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v,
                          detail::topKRowsCycles(rows.size(), inRows.dim(1)));
  }
  if (byTile.empty() && values.numElements() != 0) {
    poputil::mapTensorLinearly(graph, values, 1, 1);
    poputil::mapTensorLinearly(graph, indices, 1, 1);
  }
  if (values.numElements() == 0) {
    graph.setTileMapping(values, 0);
    graph.setTileMapping(indices, 0);
  }
  prog.add(poplar::program::Execute(cs));
  return {values, indices};
}

Tensor topK(poplar::Graph &graph, poplar::program::Sequence &prog,
            const Tensor &t, const TopKParams &params,
            const poplar::DebugContext &debugContext) {
  return topKWithPermutation(graph, prog, t, params, debugContext).first;
}

std::pair<Tensor, Tensor> topKKeyValue(poplar::Graph &graph,
                                       poplar::program::Sequence &prog,
                                       const Tensor &keys, const Tensor &values,
                                       const TopKParams &params,
                                       const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "topKKeyValue");
  if (values.shape() != keys.shape())
    throw poputil::poplibs_error(op + ": values '" + values.getDebugStr() +
                                 "' do not have the shape of the keys '" +
                                 keys.getDebugStr() + "'");
  auto [topKeys, positions] =
      topKWithPermutation(graph, prog, keys, params, debugContext);
  // Gather the values at the chosen positions, row by row.
  const unsigned inner = static_cast<unsigned>(keys.rank() - 1);
  const Tensor valueRows = rowsWithInner(values, inner);
  const Tensor positionRows = rowsWithInner(positions, inner);
  Tensor out = graph.clone(values.elementType(), topKeys, {op + "/values"});
  const Tensor outRows = rowsWithInner(out, inner);
  poplar::ComputeSet cs = graph.addComputeSet({op + "/gather"});
  const std::string type =
      poputil::templateVertex("popops::MultiSlice", values.elementType());
  for (std::size_t r = 0; r != valueRows.dim(0); ++r) {
    // Each row of values is a list of one-element rows to slice from.
    poplar::VertexRef v = graph.addVertex(cs, type);
    std::vector<Tensor> base, slices;
    for (std::size_t c = 0; c != valueRows.dim(1); ++c)
      base.push_back(valueRows[r].slice(c, c + 1));
    for (std::size_t c = 0; c != outRows.dim(1); ++c)
      slices.push_back(outRows[r].slice(c, c + 1));
    graph.connect(v["offsets"], positionRows[r]);
    graph.connect(v["base"], base);
    graph.connect(v["out"], slices);
    bool complete = false;
    const auto m = graph.getTileMapping(outRows[r], &complete);
    unsigned tile = 0;
    for (unsigned i = 0; complete && i != m.size(); ++i)
      if (!m[i].empty()) {
        tile = i;
        break;
      }
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(v, detail::gatherPositionsCycles(outRows.dim(1)));
  }
  prog.add(poplar::program::Execute(cs));
  return {topKeys, out};
}

} // namespace popops
