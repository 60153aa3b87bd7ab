// The traffic of a compute set: the storage ranges its vertices' edges
// read and write, gathered per tile, merged, and split by the tiles that
// hold them into the bytes exchanged before and after the compute.
#include "model/ComputeSetTraffic.hpp"

#include "core/TypeInfo.hpp"
#include "graph/GraphImpl.hpp"

#include <poplar/detail/CodeletInterface.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace poplar::model {
namespace {

// 24 bytes: a large compute set has millions.
struct NeededRange {
  unsigned tile;
  unsigned var;
  std::size_t begin;
  std::size_t end;
  bool operator<(const NeededRange &o) const {
    return std::tie(tile, var, begin) < std::tie(o.tile, o.var, o.begin);
  }
};

} // namespace

// Working memory of computeSetTraffic, kept from one compute set to the
// next on a thread: the range lists of a large compute set run to tens of
// megabytes, which would otherwise be allocated, faulted in and given back
// to the system for each compute set.
struct TrafficScratch::Buffers {
  std::vector<NeededRange> reads, writes, sent;
  std::vector<NeededRange> byTile;    // merge(): the ranges in tile order
  std::vector<std::size_t> tileStart; // merge(): where each tile starts
  std::vector<StorageInterval> intervals;
};

TrafficScratch::TrafficScratch() : buffers(std::make_unique<Buffers>()) {}
TrafficScratch::~TrafficScratch() = default;

namespace {

using Buffers = TrafficScratch::Buffers;

// Appends r to ranges, or widens one of the last few ranges of its tile and
// variable that it overlaps or touches: the edges of neighbouring vertices
// (a[i], a[i + 1]) are often neighbouring elements, and merge() would join
// them anyway, so the lists stay short without changing what they cover.
void addRange(std::vector<NeededRange> &ranges, const NeededRange &r) {
  constexpr std::size_t lookBack = 16;
  const std::size_t n = ranges.size();
  for (std::size_t i = n; i != 0 && i + lookBack != n; --i) {
    NeededRange &x = ranges[i - 1];
    if (x.tile == r.tile && x.var == r.var && r.begin <= x.end &&
        x.begin <= r.end) {
      x.begin = std::min(x.begin, r.begin);
      x.end = std::max(x.end, r.end);
      return;
    }
  }
  ranges.push_back(r);
}

// Merges overlapping ranges of the same tile and variable, in order of
// tile, variable and start, in place. The ranges are put in tile order
// first (counting sort) and each tile's sorted apart: most tiles have few.
void merge(std::vector<NeededRange> &ranges, Buffers &scratch) {
  std::vector<std::size_t> &first = scratch.tileStart;
  first.clear();
  for (const auto &r : ranges) {
    if (std::size_t(r.tile) + 2 > first.size())
      first.resize(std::size_t(r.tile) + 2, 0);
    ++first[r.tile + 1];
  }
  for (std::size_t t = 1; t < first.size(); ++t)
    first[t] += first[t - 1];
  std::vector<NeededRange> &byTile = scratch.byTile;
  byTile.resize(ranges.size());
  for (const auto &r : ranges)
    byTile[first[r.tile]++] = r;
  // first[t] is now where tile t's ranges end, so where tile t + 1's start.
  // Within a tile, by variable and start.
  auto before = [](const NeededRange &a, const NeededRange &b) {
    return a.var != b.var ? a.var < b.var : a.begin < b.begin;
  };
  std::size_t from = 0;
  for (std::size_t t = 0; t + 1 < first.size(); ++t) {
    const auto begin = byTile.begin() + std::ptrdiff_t(from);
    const auto end = byTile.begin() + std::ptrdiff_t(first[t]);
    if (!std::is_sorted(begin, end, before))
      std::sort(begin, end, before);
    from = first[t];
  }
  ranges.clear();
  for (const auto &r : byTile) {
    if (!ranges.empty() && ranges.back().tile == r.tile &&
        ranges.back().var == r.var && r.begin <= ranges.back().end)
      ranges.back().end = std::max(ranges.back().end, r.end);
    else
      ranges.push_back(r);
  }
}

// The storage ranges of tile ranges, whatever their tiles: sorted by
// variable and start, overlapping ones merged.
std::vector<StorageInterval> storageIntervals(const std::vector<NeededRange> &ranges,
                                              Buffers &scratch) {
  std::vector<StorageInterval> &sorted = scratch.intervals;
  sorted.clear();
  for (const auto &r : ranges)
    sorted.push_back({r.var, r.begin, r.end});
  auto before = [](const StorageInterval &a, const StorageInterval &b) {
    return a.var != b.var ? a.var < b.var : a.begin < b.begin;
  };
  if (!std::is_sorted(sorted.begin(), sorted.end(), before))
    std::sort(sorted.begin(), sorted.end(), before);
  // Merged in place, then copied out at their size: the compute set's
  // intervals are kept for the liveness analysis.
  std::size_t n = 0;
  for (const auto &r : sorted) {
    if (n != 0 && sorted[n - 1].var == r.var && r.begin <= sorted[n - 1].end)
      sorted[n - 1].end = std::max(sorted[n - 1].end, r.end);
    else
      sorted[n++] = r;
  }
  return {sorted.begin(), sorted.begin() + std::ptrdiff_t(n)};
}

// Totals per tile, kept in an array indexed by tile while they are added
// up, then handed over as a map of the tiles that were touched.
template <class T> class TileTable {
public:
  T &operator[](unsigned tile) {
    if (tile >= values.size()) {
      values.resize(std::size_t(tile) + 1);
      seen.resize(std::size_t(tile) + 1, false);
    }
    seen[tile] = true;
    return values[tile];
  }
  std::map<unsigned, T> toMap() const {
    std::map<unsigned, T> out;
    for (unsigned t = 0; t != values.size(); ++t)
      if (seen[t])
        out.emplace_hint(out.end(), t, values[t]);
    return out;
  }

private:
  std::vector<T> values;
  std::vector<bool> seen;
};

class TrafficModeller {
public:
  TrafficModeller(const Graph::Impl &graph, const Executable::Impl &exe,
                  const std::vector<FlatTileMapping> &mappings)
      : graph(graph), exe(exe), mappings(mappings), target(exe.target) {}

