// Moving tensors between the IPUs of a multi-IPU graph: clones that keep
// each element's tile number within its IPU, and the copies to them.
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <set>
#include <utility>

namespace poputil {
namespace {

void checkIpu(const poplar::Graph &graph, unsigned ipu, const char *fn) {
  const unsigned numIPUs = graph.getTarget().getNumIPUs();
  if (ipu >= numIPUs)
    throw poplibs_error(std::string(fn) + ": IPU " + std::to_string(ipu) +
                        " does not exist (the graph has " +
                        std::to_string(numIPUs) + ")");
}

// Whether two tiles lie on different IPUs, for each pair of neighbouring
// elements of a row: shared with dimIsSplitOverTiles' walk over rows.
template <class SameOwner>
bool dimIsSplit(const poplar::Graph &graph, const poplar::Tensor &t,
                unsigned dimension, const char *fn, SameOwner owner) {
  if (dimension >= t.rank())
    throw poplibs_error(std::string(fn) + ": tensor '" + t.getDebugStr() +
                        "' has no dimension " + std::to_string(dimension));
  const std::size_t rowLength = t.dim(dimension);
  if (rowLength <= 1 || t.numElements() == 0)
    return false;
  const poplar::Tensor rows = t.dimRoll(dimension, t.rank() - 1)
                                  .reshape({t.numElements() / rowLength, rowLength});
  const auto mapping = graph.getTileMapping(rows);
  std::vector<long> ownerOfRow(rows.dim(0), -1);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      for (std::size_t e = interval.begin(); e != interval.end(); ++e) {
        long &o = ownerOfRow[e / rowLength];
        const long mine = owner(tile);
        if (o != -1 && o != mine)
          return true;
        o = mine;
      }
  return false;
}

} // namespace

poplar::Tensor cloneToIpu(poplar::Graph &graph, const poplar::Tensor &t,
                          unsigned dstIPU,
                          const poplar::DebugContext &debugContext,
                          poplar::TensorCloneMethod method) {
  checkIpu(graph, dstIPU, "cloneToIpu");
  poplar::Tensor clone = graph.clone(t, debugContext, method);
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  const auto mapping = graph.getTileMapping(clone);
  poplar::Graph::TileToTensorMapping moved(graph.getTarget().getNumTiles());
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      moved[dstIPU * perIpu + tile % perIpu].push_back(interval);
  graph.setTileMapping(clone, moved);
  return clone;
}

poplar::Tensor cloneToGraph(poplar::Graph &srcGraph, poplar::Graph &dstGraph,
                            const poplar::Tensor &t,
                            const poplar::DebugContext &debugContext,
                            poplar::TensorCloneMethod method) {
  const auto mapping = srcGraph.getTileMapping(t);
  std::size_t highest = 0;
  for (std::size_t tile = 0; tile != mapping.size(); ++tile)
    if (!mapping[tile].empty())
      highest = tile;
  const unsigned dstTiles = dstGraph.getTarget().getNumTiles();
  if (highest >= dstTiles)
    throw poplibs_error("cloneToGraph: tensor '" + t.getDebugStr() +
                        "' is mapped up to tile " + std::to_string(highest) +
                        " but the destination graph has " +
                        std::to_string(dstTiles) + " tiles");
  poplar::Tensor clone = dstGraph.clone(t, debugContext, method);
  // The clone has t's shape: element i goes where t's element i is.
  poplar::Graph::TileToTensorMapping moved(dstTiles);
  for (std::size_t tile = 0; tile <= highest && tile < mapping.size(); ++tile)
    moved[tile] = mapping[tile];
  dstGraph.setTileMapping(clone, moved);
  return clone;
}

poplar::Tensor copyToIpu(poplar::Graph &masterGraph, const poplar::Tensor &t,
                         poplar::program::Sequence &prog, unsigned dstIPU,
                         const poplar::DebugContext &debugContext,
                         poplar::TensorCloneMethod method) {
  poplar::Tensor src, dst;
  poplar::Tensor clone =
      createIpuCopy(masterGraph, t, dstIPU, src, dst, debugContext, method);
  prog.add(poplar::program::Copy(src, dst, false, {debugContext, "copyToIpu"}));
  return clone;
}

poplar::Tensor createIpuCopy(poplar::Graph &graph, const poplar::Tensor &t,
                             unsigned dstIpu, poplar::Tensor &copySrc,
                             poplar::Tensor &copyDst,
                             const poplar::DebugContext &debugContext,
                             poplar::TensorCloneMethod method) {
  poplar::Tensor clone = cloneToIpu(graph, t, dstIpu, debugContext, method);
  if (!clone.containsAliases()) {
    copySrc = t;
    copyDst = clone;
    return clone;
  }
  // Each element of the clone is written once: keep the flattened
  // positions where an element of the clone first appears.
  const poplar::Tensor flatSrc = t.flatten(), flatDst = clone.flatten();
  std::set<std::pair<unsigned, std::size_t>> seen;
  std::vector<poplar::Tensor> srcParts, dstParts;
  std::size_t position = 0, runStart = 0;
  bool inRun = false;
  auto close = [&](std::size_t end) {
    if (inRun && end > runStart) {
      srcParts.push_back(flatSrc.slice(runStart, end));
      dstParts.push_back(flatDst.slice(runStart, end));
    }
    inRun = false;
  };
  for (const auto &region : flatDst.getVarRegions()) {
    for (std::size_t e = region.interval.begin(); e != region.interval.end();
         ++e, ++position) {
      const bool first = seen.emplace(region.var.getId(), e).second;
      if (first && !inRun) {
        runStart = position;
        inRun = true;
      } else if (!first) {
        close(position);
      }
    }
  }
  close(position);
  copySrc = poplar::concat(srcParts);
  copyDst = poplar::concat(dstParts);
  return clone;
}

bool dimIsSplitOverIPUs(const poplar::Graph &graph, const poplar::Tensor &t,
                        unsigned dimension) {
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  return dimIsSplit(graph, t, dimension, "dimIsSplitOverIPUs",
                    [&](unsigned tile) { return long(tile / perIpu); });
}

} // namespace poputil
