#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Target.hpp>

#include <algorithm>

namespace poputil {

void mergeAdjacentRegions(std::vector<poplar::Interval> &regions) {
  std::vector<poplar::Interval> merged;
  for (const auto &r : regions) {
    if (r.size() == 0)
      continue;
    if (!merged.empty() && merged.back().end() == r.begin())
      merged.back() = poplar::Interval(merged.back().begin(), r.end());
    else
      merged.push_back(r);
  }
  regions = std::move(merged);
}

void mergeAdjacentRegions(std::vector<std::vector<poplar::Interval>> &mapping) {
  for (auto &regions : mapping)
    mergeAdjacentRegions(regions);
}

std::vector<poplar::Interval>
flattenIntervals(const std::vector<std::vector<poplar::Interval>> &intervals) {
  std::vector<poplar::Interval> flat;
  for (const auto &list : intervals)
    flat.insert(flat.end(), list.begin(), list.end());
  return flat;
}

std::vector<std::vector<poplar::Interval>>
splitRegions(const std::vector<poplar::Interval> &regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition,
             unsigned maxElementsPerPartition, unsigned maxElementsPerRegion) {
  if (grainSize == 0 || maxPartitions == 0)
    throw poplibs_error("splitRegions: grainSize and maxPartitions must be "
                        "positive");
  std::size_t total = 0;
  for (const auto &r : regions)
    total += r.size();
  if (total == 0)
    return {};
  const std::size_t grains = (total + grainSize - 1) / grainSize;
  // Grains per partition: even over maxPartitions, raised to the minimum
  // and capped by the maximum (which may then need more partitions).
  std::size_t perPartition = (grains + maxPartitions - 1) / maxPartitions;
  perPartition = std::max<std::size_t>(
      perPartition, (minElementsPerPartition + grainSize - 1) / grainSize);
  perPartition = std::min<std::size_t>(
      perPartition, std::max<std::size_t>(1, maxElementsPerPartition / grainSize));
  const std::size_t elementsPerPartition = perPartition * grainSize;
  const std::size_t regionCap =
      std::max<std::size_t>(grainSize, maxElementsPerRegion / grainSize * grainSize);

  std::vector<std::vector<poplar::Interval>> partitions(1);
  std::size_t inPartition = 0;
  for (const auto &r : regions) {
    std::size_t begin = r.begin();
    while (begin < r.end()) {
      if (inPartition == elementsPerPartition) {
        partitions.emplace_back();
        inPartition = 0;
      }
      const std::size_t take = std::min(
          {r.end() - begin, elementsPerPartition - inPartition, regionCap});
      partitions.back().emplace_back(begin, begin + take);
      inPartition += take;
      begin += take;
    }
  }
  return partitions;
}

std::vector<std::vector<poplar::Interval>>
splitRegionsBetweenWorkers(const poplar::Target &target,
                           const std::vector<poplar::Interval> &regions,
                           unsigned grainSize, unsigned minElementsPerPartition,
                           unsigned maxElementsPerPartition,
                           unsigned maxElementsPerRegion) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(),
                      minElementsPerPartition, maxElementsPerPartition,
                      maxElementsPerRegion);
}

std::vector<std::size_t> unflattenIndex(const std::vector<std::size_t> &shape,
                                        std::size_t index) {
  std::vector<std::size_t> indices(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0)
      throw poplibs_error("unflattenIndex: the shape has a zero dimension");
    indices[d] = index % shape[d];
    index /= shape[d];
  }
  if (index != 0)
    throw poplibs_error("unflattenIndex: the index is beyond the shape");
  return indices;
}

std::size_t flattenIndex(const std::vector<std::size_t> &shape,
                         const std::vector<std::size_t> &indices) {
  if (shape.size() != indices.size())
    throw poplibs_error("flattenIndex: " + std::to_string(indices.size()) +
                        " indices for a shape of rank " +
                        std::to_string(shape.size()));
  std::size_t index = 0;
  for (std::size_t d = 0; d != shape.size(); ++d) {
    if (indices[d] >= shape[d])
      throw poplibs_error("flattenIndex: index " + std::to_string(indices[d]) +
                          " is out of range for dimension " +
                          std::to_string(d) + " of size " +
                          std::to_string(shape[d]));
    index = index * shape[d] + indices[d];
  }
  return index;
}

poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &in,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext,
                         poplar::TensorCloneMethod method) {
  poplar::Tensor out = graph.clone(in, debugContext, method);
  prog.add(poplar::program::Copy(in, out));
  return out;
}

poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t,
                      unsigned N, const poplar::DebugContext &debugContext,
                      poplar::TensorCloneMethod method) {
  std::vector<poplar::Tensor> clones;
  for (unsigned i = 0; i != N; ++i)
    clones.push_back(graph.clone(t, debugContext, method).expand({0}));
  if (clones.empty()) {
    auto shape = t.shape();
    shape.insert(shape.begin(), 0);
    return graph.addVariable(t.elementType(), shape, debugContext);
  }
  return poplar::concat(clones, 0);
}

double castToDeviceHalfValue(const poplar::Target &target, double input) {
  const float f = static_cast<float>(input);
  std::uint16_t bits;
  poplar::copyFloatToDeviceHalf(target, &f, &bits, 1);
  float back;
  poplar::copyDeviceHalfToFloat(target, &bits, &back, 1);
  return back;
}

} // namespace poputil
