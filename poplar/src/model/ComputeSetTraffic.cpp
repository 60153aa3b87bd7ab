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

struct NeededRange {
  unsigned tile;
  std::size_t var;
  std::size_t begin;
  std::size_t end;
  bool operator<(const NeededRange &o) const {
    return std::tie(tile, var, begin) < std::tie(o.tile, o.var, o.begin);
  }
};

// Merges overlapping ranges of the same tile and variable, in order of
// tile, variable and start. The ranges are put in tile order first
// (counting sort) and each tile's sorted apart: most tiles have few.
std::vector<NeededRange> merged(std::vector<NeededRange> ranges) {
  std::vector<std::size_t> first;
  for (const auto &r : ranges) {
    if (std::size_t(r.tile) + 2 > first.size())
      first.resize(std::size_t(r.tile) + 2, 0);
    ++first[r.tile + 1];
  }
  for (std::size_t t = 1; t < first.size(); ++t)
    first[t] += first[t - 1];
  std::vector<NeededRange> byTile(ranges.size());
  {
    std::vector<std::size_t> next = first;
    for (const auto &r : ranges)
      byTile[next[r.tile]++] = r;
  }
  // Within a tile, by variable and start.
  auto before = [](const NeededRange &a, const NeededRange &b) {
    return a.var != b.var ? a.var < b.var : a.begin < b.begin;
  };
  for (std::size_t t = 0; t + 1 < first.size(); ++t) {
    const auto from = byTile.begin() + std::ptrdiff_t(first[t]);
    const auto to = byTile.begin() + std::ptrdiff_t(first[t + 1]);
    if (!std::is_sorted(from, to, before))
      std::sort(from, to, before);
  }
  std::vector<NeededRange> out;
  for (const auto &r : byTile) {
    if (!out.empty() && out.back().tile == r.tile && out.back().var == r.var &&
        r.begin <= out.back().end)
      out.back().end = std::max(out.back().end, r.end);
    else
      out.push_back(r);
  }
  return out;
}

// The storage ranges of tile ranges, whatever their tiles: sorted by
// variable and start, overlapping ones merged.
std::vector<StorageInterval> storageIntervals(const std::vector<NeededRange> &ranges) {
  std::vector<StorageInterval> sorted;
  sorted.reserve(ranges.size());
  for (const auto &r : ranges)
    sorted.push_back({r.var, r.begin, r.end});
  auto before = [](const StorageInterval &a, const StorageInterval &b) {
    return a.var != b.var ? a.var < b.var : a.begin < b.begin;
  };
  if (!std::is_sorted(sorted.begin(), sorted.end(), before))
    std::sort(sorted.begin(), sorted.end(), before);
  std::vector<StorageInterval> out;
  for (const auto &r : sorted) {
    if (!out.empty() && out.back().var == r.var && r.begin <= out.back().end)
      out.back().end = std::max(out.back().end, r.end);
    else
      out.push_back(r);
  }
  return out;
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
  ComputeSetTraffic of(unsigned cs) const {
    ComputeSetTraffic result;
    const ComputeSetInfo &info = graph.computeSets[cs];
    std::vector<NeededRange> reads, writes;
    PhaseBuffers &buffers = result.buffers;
    buffers.computeSet = cs;
    TileTable<std::array<std::uint64_t, 3>> bufferBytes;
    const auto &plan = exe.computeSets[cs];
    std::size_t numRanges = 0;
    for (const auto &vertex : plan.vertices)
      for (const auto &field : vertex.fields)
        for (const auto &region : field.regions)
          numRanges += region.storage.size();
    reads.reserve(numRanges);
    writes.reserve(numRanges);
    for (std::size_t i = 0; i != info.vertices.size(); ++i) {
      const VertexData &v = graph.vertices[info.vertices[i]];
      const auto &typeInfo = *graph.vertexTypes[v.type].info;
      const unsigned tile = v.tile == TileMapping::NoTile ? 0 : v.tile;
      for (std::size_t f = 0; f != v.fields.size(); ++f) {
        const auto &fi = typeInfo.fields[f];
        if (fi.kind == codelet_interface::FieldKind::State)
          continue;
        const bool in = fi.kind != codelet_interface::FieldKind::Output;
        const bool out = fi.kind != codelet_interface::FieldKind::Input;
        for (const auto &region : plan.vertices[i].fields[f].regions) {
          for (const auto &r : region.storage) {
            if (in)
              reads.push_back({tile, r.var, r.begin, r.end});
            if (out)
              writes.push_back({tile, r.var, r.begin, r.end});
          }
          // Edges not contiguous in storage are gathered into a buffer.
          if (!region.direct)
            bufferBytes[tile][2] +=
                region.numElements * typeSize(graph.vertexTypes[v.type].fieldTypes[f]);
        }
      }
    }
    Traffic &pre = result.pre, &post = result.post;
    const std::vector<NeededRange> needed = merged(std::move(reads));
    writes = merged(std::move(writes));
    result.access.reads = storageIntervals(needed);
    result.access.writes = storageIntervals(writes);
    addSharedReceives(needed, pre);
    std::vector<NeededRange> sent; // by source tile
    sent.reserve(needed.size());
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
    for (const auto &r : merged(std::move(sent)))
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
                                    unsigned cs) {
  return TrafficModeller(graph, exe, mappings).of(cs);
}

} // namespace poplar::model
