// popops::rearrange: transpositions of many small matrices (Transpose2D
// vertices) and regrouping by copying into a tensor laid out with the
// wanted grouping innermost.
#include <popops/Rearrange.hpp>

#include "DataMovementEstimates.hpp"
#include "Messages.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <map>

namespace popops {
namespace rearrange {

using poplar::Tensor;

bool canUseFastTranspose(const poplar::Target &, const poplar::Type &type,
                         unsigned numRows, unsigned numColumns,
                         unsigned numTranspositions) {
  const unsigned grain = getMinimumRegroupGrainSize(type);
  return grain > 1 && numTranspositions > 0 && numRows % grain == 0 &&
         numColumns % grain == 0;
}

unsigned getMinimumRegroupGrainSize(const poplar::Type &type) {
  if (type == poplar::HALF)
    return 4;
  if (type == poplar::FLOAT || type == poplar::INT ||
      type == poplar::UNSIGNED_INT)
    return 2;
  return 1;
}

void addTransposeVertices(
    poplar::Graph &graph, const poplar::ComputeSet &cs,
    const poplar::Type &dType, unsigned rows, unsigned cols,
    const poplar::Graph::TileToTensorMapping &mapping,
    std::function<std::pair<const Tensor, const Tensor>(std::size_t)>
        getInOut) {
  const std::string vertexType =
      poputil::templateVertex("popops::Transpose2D", dType);
  for (unsigned tile = 0; tile != mapping.size(); ++tile) {
    std::vector<Tensor> src, dst;
    for (const auto &interval : mapping[tile])
      for (std::size_t i = interval.begin(); i != interval.end(); ++i) {
        const auto [in, out] = getInOut(i);
        if (in.numElements() != std::size_t(rows) * cols ||
            out.numElements() != in.numElements() ||
            in.elementType() != dType || out.elementType() != dType)
          throw poputil::poplibs_error(
              "popops::rearrange::addTransposeVertices: transposition " +
              std::to_string(i) + " ('" + in.getDebugStr() + "' to '" +
              out.getDebugStr() + "') is not two " + std::to_string(rows) +
              "x" + std::to_string(cols) + " matrices of " +
              dType.toString().str());
        src.push_back(in.flatten());
        dst.push_back(out.flatten());
      }
    if (src.empty())
      continue;
    poplar::VertexRef v = graph.addVertex(cs, vertexType);
    graph.connect(v["src"], src);
    graph.connect(v["dst"], dst);
    graph.setInitialValue(v["numSrcRows"], rows);
    graph.setInitialValue(v["numSrcColumns"], cols);
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(
        v, detail::transposeCycles(src.size(), std::size_t(rows) * cols));
  }
}

Tensor partialTranspose(poplar::Graph &graph, const Tensor &in,
                        const poplar::ComputeSet &cs,
                        const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "partialTranspose");
  if (in.rank() < 2)
    throw poputil::poplibs_error(op + ": tensor '" + in.getDebugStr() +
                                 "' has fewer than 2 dimensions");
  const std::size_t rows = in.dim(in.rank() - 2), cols = in.dim(in.rank() - 1);
  auto shape = in.shape();
  std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);
  Tensor out = graph.addVariable(in.elementType(), shape, {op + "/out"});
  const std::size_t matrix = rows * cols;
  const std::size_t n = matrix == 0 ? 0 : in.numElements() / matrix;
  const Tensor inFlat = in.reshape({n, matrix});
  const Tensor outFlat = out.reshape({n, matrix});
  // Each transposition on the tile of its input's first element.
  poplar::Graph::TileToTensorMapping work(graph.getTarget().getNumTiles());
  bool complete = false;
  const auto inMapping = graph.getTileMapping(in, &complete);
  std::map<std::size_t, unsigned> tileOfElement;
  if (complete)
    for (unsigned tile = 0; tile != inMapping.size(); ++tile)
      for (const auto &i : inMapping[tile])
        tileOfElement[i.begin()] = tile;
  for (std::size_t k = 0; k != n; ++k) {
    unsigned tile = 0;
    if (complete) {
      auto it = tileOfElement.upper_bound(k * matrix);
      tile = std::prev(it)->second;
    }
    graph.setTileMapping(outFlat[k], tile);
    if (!work[tile].empty() && work[tile].back().end() == k)
      work[tile].back() = poplar::Interval(work[tile].back().begin(), k + 1);
    else
      work[tile].emplace_back(k, k + 1);
  }
  if (out.numElements() == 0)
    graph.setTileMapping(out, 0);
  addTransposeVertices(graph, cs, in.elementType(),
                       static_cast<unsigned>(rows), static_cast<unsigned>(cols),
                       work, [&](std::size_t k) {
                         return std::pair<const Tensor, const Tensor>(
                             inFlat[k], outFlat[k]);
                       });
  return out;
}