  // The exchanges of the edges a compute set's vertices connect to data on
  // other tiles, what it reads and writes, and its vertices' buffers.
  // Reads only the graph and the plan: compute sets are worked out side
  // by side.
  ComputeSetTraffic of(unsigned cs, Buffers &scratch) const {
    ComputeSetTraffic result;
    const ComputeSetInfo &info = graph.computeSets[cs];
    std::vector<NeededRange> &reads = scratch.reads, &writes = scratch.writes;
    reads.clear();
    writes.clear();
    PhaseBuffers &buffers = result.buffers;
    buffers.computeSet = cs;
    TileTable<std::array<std::uint64_t, 3>> bufferBytes;
    const auto &plan = exe.computeSets[cs];
    // Inputs are read, outputs written, in/out fields both.
    auto isRead = [](const codelet_interface::FieldInfo &fi) {
      return fi.kind != codelet_interface::FieldKind::Output;
    };
    auto isWritten = [](const codelet_interface::FieldInfo &fi) {
      return fi.kind != codelet_interface::FieldKind::Input;
    };
    std::size_t numReads = 0, numWrites = 0;
    for (std::size_t i = 0; i != info.vertices.size(); ++i) {
      const VertexData &v = graph.vertices[info.vertices[i]];
      const auto &typeInfo = *graph.vertexTypes[v.type].info;
      for (std::size_t f = 0; f != v.numFields; ++f) {
        const auto &fi = typeInfo.fields[f];
        if (fi.kind == codelet_interface::FieldKind::State)
          continue;
        std::size_t n = 0;
        for (const auto &region :
             plan.regionsOf(plan.fieldsOf(plan.vertices[i])[f]))
          n += plan.numStorageRanges(region);
        numReads += isRead(fi) ? n : 0;
        numWrites += isWritten(fi) ? n : 0;
      }
    }
    reads.reserve(numReads);
    writes.reserve(numWrites);
    for (std::size_t i = 0; i != info.vertices.size(); ++i) {
      const VertexData &v = graph.vertices[info.vertices[i]];
      const auto &typeInfo = *graph.vertexTypes[v.type].info;
      const unsigned tile = v.tile == TileMapping::NoTile ? 0 : v.tile;
      for (std::size_t f = 0; f != v.numFields; ++f) {
        const auto &fi = typeInfo.fields[f];
        if (fi.kind == codelet_interface::FieldKind::State)
          continue;
        const bool in = isRead(fi);
        const bool out = isWritten(fi);
        for (const auto &region :
             plan.regionsOf(plan.fieldsOf(plan.vertices[i])[f])) {
          plan.forEachStorageRange(region, [&](const layout::StorageRange &r) {
            const auto var = static_cast<unsigned>(r.var);
            if (in)
              addRange(reads, {tile, var, r.begin, r.end});
            if (out)
              addRange(writes, {tile, var, r.begin, r.end});
          });
          // Edges not contiguous in storage are gathered into a buffer.
          if (!region.direct())
            bufferBytes[tile][2] +=
                region.numElements * typeSize(graph.vertexTypes[v.type].fieldTypes[f]);
        }
      }
    }
    Traffic &pre = result.pre, &post = result.post;
    merge(reads, scratch);
    merge(writes, scratch);
    const std::vector<NeededRange> &needed = reads;
    result.access.reads = storageIntervals(needed, scratch);
    result.access.writes = storageIntervals(writes, scratch);
    addSharedReceives(needed, pre);
    std::vector<NeededRange> &sent = scratch.sent; // by source tile
    sent.clear();
    for (const auto &r : needed) {
      const std::size_t bytes = typeSize(graph.variables[r.var].type);
      mappings[r.var].forEach(r.begin, r.end, [&](std::size_t b, std::size_t e, unsigned src) {
        if (src != r.tile && src != TileMapping::NoTile) {
          pre.add(src, r.tile, (e - b) * bytes);
          bufferBytes[r.tile][0] += (e - b) * bytes;
          sent.push_back({src, r.var, b, e});
        }
      });
    }
    // Data read by several tiles is broadcast: it leaves its tile once.
    TileTable<std::uint64_t> sentOnce;
    merge(sent, scratch);
    for (const auto &r : sent)
      sentOnce[r.tile] += (r.end - r.begin) * typeSize(graph.variables[r.var].type);
    for (const auto &[tile, bytes] : sentOnce.toMap())
      pre.setBroadcastSend(tile, bytes);
    for (const auto &w : writes) {
      const std::size_t bytes = typeSize(graph.variables[w.var].type);
      mappings[w.var].forEach(w.begin, w.end, [&](std::size_t b, std::size_t e, unsigned dst) {
        if (dst != w.tile && dst != TileMapping::NoTile) {
          post.add(w.tile, dst, (e - b) * bytes);
          bufferBytes[w.tile][1] += (e - b) * bytes;
        }
      });
    }
    buffers.perTile = bufferBytes.toMap();
    return result;
  }

private:
  // Records, for each tile, the bytes of `needed` (merged, sorted) it
  // receives that every other tile of its supertile receives too: the
  // same elements, from a tile outside the supertile on the same IPU.
  void addSharedReceives(const std::vector<NeededRange> &needed, Traffic &pre) const {
    const unsigned size = target.getTilesPerSuperTile();
    if (!target.getSupportsSuperTileSendReceive() || size < 2)
      return;
    // Each tile's ranges are a span of `needed`, sorted by variable and
    // start; spans are in tile order.
    struct Span {
      unsigned tile;
      std::size_t begin, end;
    };
    std::vector<Span> spans;
    for (std::size_t i = 0; i != needed.size();) {
      std::size_t j = i + 1;
      while (j != needed.size() && needed[j].tile == needed[i].tile)
        ++j;
      spans.push_back({needed[i].tile, i, j});
      i = j;
    }
    // The ranges of `var` in a span.
    auto rangesOf = [&](const Span &span, std::size_t var) {
      const auto first = needed.begin() + std::ptrdiff_t(span.begin);
      const auto last = needed.begin() + std::ptrdiff_t(span.end);
      const auto lo = std::lower_bound(
          first, last, var, [](const NeededRange &r, std::size_t v) { return r.var < v; });
      const auto hi = std::upper_bound(
          lo, last, var, [](std::size_t v, const NeededRange &r) { return v < r.var; });
      return std::make_pair(lo, hi);
    };
    const unsigned perIpu = target.getTilesPerIPU();
    Ranges common, next;
    for (std::size_t s = 0; s != spans.size(); ++s) {
      const unsigned first = spans[s].tile;
      const unsigned ipuBase = first / perIpu * perIpu;
      if ((first - ipuBase) % size != 0)
        continue; // each supertile once, from its first tile
      // The other tiles of the supertile, each with ranges, are the spans
      // that follow.
      std::size_t members = 1;
      for (unsigned t = first + 1; t != first + size; ++t, ++members)
        if (s + members == spans.size() || spans[s + members].tile != t ||
            t >= ipuBase + perIpu)
          break;
      if (members != size)
        continue;
      std::uint64_t shared = 0;
      for (std::size_t i = spans[s].begin; i != spans[s].end;) {
        const std::size_t var = needed[i].var;
        common.clear();
        for (; i != spans[s].end && needed[i].var == var; ++i)
          common.push_back({needed[i].begin, needed[i].end});
        for (std::size_t m = 1; m != members && !common.empty(); ++m) {
          const auto [lo, hi] = rangesOf(spans[s + m], var);
          intersect(common, lo, hi, next);
          std::swap(common, next);
        }
        const std::size_t bytes = typeSize(graph.variables[var].type);
        const FlatTileMapping &mapping = mappings[var];
        for (const auto &[b, e] : common)
          mapping.forEach(b, e, [&](std::size_t pb, std::size_t pe, unsigned src) {
            if (src != TileMapping::NoTile && (src < first || src >= first + size) &&
                src / perIpu == first / perIpu)
              shared += (pe - pb) * bytes;
          });
      }
      for (unsigned t = first; t != first + size; ++t)
        pre.addSharedReceive(t, shared);
    }
  }

  using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;

  // The intersection of sorted disjoint ranges a and the ranges [lo, hi)
  // of `needed` (sorted, disjoint), in `out`.
  static void intersect(const Ranges &a,
                        std::vector<NeededRange>::const_iterator lo,
                        std::vector<NeededRange>::const_iterator hi, Ranges &out) {
    out.clear();
    std::size_t i = 0;
    while (i != a.size() && lo != hi) {
      const std::size_t begin = std::max(a[i].first, lo->begin);
      const std::size_t end = std::min(a[i].second, lo->end);
      if (begin < end)
        out.push_back({begin, end});
      if (a[i].second < lo->end)
        ++i;
      else
        ++lo;
    }
  }

  const Graph::Impl &graph;
  const Executable::Impl &exe;
  const std::vector<FlatTileMapping> &mappings;
  const Target &target;
};

} // namespace

ComputeSetTraffic computeSetTraffic(const Graph::Impl &graph,
                                    const Executable::Impl &exe,
                                    const std::vector<FlatTileMapping> &mappings,
                                    unsigned cs, TrafficScratch &scratch) {
  return TrafficModeller(graph, exe, mappings).of(cs, *scratch.buffers);
}

} // namespace poplar::model
