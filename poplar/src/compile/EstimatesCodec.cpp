// Encoding of the IPU Model's estimates (model/Estimates.hpp), so that an
// Engine made from a file has the profiles and summaries of the compile.
#include "compile/ExecutableCodec.hpp"

#include "model/Estimates.hpp"

namespace poplar::codec {
namespace {

using binary::DecodeError;
using binary::Reader;
using binary::Writer;

void writeTileCycles(Writer &w, const model::TileCycles &c) {
  for (auto v : {c.activeCompute, c.compute, c.copySharedStructure,
                 c.doExchange, c.globalExchange, c.streamCopy, c.sync,
                 c.control})
    w.u64(v);
}

void readTileCycles(Reader &r, model::TileCycles &c) {
  for (auto *v : {&c.activeCompute, &c.compute, &c.copySharedStructure,
                  &c.doExchange, &c.globalExchange, &c.streamCopy, &c.sync,
                  &c.control})
    *v = r.u64();
}

void writeExchanges(Writer &w, const std::vector<model::ExchangeEstimate> &xs) {
  w.u64(xs.size());
  for (const auto &x : xs) {
    w.str(x.name);
    w.u64(x.tiles.size());
    for (const auto &t : x.tiles) {
      w.u64(t.tile);
      w.u64(t.sent);
      w.u64(t.received);
      w.u64(t.cycles);
      w.u64(t.pieces);
    }
    w.u64(x.cycles);
    w.u64(x.totalBytes);
  }
}

void readExchanges(Reader &r, std::vector<model::ExchangeEstimate> &xs) {
  xs.resize(r.count(3));
  for (auto &x : xs) {
    x.name = r.str();
    x.tiles.resize(r.count(5));
    for (auto &t : x.tiles) {
      t.tile = r.pod<unsigned>();
      t.sent = r.u64();
      t.received = r.u64();
      t.cycles = r.u64();
      t.pieces = r.pod<unsigned>();
    }
    x.cycles = r.u64();
    x.totalBytes = r.u64();
  }
}

void writeVertexMemory(Writer &w, const model::VertexMemory &m) {
  for (auto v : {m.code, m.copyPointers, m.descriptors, m.edgePointers,
                 m.padding, m.vertexData})
    w.u64(v);
}

void readVertexMemory(Reader &r, model::VertexMemory &m) {
  for (auto *v : {&m.code, &m.copyPointers, &m.descriptors, &m.edgePointers,
                  &m.padding, &m.vertexData})
    *v = r.u64();
}

using SparseMemory =
    std::vector<std::vector<std::pair<unsigned, model::VertexMemory>>>;

void writeSparse(Writer &w, const SparseMemory &s) {
  w.u64(s.size());
  for (const auto &row : s) {
    w.u64(row.size());
    for (const auto &[tile, m] : row) {
      w.u64(tile);
      writeVertexMemory(w, m);
    }
  }
}

void readSparse(Reader &r, SparseMemory &s) {
  s.resize(r.count());
  for (auto &row : s) {
    row.resize(r.count(7));
    for (auto &[tile, m] : row) {
      tile = r.pod<unsigned>();
      readVertexMemory(r, m);
    }
  }
}

void writeMemory(Writer &w, const model::MemoryReport &m) {
  for (const auto *byCategory : {&m.nonOverlapped, &m.overlapped})
    for (const auto &regions : *byCategory)
      for (const auto &perTile : regions)
        w.vec(perTile);
  for (const auto &perTile : m.byRegion)
    w.vec(perTile);
  w.vec(m.total);
  for (const auto &perTile : m.byRegionIncludingGaps)
    w.vec(perTile);
  w.vec(m.totalIncludingGaps);
  writeSparse(w, m.byComputeSet);
  writeSparse(w, m.byVertexType);
  w.u64(m.liveSteps.size());
  for (const auto &s : m.liveSteps) {
    w.u64(s.program);
    w.u64(s.variableBytes);
    for (auto b : s.bufferBytes)
      w.u64(b);
  }
  w.u64(m.liveVariables.size());
  for (const auto &v : m.liveVariables) {
    w.u64(v.variable);
    w.str(v.name);
    w.u64(v.bytes);
    w.u64(v.ranges.size());
    for (const auto &[first, last] : v.ranges) {
      w.u64(first);
      w.u64(last);
    }
  }
  w.u64(m.alwaysLive.size());
  for (const auto &[name, bytes] : m.alwaysLive) {
    w.str(name);
    w.u64(bytes);
  }
  w.u64(m.variablePlacements.size());
  for (const auto &p : m.variablePlacements) {
    w.u64(p.variable);
    w.u64(p.tile);
    w.u64(p.address);
    w.u64(p.bytes);
    w.pod(p.region);
  }
}

void readMemory(Reader &r, model::MemoryReport &m) {
  for (auto *byCategory : {&m.nonOverlapped, &m.overlapped})
    for (auto &regions : *byCategory)
      for (auto &perTile : regions)
        r.vec(perTile);
  for (auto &perTile : m.byRegion)
    r.vec(perTile);
  r.vec(m.total);
  for (auto &perTile : m.byRegionIncludingGaps)
    r.vec(perTile);
  r.vec(m.totalIncludingGaps);
  readSparse(r, m.byComputeSet);
  readSparse(r, m.byVertexType);
  m.liveSteps.resize(r.count(5));
  for (auto &s : m.liveSteps) {
    s.program = r.pod<unsigned>();
    s.variableBytes = r.u64();
    for (auto &b : s.bufferBytes)
      b = r.u64();
  }
  m.liveVariables.resize(r.count(4));
  for (auto &v : m.liveVariables) {
    v.variable = r.u64();
    v.name = r.str();
    v.bytes = r.u64();
    v.ranges.resize(r.count(2));
    for (auto &[first, last] : v.ranges) {
      first = r.pod<std::uint32_t>();
      last = r.pod<std::uint32_t>();
    }
  }
  m.alwaysLive.resize(r.count(2));
  for (auto &[name, bytes] : m.alwaysLive) {
    name = r.str();
    bytes = r.u64();
  }
  m.variablePlacements.resize(r.count(5));
  for (auto &p : m.variablePlacements) {
    p.variable = r.u64();
    p.tile = r.pod<unsigned>();
    p.address = r.u64();
    p.bytes = r.u64();
    p.region = r.pod<model::MemoryRegion>();
  }
}

} // namespace

void writeEstimates(Writer &w, const model::Estimates &e) {
  w.u64(e.replicationFactor);
  w.u64(e.graph.numVertices);
  w.u64(e.graph.numEdges);
  w.u64(e.graph.numVars);
  w.u64(e.graph.numComputeSets);
  w.u64(e.vertexTypes.size());
  for (const auto &t : e.vertexTypes) {
    w.str(t.name);
    w.u64(t.stateBytes);
  }
  w.u64(e.computeSets.size());
  for (const auto &cs : e.computeSets) {
    w.str(cs.name);
    w.u64(cs.tiles.size());
    for (const auto &t : cs.tiles) {
      w.u64(t.tile);
      w.u64(t.cycles);
      w.u64(t.active);
    }
    w.vec(cs.vertexTypes);
    w.vec(cs.vertexCounts);
    w.vec(cs.activeCyclesByType);
    w.u64(cs.cycles);
    w.u64(cs.totalCycles);
    w.u64(cs.totalActive);
    w.u64(cs.numVertices);
  }
  writeExchanges(w, e.exchanges);
  writeExchanges(w, e.externalExchanges);
  writeExchanges(w, e.hostExchanges);
  w.u64(e.programs.size());
  for (const auto &p : e.programs) {
    w.str(p.type);
    w.str(p.name);
    w.vec(p.children);
    w.i64(p.computeSet);
    w.i64(p.exchange);
    w.i64(p.target);
    w.u64(p.count);
    w.str(p.syncType);
  }
  w.vec(e.controlPrograms);
  w.vec(e.functionPrograms);
  w.u64(e.steps.size());
  for (const auto &s : e.steps) {
    w.pod(s.kind);
    w.pod(s.external);
    w.u64(s.program);
    w.u64(s.index);
    w.u64(s.cycles);
    writeTileCycles(w, s.tileCycles);
    w.pod(s.eachIpu);
    w.u64(s.ipus);
  }
  w.u64(e.ipuSets.size());
  for (const auto &set : e.ipuSets)
    w.vec(set);
  writeMemory(w, e.memory);
  w.vec(e.vertexCycles);
  w.vec(e.vertexComputeSet);
  w.vec(e.vertexType);
  w.u64(e.optimizationInfo.size());
  for (const auto &[name, value] : e.optimizationInfo) {
    w.str(name);
    w.pod(value);
  }
}

std::shared_ptr<const model::Estimates> readEstimates(Reader &r,
                                                      const Target &target) {
  auto e = std::make_shared<model::Estimates>();
  e->target = target;
  e->replicationFactor = static_cast<unsigned>(r.u64());
  e->graph.numVertices = r.u64();
  e->graph.numEdges = r.u64();
  e->graph.numVars = r.u64();
  e->graph.numComputeSets = r.u64();
  e->vertexTypes.resize(r.count(2));
  for (auto &t : e->vertexTypes) {
    t.name = r.str();
    t.stateBytes = r.u64();
  }
  e->computeSets.resize(r.count(8));
  for (auto &cs : e->computeSets) {
    cs.name = r.str();
    cs.tiles.resize(r.count(3));
    for (auto &t : cs.tiles) {
      t.tile = r.pod<unsigned>();
      t.cycles = r.u64();
      t.active = r.u64();
    }
    r.vec(cs.vertexTypes);
    r.vec(cs.vertexCounts);
    r.vec(cs.activeCyclesByType);
    cs.cycles = r.u64();
    cs.totalCycles = r.u64();
    cs.totalActive = r.u64();
    cs.numVertices = r.u64();
  }
  readExchanges(r, e->exchanges);
  readExchanges(r, e->externalExchanges);
  readExchanges(r, e->hostExchanges);
  e->programs.resize(r.count(8));
  for (auto &p : e->programs) {
    p.type = r.str();
    p.name = r.str();
    r.vec(p.children);
    p.computeSet = static_cast<long>(r.i64());
    p.exchange = static_cast<long>(r.i64());
    p.target = static_cast<long>(r.i64());
    p.count = r.pod<unsigned>();
    p.syncType = r.str();
    for (unsigned c : p.children)
      if (c >= e->programs.size())
        throw DecodeError("a profile program has a child that does not exist");
  }
  r.vec(e->controlPrograms);
  r.vec(e->functionPrograms);
  e->steps.resize(r.count(13));
  for (auto &s : e->steps) {
    s.kind = r.pod<model::SimStep::Kind>();
    if (s.kind > model::SimStep::Kind::Control)
      throw DecodeError("a simulated step has an unknown kind");
    s.external = r.pod<bool>();
    s.program = r.pod<unsigned>();
    s.index = r.pod<unsigned>();
    s.cycles = r.u64();
    readTileCycles(r, s.tileCycles);
    s.eachIpu = r.pod<bool>();
    s.ipus = r.pod<std::uint32_t>();
  }
  e->ipuSets.resize(r.count(8));
  const unsigned numIpus = std::max(1u, e->target.getNumIPUs());
  for (auto &set : e->ipuSets) {
    r.vec(set);
    for (unsigned ipu : set)
      if (ipu >= numIpus)
        throw DecodeError("a simulated step runs on an IPU the target does not have");
  }
  if (e->ipuSets.empty() || e->ipuSets[0].size() != numIpus)
    throw DecodeError("the IPU sets of the simulated steps do not start with every IPU");
  for (const auto &s : e->steps)
    if (s.ipus >= e->ipuSets.size())
      throw DecodeError("a simulated step runs on an IPU set that does not exist");
  readMemory(r, e->memory);
  r.vec(e->vertexCycles);
  r.vec(e->vertexComputeSet);
  r.vec(e->vertexType);
  e->optimizationInfo.resize(r.count(9));
  for (auto &[name, value] : e->optimizationInfo) {
    name = r.str();
    value = r.pod<double>();
  }
  return e;
}

} // namespace poplar::codec
