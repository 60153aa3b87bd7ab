// The graph profile: target, optimizationInfo, graph, vertexTypes,
// computeSets (with cycleEstimates), exchanges, externalExchanges,
// hostExchanges, programs, controlPrograms, functionPrograms and memory,
// as the guide's "Graph profile" section lists them. Per-tile arrays are
// dense (numTiles entries).
#include "profiling/Profiles.hpp"

#include "model/ModelConstants.hpp"

namespace poplar::profiling {
namespace {

using Map = ProfileValue::Map;
using Vector = ProfileValue::Vector;

template <class T> ProfileValue numbers(const std::vector<T> &values) {
  Vector v;
  v.reserve(values.size());
  for (const auto &x : values)
    v.emplace_back(static_cast<double>(x));
  return v;
}

ProfileValue target(const model::Estimates &est) {
  const Target &t = est.target;
  Map m;
  m["type"] = toString(t.getTargetType());
  m["architecture"] = t.getTargetArchString();
  m["bytesPerTile"] = t.getBytesPerTile();
  m["bytesPerIPU"] = t.getBytesPerTile() * t.getTilesPerIPU();
  m["clockFrequency"] = t.getTileClockFrequency();
  m["numIPUs"] = t.getNumIPUs();
  m["tilesPerIPU"] = t.getTilesPerIPU();
  m["numTiles"] = t.getNumTiles();
  m["totalMemory"] = t.getMemoryBytes();
  m["numWorkerContexts"] = t.getNumWorkerContexts();
  m["numReplicas"] = est.replicationFactor;
  m["minSyncDelay"] = t.getMinIPUSyncDelay();
  std::vector<unsigned> relative(t.getTilesPerIPU(), 0);
  if (!t.getRelativeSyncDelayIsZero())
    for (unsigned tile = 0; tile != relative.size(); ++tile)
      relative[tile] = (tile + 1) / model::constants::tilesPerSyncDelayCycle;
  m["relativeSyncDelayByTile"] = numbers(relative);
  return m;
}

ProfileValue computeSets(const model::Estimates &est) {
  const unsigned numTiles = est.target.getNumTiles();
  const std::size_t numTypes = est.vertexTypes.size();
  Vector names, counts, types, active, activeByType, cycles;
  for (const auto &cs : est.computeSets) {
    names.emplace_back(cs.name);
    counts.push_back(numbers(cs.vertexCounts));
    types.push_back(numbers(cs.vertexTypes));
    std::vector<std::uint64_t> a(numTiles, 0), c(numTiles, 0), byType(numTypes, 0);
    for (const auto &t : cs.tiles) {
      a[t.tile] = t.active;
      c[t.tile] = t.cycles;
    }
    for (std::size_t i = 0; i != cs.vertexTypes.size(); ++i)
      byType[cs.vertexTypes[i]] = cs.activeCyclesByType[i];
    active.push_back(numbers(a));
    cycles.push_back(numbers(c));
    activeByType.push_back(numbers(byType));
  }
  Map estimates;
  estimates["activeCyclesByTile"] = std::move(active);
  estimates["activeCyclesByVertexType"] = std::move(activeByType);
  estimates["cyclesByTile"] = std::move(cycles);
  Map m;
  m["names"] = std::move(names);
  m["vertexCounts"] = std::move(counts);
  m["vertexTypes"] = std::move(types);
  m["cycleEstimates"] = std::move(estimates);
  return m;
}

ProfileValue exchanges(const std::vector<model::ExchangeEstimate> &xs,
                       unsigned numTiles, const char *cyclesKey) {
  Vector names, received, sent, cycles;
  for (const auto &x : xs) {
    names.emplace_back(x.name);
    std::vector<std::uint64_t> r(numTiles, 0), s(numTiles, 0), c(numTiles, 0);
    for (const auto &t : x.tiles) {
      r[t.tile] = t.received;
      s[t.tile] = t.sent;
      c[t.tile] = t.cycles;
    }
    received.push_back(numbers(r));
    sent.push_back(numbers(s));
    cycles.push_back(numbers(c));
  }
  Map m;
  m["names"] = std::move(names);
  m["bytesReceivedByTile"] = std::move(received);
  m["bytesSentByTile"] = std::move(sent);
  m[cyclesKey] = std::move(cycles);
  return m;
}

ProfileValue programs(const model::Estimates &est) {
  Vector v;
  v.reserve(est.programs.size());
  for (const auto &p : est.programs) {
    Map m;
    m["type"] = p.type;
    if (!p.name.empty())
      m["name"] = p.name;
    if (!p.children.empty() || p.type == "Sequence")
      m["children"] = numbers(p.children);
    if (p.computeSet >= 0)
      m["computeSet"] = p.computeSet;
    if (p.exchange >= 0)
      m["exchange"] = p.exchange;
    if (p.target >= 0)
      m["target"] = p.target;
    if (p.type == "Repeat")
      m["repeatCount"] = p.count;
    if (!p.syncType.empty())
      m["syncType"] = p.syncType;
    v.emplace_back(std::move(m));
  }
  return v;
}

ProfileValue vertexMemory(
    const std::vector<std::vector<std::pair<unsigned, model::VertexMemory>>> &rows,
    unsigned numTiles) {
  Vector code, copy, desc, edge, pad, data, total;
  for (const auto &row : rows) {
    std::vector<std::uint64_t> c(numTiles, 0), cp(numTiles, 0), d(numTiles, 0),
        e(numTiles, 0), p(numTiles, 0), vd(numTiles, 0), t(numTiles, 0);
    for (const auto &[tile, m] : row) {
      c[tile] = m.code;
      cp[tile] = m.copyPointers;
      d[tile] = m.descriptors;
      e[tile] = m.edgePointers;
      p[tile] = m.padding;
      vd[tile] = m.vertexData;
      t[tile] = m.total();
    }
    code.push_back(numbers(c));
    copy.push_back(numbers(cp));
    desc.push_back(numbers(d));
    edge.push_back(numbers(e));
    pad.push_back(numbers(p));
    data.push_back(numbers(vd));
    total.push_back(numbers(t));
  }
  Map m;
  m["codeBytes"] = std::move(code);
  m["copyPtrBytes"] = std::move(copy);
  m["descriptorBytes"] = std::move(desc);
  m["edgePtrBytes"] = std::move(edge);
  m["paddingBytes"] = std::move(pad);
  m["vertexDataBytes"] = std::move(data);
  m["totalBytes"] = std::move(total);
  return m;
}

// Always-live data by name; every step of the liveness analysis with the
// bytes live in it that are not always live; and the variables that are
// not always live, with the steps they are live in.
ProfileValue liveness(const model::Estimates &est) {
  const auto &r = est.memory;
  Map always;
  for (const auto &[name, bytes] : r.alwaysLive)
    always[name] = bytes;
  Vector steps;
  static const char *bufferNames[3] = {"message", "outputEdge", "rearrangement"};
  for (const auto &step : r.liveSteps) {
    const model::ProgramNode &program = est.programs.at(step.program);
    Map s;
    s["program"] = step.program;
    s["type"] = program.type;
    s["name"] = program.name.empty() ? program.type : program.name;
    s["liveBytes"] = step.bytes();
    if (step.bytes() != step.variableBytes) {
      Map buffers;
      for (unsigned k = 0; k != 3; ++k)
        if (step.bufferBytes[k] != 0)
          buffers[bufferNames[k]] = step.bufferBytes[k];
      s["bufferBytes"] = std::move(buffers);
    }
    steps.emplace_back(std::move(s));
  }
  Vector variables;
  for (const auto &v : r.liveVariables) {
    Map m;
    m["id"] = v.variable;
    m["name"] = v.name;
    m["bytes"] = v.bytes;
    Vector ranges;
    for (const auto &[first, last] : v.ranges)
      ranges.emplace_back(Vector{ProfileValue(first), ProfileValue(last)});
    m["live"] = std::move(ranges);
    variables.emplace_back(std::move(m));
  }
  Map m;
  m["alwaysLive"] = std::move(always);
  m["steps"] = std::move(steps);
  m["notAlwaysLive"] = std::move(variables);
  return m;
}

ProfileValue memory(const model::Estimates &est) {
  const auto &r = est.memory;
  const unsigned numTiles = est.target.getNumTiles();
  using model::MemoryRegion;
  auto reg = [](MemoryRegion x) { return unsigned(x); };
  Map byTile;
  byTile["nonInterleaved"] = numbers(r.byRegion[reg(MemoryRegion::NonInterleaved)]);
  byTile["interleaved"] = numbers(r.byRegion[reg(MemoryRegion::Interleaved)]);
  byTile["overflowed"] = numbers(r.byRegion[reg(MemoryRegion::Overflowed)]);
  byTile["nonInterleavedIncludingGaps"] =
      numbers(r.byRegionIncludingGaps[reg(MemoryRegion::NonInterleaved)]);
  byTile["interleavedIncludingGaps"] =
      numbers(r.byRegionIncludingGaps[reg(MemoryRegion::Interleaved)]);
  byTile["overflowedIncludingGaps"] =
      numbers(r.byRegionIncludingGaps[reg(MemoryRegion::Overflowed)]);
  byTile["total"] = numbers(r.total);
  byTile["totalIncludingGaps"] = numbers(r.totalIncludingGaps);

  Map byCategory;
  static const char *regionNames[3] = {"nonInterleaved", "interleaved", "overflowed"};
  for (unsigned c = 0; c != model::numMemoryCategories; ++c) {
    Map cat;
    std::vector<std::uint64_t> total(numTiles, 0);
    for (unsigned g = 0; g != 3; ++g) {
      Map region;
      region["nonOverlapped"] = numbers(r.nonOverlapped[c][g]);
      region["overlapped"] = numbers(r.overlapped[c][g]);
      for (unsigned t = 0; t != numTiles; ++t)
        total[t] += r.nonOverlapped[c][g][t] + r.overlapped[c][g][t];
      cat[regionNames[g]] = std::move(region);
    }
    cat["total"] = numbers(total);
    byCategory[model::categoryName(model::MemoryCategory(c))] = std::move(cat);
  }

  Map m;
  m["byTile"] = std::move(byTile);
  m["byCategory"] = std::move(byCategory);
  m["byComputeSet"] = vertexMemory(r.byComputeSet, numTiles);
  m["byVertexType"] = vertexMemory(r.byVertexType, numTiles);
  m["liveness"] = liveness(est);
  return m;
}

} // namespace

ProfileValue graphProfile(const model::Estimates &est) {
  const unsigned numTiles = est.target.getNumTiles();
  Map m;
  m["target"] = target(est);
  Map opt;
  for (const auto &[key, value] : est.optimizationInfo)
    opt[key] = value;
  m["optimizationInfo"] = std::move(opt);
  Map graph;
  graph["numComputeSets"] = est.graph.numComputeSets;
  graph["numEdges"] = est.graph.numEdges;
  graph["numVars"] = est.graph.numVars;
  graph["numVertices"] = est.graph.numVertices;
  m["graph"] = std::move(graph);
  Vector names, sizes;
  for (const auto &t : est.vertexTypes) {
    names.emplace_back(t.name);
    sizes.emplace_back(static_cast<double>(t.stateBytes));
  }
  Map types;
  types["names"] = std::move(names);
  types["sizes"] = std::move(sizes);
  m["vertexTypes"] = std::move(types);
  m["computeSets"] = computeSets(est);
  m["exchanges"] = exchanges(est.exchanges, numTiles, "cyclesByTile");
  m["externalExchanges"] =
      exchanges(est.externalExchanges, numTiles, "estimatedCyclesByTile");
  m["hostExchanges"] = exchanges(est.hostExchanges, numTiles, "estimatedCyclesByTile");
  m["programs"] = programs(est);
  m["controlPrograms"] = numbers(est.controlPrograms);
  m["functionPrograms"] = numbers(est.functionPrograms);
  m["memory"] = memory(est);
  return m;
}

} // namespace poplar::profiling
