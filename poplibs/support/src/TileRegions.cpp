#include <poplibs_support/TileRegions.hpp>

#include <poplar/TargetType.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

using namespace poplar;

namespace poplibs_support {
namespace {

// The intervals cut where a region of `contiguous` (a sorted partition of
// the flattened elements) ends.
std::vector<Interval> cutAt(const std::vector<Interval> &contiguous,
                            const std::vector<Interval> &intervals) {
  std::vector<Interval> cut;
  for (const auto &iv : intervals) {
    auto it = std::upper_bound(
        contiguous.begin(), contiguous.end(), iv.begin(),
        [](std::size_t x, const Interval &r) { return x < r.begin(); });
    if (it != contiguous.begin())
      --it;
    std::size_t begin = iv.begin();
    for (; it != contiguous.end() && begin < iv.end(); ++it) {
      const std::size_t end = std::min(iv.end(), it->end());
      if (end > begin) {
        cut.emplace_back(begin, end);
        begin = end;
      }
    }
  }
  return cut;
}

} // namespace

std::vector<Interval>
splitAtDiscontinuities(const Tensor &t,
                       const std::vector<Interval> &intervals) {
  const std::vector<Interval> contiguous = t.getContiguousRegions();
  if (contiguous.size() <= 1)
    return intervals;
  return cutAt(contiguous, intervals);
}

Graph::TileToTensorMapping tileContiguousRegions(const Graph &graph,
                                                 const Tensor &t,
                                                 const std::string &opName) {
  bool complete = true;
  auto mapping = graph.getTileMapping(t, &complete);
  const std::size_t n = t.numElements();
  if (!complete) {
    if (graph.getTarget().getTargetType() != TargetType::CPU)
      throw poputil::poplibs_error(
          opName + ": tensor '" + t.getDebugStr() +
          "' has elements without a tile mapping (map it with "
          "Graph::setTileMapping before using it)");
    // The CPU has one tile: what is not mapped is on it too.
    std::vector<Interval> all{Interval(0, n)};
    mapping.assign(mapping.size(), {});
    if (mapping.empty())
      mapping.resize(1);
    mapping[0] = std::move(all);
    if (n == 0)
      mapping[0].clear();
  }

  const std::vector<Interval> contiguous = t.getContiguousRegions();
  if (contiguous.size() <= 1)
    return mapping; // one run of storage: the mapping's intervals are it
  for (auto &intervals : mapping)
    intervals = cutAt(contiguous, intervals);
  return mapping;
}

std::vector<std::vector<Interval>>
groupRegions(const std::vector<Interval> &regions, std::size_t maxElements) {
  std::vector<std::vector<Interval>> groups;
  std::size_t inGroup = maxElements; // start a group at the first region
  for (const auto &r : regions) {
    std::size_t begin = r.begin();
    while (begin < r.end()) {
      if (inGroup == maxElements) {
        groups.emplace_back();
        inGroup = 0;
      }
      const std::size_t take = std::min(r.end() - begin, maxElements - inGroup);
      groups.back().emplace_back(begin, begin + take);
      inGroup += take;
      begin += take;
    }
  }
  return groups;
}

void forEachVertexGroup(
    const Graph &graph, const Tensor &out, const std::string &opName,
    const std::function<void(unsigned, const std::vector<Interval> &)> &fn) {
  if (out.numElements() == 0)
    return;
  const auto mapping = tileContiguousRegions(graph, out, opName);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &group : groupRegions(mapping[tile], maxElementsPerVertex))
      fn(tile, group);
}

std::vector<Tensor> regionSlices(const Tensor &flat,
                                 const std::vector<Interval> &regions) {
  std::vector<Tensor> slices;
  slices.reserve(regions.size());
  for (const auto &r : regions)
    slices.push_back(flat.slice(r.begin(), r.end()));
  return slices;
}

std::vector<std::size_t> regionSizes(const std::vector<Interval> &regions) {
  std::vector<std::size_t> sizes;
  sizes.reserve(regions.size());
  for (const auto &r : regions)
    sizes.push_back(r.size());
  return sizes;
}

} // namespace poplibs_support
