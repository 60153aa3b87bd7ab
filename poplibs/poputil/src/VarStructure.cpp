// Groupings are found by viewing the tensor with a candidate block (a run
// along one dimension times the blocks already found) innermost and
// checking that no storage or tile boundary falls inside a block.
#include <poputil/VarStructure.hpp>

#include <poputil/exceptions.hpp>

#include <numeric>

namespace poputil {
namespace {

using poplar::Tensor;

// Whether the flattened `flat` splits into blocks of `block` elements each
// within one contiguous storage region and one tile.
bool blocksContiguous(const poplar::Graph &graph, const Tensor &flat,
                      std::size_t block) {
  std::size_t at = 0;
  for (const auto &r : flat.getVarRegions()) {
    if (at % block != 0)
      return false;
    at += r.interval.size();
  }
  bool complete = false;
  const auto mapping = graph.getTileMapping(flat, &complete);
  if (!complete)
    return true; // unmapped (the CPU target): storage alone decides
  for (const auto &tile : mapping)
    for (const auto &i : tile)
      if (i.begin() % block != 0 || i.end() % block != 0)
        return false;
  return true;
}

// `cur` with dimension e split into (dim / h, h) and the h part moved just
// before the last `atomDims` dimensions.
Tensor splitInto(const Tensor &cur, unsigned e, std::size_t h,
                 unsigned atomDims) {
  const Tensor split = cur.reshapePartial(e, e + 1, {cur.dim(e) / h, h});
  return split.dimRoll(e + 1, split.rank() - 1 - atomDims);
}

// The largest h > 1 dividing cur.dim(e) whose runs along e, times the
// `atom` trailing elements, are contiguous; 0 if none.
std::size_t groupingOf(const poplar::Graph &graph, const Tensor &cur,
                       unsigned e, unsigned atomDims, std::size_t atom) {
  const std::size_t n = cur.dim(e);
  for (std::size_t h = n; h > 1; --h) {
    if (n % h != 0)
      continue;
    if (blocksContiguous(graph, splitInto(cur, e, h, atomDims).flatten(),
                         h * atom))
      return h;
  }
  return 0;
}

void checkRank(const Tensor &t, const char *fn) {
  if (t.rank() == 0)
    throw poplibs_error(std::string("poputil::") + fn + ": tensor '" +
                        t.getDebugStr() + "' is a scalar");
}

} // namespace

unsigned detectInnermostGrouping(const poplar::Graph &graph, const Tensor &t) {
  checkRank(t, "detectInnermostGrouping");
  if (t.numElements() == 0)
    return 0;
  return static_cast<unsigned>(groupingOf(graph, t, t.rank() - 1, 0, 1));
}

std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph &graph,
                                             const Tensor &t) {
  checkRank(t, "detectDimGroupings");
  std::vector<GroupingInfo> groupings;
  if (t.numElements() == 0)
    return groupings;
  const unsigned rank = t.rank();
  Tensor cur = t;
  unsigned atomDims = 0;
  std::size_t atom = 1;
  for (bool found = true; found;) {
    found = false;
    // The innermost dimensions first: with a layout in storage order only
    // one dimension can continue the blocks found so far.
    for (unsigned e = rank; e-- > 0 && !found;) {
      const std::size_t h = groupingOf(graph, cur, e, atomDims, atom);
      if (h == 0)
        continue;
      groupings.emplace_back(e, static_cast<unsigned>(h));
      cur = splitInto(cur, e, h, atomDims);
      ++atomDims;
      atom *= h;
      found = true;
    }
  }
  return groupings;
}

namespace {

// The [begin, end) of partition p of n elements in `parts` partitions.
std::pair<std::size_t, std::size_t> partition(std::size_t n, std::size_t parts,
                                              std::size_t p) {
  const std::size_t size = (n + parts - 1) / parts;
  return {std::min(n, p * size), std::min(n, (p + 1) * size)};
}

void checkPartitions(const std::vector<std::size_t> &shape,
                     const std::vector<std::size_t> &nPartitions,
                     const char *fn) {
  if (shape.size() != nPartitions.size())
    throw poplibs_error(std::string("poputil::") + fn + ": " +
                        std::to_string(nPartitions.size()) +
                        " partition counts for a rank " +
                        std::to_string(shape.size()) + " tensor");
  for (auto p : nPartitions)
    if (p == 0)
      throw poplibs_error(std::string("poputil::") + fn +
                          ": a dimension has 0 partitions");
}

} // namespace

void iterateTensorPartitions(
    const Tensor &t, const std::vector<std::size_t> &nPartitions,
    const std::function<void(const std::vector<std::size_t> &,
                             const Tensor &)> &f) {
  checkPartitions(t.shape(), nPartitions, "iterateTensorPartitions");
  const std::size_t total =
      std::accumulate(nPartitions.begin(), nPartitions.end(), std::size_t(1),
                      std::multiplies<>());
  std::vector<std::size_t> index(t.rank());
  for (std::size_t k = 0; k != total; ++k) {
    std::size_t rest = k;
    Tensor s = t;
    for (std::size_t d = t.rank(); d-- > 0;) {
      index[d] = rest % nPartitions[d];
      rest /= nPartitions[d];
    }
    for (unsigned d = 0; d != t.rank(); ++d) {
      const auto [b, e] = partition(t.dim(d), nPartitions[d], index[d]);
      s = s.slice(b, e, d);
    }
    f(index, s);
  }
}

Tensor createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &shape,
                                 const std::vector<std::size_t> &nPartitions,
                                 const poplar::DebugContext &debugContext) {
  checkPartitions(shape, nPartitions, "createPartitionableTensor");
  // One variable holding every partition in turn, each partition's
  // elements in row-major order; the result is that variable seen in
  // `shape`, built by concatenating the partitions dimension by dimension.
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  Tensor storage = graph.addVariable(type, {n}, debugContext);
  std::size_t next = 0;
  std::function<Tensor(unsigned, std::vector<std::size_t> &)> build =
      [&](unsigned d, std::vector<std::size_t> &extent) -> Tensor {
    if (d == shape.size()) {
      std::size_t size = 1;
      for (auto x : extent)
        size *= x;
      Tensor part = storage.slice(next, next + size).reshape(extent);
      next += size;
      return part;
    }
    std::vector<Tensor> parts;
    for (std::size_t p = 0; p != nPartitions[d]; ++p) {
      const auto [b, e] = partition(shape[d], nPartitions[d], p);
      if (b == e)
        continue;
      extent[d] = e - b;
      parts.push_back(build(d + 1, extent));
    }
    extent[d] = shape[d];
    if (parts.empty()) { // an empty dimension
      std::vector<std::size_t> empty = extent;
      empty[d] = 0;
      return storage.slice(0, 0).reshape(empty);
    }
    return poplar::concat(parts, d);
  };
  std::vector<std::size_t> extent = shape;
  return build(0, extent);
}

} // namespace poputil