Tensor regroupTensor(poplar::Graph &graph, const Tensor &t,
                     poplar::program::Sequence &copies,
                     const poplar::ComputeSet &,
                     const poputil::GroupingInfo &from,
                     const poputil::GroupingInfo &to,
                     const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "regroupTensor");
  for (const auto &g : {from, to})
    if (g.first >= t.rank() || g.second == 0 ||
        t.dim(g.first) % g.second != 0)
      throw poputil::poplibs_error(
          op + ": grouping " + std::to_string(g.second) + " of dimension " +
          std::to_string(g.first) + " does not divide tensor '" +
          t.getDebugStr() + "' " + shapeString(t.shape()));
  if (t.rank() <= 1)
    return t;
  // Storage [t's dimensions with to.first divided by the grouping, the
  // grouping], seen in t's shape.
  const unsigned d = to.first;
  auto shape = t.shape();
  shape[d] /= to.second;
  shape.push_back(to.second);
  Tensor storage = graph.addVariable(t.elementType(), shape, {op + "/out"});
  Tensor view = storage.dimRoll(static_cast<unsigned>(shape.size() - 1), d + 1)
                    .reshapePartial(d, d + 2, {t.dim(d)});
  bool complete = false;
  const auto mapping = graph.getTileMapping(t, &complete);
  if (complete)
    graph.setTileMapping(view, mapping);
  else
    poputil::mapTensorLinearly(graph, storage);
  copies.add(poplar::program::Copy(t, view, false, {op}));
  return view;
}

namespace {

Tensor regroupTowards(poplar::Graph &graph, const Tensor &in,
                      const poputil::GroupingInfo &target,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext) {
  if (in.rank() < 2 || target.second <= 1 || target.first >= in.rank() ||
      in.dim(target.first) % target.second != 0 || in.numElements() == 0)
    return in;
  const auto groupings = poputil::detectDimGroupings(graph, in);
  if (!groupings.empty() && groupings[0].first == target.first &&
      groupings[0].second % target.second == 0)
    return in;
  const poputil::GroupingInfo from =
      groupings.empty() ? poputil::GroupingInfo(in.rank() - 1, 1)
                        : groupings[0];
  poplar::ComputeSet unused = graph.addComputeSet({debugContext, "regroup"});
  return regroupTensor(graph, in, prog, unused, from, target, debugContext);
}

} // namespace

Tensor regroupIfBeneficial(poplar::Graph &graph, const Tensor &in,
                           const Tensor &ref, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  if (in.shape() != ref.shape())
    throw poputil::poplibs_error(
        opName(debugContext, "regroupIfBeneficial") + ": tensor '" +
        in.getDebugStr() + "' " + shapeString(in.shape()) +
        " and reference '" + ref.getDebugStr() + "' " +
        shapeString(ref.shape()) + " differ in shape");
  if (ref.rank() == 0 || ref.numElements() == 0)
    return in;
  const auto refGroupings = poputil::detectDimGroupings(graph, ref);
  if (refGroupings.empty())
    return in;
  return regroupTowards(graph, in, refGroupings[0], prog, debugContext);
}

Tensor regroupIfBeneficial(poplar::Graph &graph, const Tensor &in,
                           std::size_t preferredGrouping,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  if (in.rank() == 0)
    return in;
  return regroupTowards(
      graph, in,
      poputil::GroupingInfo(in.rank() - 1,
                            static_cast<unsigned>(preferredGrouping)),
      prog, debugContext);
}

} // namespace rearrange
} // namespace popops
