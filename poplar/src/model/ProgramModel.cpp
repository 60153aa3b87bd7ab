// Lowered steps to profile programs and simulated BSP steps. Every
// superstep starts with a sync; an Execute then exchanges what its
// vertices read from other tiles, computes, and (after another sync)
// sends what they wrote to other tiles. A Copy exchanges between tiles and
// copies on tiles; streams and remote buffers are host exchanges after an
// external sync; control flow costs supervisor instructions and, where a
// decision must be shared, a sync.
#include "model/ProgramModel.hpp"

#include "model/ComputeSetTraffic.hpp"
#include "model/CycleModel.hpp"
#include "model/ExchangeModel.hpp"
#include "model/MemoryModel.hpp"
#include "model/ModelConstants.hpp"

#include "core/TypeInfo.hpp"
#include "graph/GraphImpl.hpp"
#include "runtime/ParallelFor.hpp"

#include <poplar/detail/CodeletInterface.hpp>

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <chrono>
#include <map>
#include <set>

namespace poplar::model {
namespace {

using SK = exec::Step::Kind;

// What one tile copies within itself for a Copy program.
struct OnTileCopy {
  std::uint64_t contiguousBytes = 0;
  std::uint64_t stridedElements = 0;
  std::uint64_t pieces = 0;
};

class ProgramModeller {
public:
  ProgramModeller(const Graph::Impl &graph, Executable::Impl &exe,
                  Estimates &est, MemoryInputs &memory)
      : graph(graph), exe(exe), est(est), memory(memory),
        target(exe.target), numTiles(exe.target.getNumTiles()),
        workers(std::max(1u, exe.target.getNumWorkerContexts())) {
    csModelled.assign(graph.computeSets.size(), false);
    flatMappings.reserve(graph.variables.size());
    for (const auto &var : graph.variables)
      flatMappings.emplace_back(var.mapping);
    csExchanges.resize(graph.computeSets.size());
    std::vector<unsigned> all(std::max(1u, target.getNumIPUs()));
    for (unsigned i = 0; i != all.size(); ++i)
      all[i] = i;
    ipuSetIds.emplace(all, 0);
    est.ipuSets.push_back(std::move(all));
  }

  void run() {
    std::vector<bool> used(graph.computeSets.size(), false);
    for (const auto &f : exe.functions)
      markExecuted(f, used);
    for (const auto &p : exe.programs)
      markExecuted(p, used);
    std::vector<unsigned> run;
    for (unsigned cs = 0; cs != used.size(); ++cs)
      if (used[cs])
        run.push_back(cs);
    csTraffic.resize(graph.computeSets.size());
    tbb::enumerable_thread_specific<TrafficScratch> scratch;
    runtime::parallelFor(std::size_t(0), run.size(), [&](std::size_t i) {
      csTraffic[run[i]] =
          computeSetTraffic(graph, exe, flatMappings, run[i], scratch.local());
    });
    for (auto &f : exe.functions)
      est.functionPrograms.push_back(model(f));
    for (auto &p : exe.programs)
      est.controlPrograms.push_back(model(p));
  }

private:
  // ---------------------------------------------------------- nodes, steps

  unsigned node(std::string type, std::string name = {}) {
    ProgramNode n;
    n.type = std::move(type);
    n.name = std::move(name);
    est.programs.push_back(std::move(n));
    return static_cast<unsigned>(est.programs.size() - 1);
  }

  unsigned wrap(const std::vector<unsigned> &nodes, const std::string &name) {
    if (nodes.size() == 1)
      return nodes[0];
    const unsigned seq = node("Sequence", name);
    est.programs[seq].children = nodes;
    return seq;
  }

  // withHost: a GLOBAL sync, which waits for the host too.
  void sync(bool external, unsigned program, bool withHost = false) {
    SimStep s;
    s.kind = SimStep::Kind::Sync;
    s.external = external;
    s.program = program;
    s.cycles = external ? target.getGlobalSyncCycles() : target.getMaxIPUSyncDelay();
    if (withHost)
      s.cycles += static_cast<std::uint64_t>(
          std::ceil(constants::hostSyncSeconds * target.getTileClockFrequency()));
    s.tileCycles.sync = s.cycles * numTiles;
    est.steps.push_back(s);
  }

  void control(unsigned instructions, unsigned program) {
    SimStep s;
    s.kind = SimStep::Kind::Control;
    s.eachIpu = true; // every IPU runs its own control code
    s.program = program;
    s.cycles = std::uint64_t(instructions) * workers;
    s.tileCycles.control = s.cycles * numTiles;
    est.steps.push_back(s);
  }

  void compute(unsigned cs, unsigned program) {
    const ComputeSetEstimate &c = est.computeSets[cs];
    SimStep s;
    s.kind = SimStep::Kind::OnTileExecute;
    s.program = program;
    s.index = cs;
    s.cycles = c.cycles;
    s.tileCycles.compute = c.totalCycles;
    s.tileCycles.activeCompute = c.totalActive;
    s.tileCycles.sync = c.cycles * numTiles - c.totalCycles; // waiting
    est.steps.push_back(s);
  }

  void exchange(SimStep::Kind kind, unsigned index, unsigned program) {
    const ExchangeEstimate &x =
        kind == SimStep::Kind::DoExchange       ? est.exchanges[index]
        : kind == SimStep::Kind::GlobalExchange ? est.externalExchanges[index]
                                                : est.hostExchanges[index];
    SimStep s;
    s.kind = kind;
    s.program = program;
    s.index = index;
    s.cycles = x.cycles;
    std::uint64_t busy = 0;
    for (const auto &t : x.tiles)
      busy += t.cycles;
    (kind == SimStep::Kind::DoExchange       ? s.tileCycles.doExchange
     : kind == SimStep::Kind::GlobalExchange ? s.tileCycles.globalExchange
                                             : s.tileCycles.streamCopy) = busy;
    s.tileCycles.sync = x.cycles * numTiles - busy;
    est.steps.push_back(s);
  }

  // The exchanges of one phase: nodes made for the external and internal
  // parts of `traffic` (when there is such a part), sim steps added by
  // emit() once the step's other nodes exist.
  struct PhaseExchange {
    long external = -1, internal = -1;         // exchange ids
    long externalNode = -1, internalNode = -1; // program nodes
  };

  PhaseExchange phaseNodes(long external, long internal) {
    PhaseExchange p;
    p.external = external;
    p.internal = internal;
    if (external >= 0) {
      p.externalNode = node("GlobalExchange", est.externalExchanges[external].name);
      est.programs[p.externalNode].exchange = external;
    }
    if (internal >= 0) {
      p.internalNode = node("DoExchange", est.exchanges[internal].name);
      est.programs[p.internalNode].exchange = internal;
    }
    return p;
  }

  void emit(const PhaseExchange &p, std::vector<unsigned> &nodes,
            unsigned syncProgram) {
    if (p.external >= 0) {
      sync(true, syncProgram);
      exchange(SimStep::Kind::GlobalExchange, unsigned(p.external),
               unsigned(p.externalNode));
      nodes.push_back(unsigned(p.externalNode));
    }
    if (p.internal >= 0) {
      exchange(SimStep::Kind::DoExchange, unsigned(p.internal),
               unsigned(p.internalNode));
      nodes.push_back(unsigned(p.internalNode));
    }
  }

  // ------------------------------------------------------------- IPUs

  using IpuSet = std::set<unsigned>;

  void addTiles(IpuSet &ipus, const std::vector<TileCompute> &tiles) const {
    for (const auto &t : tiles)
      ipus.insert(t.tile / target.getTilesPerIPU());
  }
  void addTiles(IpuSet &ipus, const std::vector<TileTraffic> &tiles) const {
    for (const auto &t : tiles)
      ipus.insert(t.tile / target.getTilesPerIPU());
  }
  void addExchanges(IpuSet &ipus, long external, long internal) const {
    if (external >= 0)
      addTiles(ipus, est.externalExchanges[std::size_t(external)].tiles);
    if (internal >= 0)
      addTiles(ipus, est.exchanges[std::size_t(internal)].tiles);
  }

  // The simulated steps from `first` on run on `ipus` only, when that is
  // not every IPU: they join and move those IPUs' clocks, and the other
  // IPUs' tiles are not waiting for them.
  void onIpus(std::size_t first, const IpuSet &ipus) {
    const std::size_t numIpus = est.ipuSets[0].size();
    if (ipus.empty() || ipus.size() == numIpus)
      return;
    const std::vector<unsigned> set(ipus.begin(), ipus.end());
    auto [it, added] = ipuSetIds.emplace(set, unsigned(est.ipuSets.size()));
    if (added)
      est.ipuSets.push_back(set);
    const std::uint64_t tiles = std::uint64_t(target.getTilesPerIPU()) * set.size();
    for (std::size_t k = first; k != est.steps.size(); ++k) {
      SimStep &s = est.steps[k];
      if (s.eachIpu)
        continue;
      s.ipus = it->second;
      const TileCycles &c = s.tileCycles;
      const std::uint64_t busy =
          c.compute + c.doExchange + c.globalExchange + c.streamCopy;
      s.tileCycles.sync = s.cycles * tiles - busy;
    }
  }

  // ------------------------------------------------------------ the steps

  unsigned model(exec::Step &s) {
    s.simBegin = static_cast<std::uint32_t>(est.steps.size());
    const unsigned id = modelOwn(s);
    s.simEnd = static_cast<std::uint32_t>(est.steps.size());
    memory.liveness.stepProgram.emplace(&s, id); // unless modelOwn chose one
    const unsigned parent = childParent(s, id);
    for (auto &child : s.children) {
      const unsigned c = model(child); // may grow est.programs
      est.programs[parent].children.push_back(c);
    }
    return id;
  }

  // The node that takes the step's children (If's IfElse is inside a
  // sequence).
  unsigned childParent(const exec::Step &s, unsigned id) const {
    if ((s.kind == SK::If || s.kind == SK::Switch) &&
        est.programs[id].type == "Sequence")
      return est.programs[id].children.back();
    return id;
  }

  // Adds the node of s (without its children) and the sim steps s runs
  // itself; returns the node.
  unsigned modelOwn(exec::Step &s) {
    switch (s.kind) {
    case SK::Sequence:
      return node("Sequence", s.name);
    case SK::Execute:
      return modelExecute(s);
    case SK::Repeat: {
      const unsigned n = node("Repeat", s.name);
      est.programs[n].count = s.count;
      control(constants::repeatInstructions, n);
      return n;
    }
    case SK::RepeatWhile: {
      const unsigned n = node(s.whileTrue ? "RepeatWhileTrue" : "RepeatWhileFalse",
                              s.name);
      control(constants::consensusInstructions, n);
      sync(false, n);
      return n;
    }
    case SK::If: {
      const unsigned consensus = node("SetLocalConsensusFromVar", s.name);
      const unsigned syncNode = node("Sync", s.name);
      est.programs[syncNode].syncType = "Internal";
      const unsigned branch = node("IfElse", s.name);
      memory.liveness.stepProgram.emplace(&s, consensus); // reads the predicate
      control(constants::consensusInstructions, consensus);
      sync(false, syncNode);
      const unsigned seq = node("Sequence", s.name);
      est.programs[seq].children = {consensus, syncNode, branch};
      return seq;
    }
    case SK::Switch:
      return modelSwitch(s);
    case SK::CopyTensors:
      return modelCopy(s);
    case SK::StreamToTensor:
    case SK::TensorToStream:
    case SK::RemoteToTensor:
    case SK::TensorToRemote:
    case SK::PrintTensor:
      return modelHostCopy(s);
    case SK::WriteUndef:
      return node("WriteUndef", s.name);
    case SK::Sync: {
      const unsigned n = node("Sync", s.name);
      const bool external = s.syncType != SyncType::INTERNAL;
      est.programs[n].syncType = s.syncType == SyncType::INTERNAL   ? "Internal"
                                 : s.syncType == SyncType::EXTERNAL ? "External"
                                                                    : "Global";
      sync(external, n, s.syncType == SyncType::GLOBAL);
      est.steps.back().eachIpu = !external; // each IPU syncs its own tiles
      return n;
    }
    case SK::Call: {
      const unsigned n = node("Call", s.name);
      est.programs[n].target = long(s.function);
      control(constants::callInstructions, n);
      return n;
    }
    case SK::Abort:
      return node("Abort", s.name);
    case SK::CrossReplicaCopy:
    case SK::CrossReplicaCollective:
      return modelCrossReplica(s);
    case SK::AbortOnCondition: {
      const unsigned n = node("AbortOnCondition", s.name);
      control(constants::consensusInstructions, n);
      sync(false, n);
      return n;
    }
    }
    return node("Sequence", s.name);
  }

  unsigned modelExecute(exec::Step &s) {
    const unsigned cs = s.computeSet;
    modelComputeSet(cs);
    const std::string &csName = graph.computeSets[cs].name;
    const auto &x = csExchanges[cs];
    // Implicit syncs are attributed to the OnTileExecute program.
    const unsigned exec = node("OnTileExecute", csName);
    est.programs[exec].computeSet = long(cs);
    memory.liveness.stepProgram.emplace(&s, exec);
    const PhaseExchange pre = phaseNodes(x.preExternal, x.preInternal);
    const PhaseExchange post = phaseNodes(x.postExternal, x.postInternal);
    std::vector<unsigned> nodes;
    const std::size_t first = est.steps.size();
    sync(false, exec);
    emit(pre, nodes, exec);
    compute(cs, exec);
    nodes.push_back(exec);
    if (post.external >= 0 || post.internal >= 0) {
      sync(false, exec);
      emit(post, nodes, exec);
    }
    IpuSet ipus;
    addTiles(ipus, est.computeSets[cs].tiles);
    addExchanges(ipus, x.preExternal, x.preInternal);
    addExchanges(ipus, x.postExternal, x.postInternal);
    onIpus(first, ipus);
    return wrap(nodes, s.name.empty() ? csName : s.name);
  }

  static void markExecuted(const exec::Step &s, std::vector<bool> &used) {
    if (s.kind == SK::Execute)
      used[s.computeSet] = true;
    for (const auto &child : s.children)
      markExecuted(child, used);
  }

  // Cycles of the compute set's vertices, and the exchanges of the edges
  // its vertices connect to data on other tiles (once per compute set).
  void modelComputeSet(unsigned cs) {
    if (csModelled[cs])
      return;
    csModelled[cs] = true;
    memory.computeSetUsed[cs] = true;
    ComputeSetTraffic traffic = std::move(csTraffic[cs]);
    memory.liveness.computeSetAccess[cs] = std::move(traffic.access);
    const std::string &name = graph.computeSets[cs].name;
    auto &x = csExchanges[cs];
    recordExchange(traffic.pre, name + "/ExchangePre", x.preExternal, x.preInternal);
    recordExchange(traffic.post, name + "/ExchangePost", x.postExternal, x.postInternal);
    memory.phases.push_back(std::move(traffic.buffers));
  }

  void recordExchange(const Traffic &traffic, const std::string &name,
                      long &external, long &internal) {
    if (traffic.empty())
      return;
    ExchangeEstimate ext = traffic.externalExchange(target, name);
    if (!ext.tiles.empty()) {
      est.externalExchanges.push_back(std::move(ext));
      external = long(est.externalExchanges.size() - 1);
    }
    ExchangeEstimate in = traffic.internalExchange(target, name);
    if (!in.tiles.empty()) {
      est.exchanges.push_back(std::move(in));
      internal = long(est.exchanges.size() - 1);
    }
  }

  unsigned modelCopy(exec::Step &s) {
    const std::string name = s.name.empty() ? "Copy" : s.name;
    Traffic traffic;
    std::map<unsigned, OnTileCopy> onTile;
    const std::size_t bytes = s.elementBytes;
    for (const auto &seg : s.segments) {
      const bool strided = seg.srcStride != 1 || seg.dstStride != 1;
      forEachCopyPiece(graph.variables[seg.srcVar].mapping, seg.srcStart,
                       seg.srcStride, graph.variables[seg.dstVar].mapping,
                       seg.dstStart, seg.dstStride, seg.length,
                       [&](unsigned from, unsigned to, std::size_t n) {
                         if (from != to) {
                           traffic.add(from, to, n * bytes);
                           return;
                         }
                         auto &t = onTile[to];
                         ++t.pieces;
                         if (strided)
                           t.stridedElements += n;
                         else
                           t.contiguousBytes += n * bytes;
                       });
    }
    long external = -1, internal = -1;
    recordExchange(traffic, name + "/Exchange", external, internal);
    const PhaseExchange x = phaseNodes(external, internal);
    long exec = -1;
    if (!onTile.empty()) {
      const unsigned cs = copyComputeSet(name + "/OnTileCopy", onTile);
      exec = node("OnTileExecute", est.computeSets[cs].name);
      est.programs[exec].computeSet = long(cs);
    }
    // A copy that moves nothing is still a sync.
    const long first = x.externalNode >= 0 ? x.externalNode
                       : x.internalNode >= 0 ? x.internalNode
                       : exec >= 0 ? exec : long(node("Sync", name));
    if (est.programs[first].type == "Sync")
      est.programs[first].syncType = "Internal";
    std::vector<unsigned> nodes;
    const std::size_t firstStep = est.steps.size();
    sync(false, unsigned(first));
    emit(x, nodes, unsigned(first));
    IpuSet ipus;
    addExchanges(ipus, external, internal);
    if (exec >= 0) {
      compute(unsigned(est.programs[exec].computeSet), unsigned(exec));
      nodes.push_back(unsigned(exec));
      addTiles(ipus, est.computeSets[std::size_t(est.programs[exec].computeSet)].tiles);
    }
    onIpus(firstStep, ipus);
    if (nodes.empty())
      nodes.push_back(unsigned(first));
    return wrap(nodes, name);
  }

  // A generated compute set of one memcpy vertex per tile.
  unsigned copyComputeSet(const std::string &name,
                          const std::map<unsigned, OnTileCopy> &onTile) {
    ComputeSetEstimate c;
    c.name = name;
    CopyVertices copies;
    copies.computeSet = static_cast<unsigned>(est.computeSets.size());
    const std::uint64_t rate = target.getMemcpyBytesPerCycle();
    for (const auto &[tile, t] : onTile) {
      // Contiguous pieces move at the memcpy rate, strided ones an
      // element per cycle.
      const std::uint64_t cycles = constants::memcpyFixedCycles +
                                   t.pieces * constants::memcpyPieceCycles +
                                   (t.contiguousBytes + rate - 1) / rate +
                                   t.stridedElements;
      c.tiles.push_back({tile, cycles, cycles});
      c.cycles = std::max(c.cycles, cycles);
      c.totalCycles += cycles;
      c.totalActive += cycles;
      copies.piecesPerTile[tile] = t.pieces;
    }
    c.numVertices = onTile.size();
    c.vertexTypes = {memcpyType()};
    c.vertexCounts = {onTile.size()};
    c.activeCyclesByType = {c.totalActive};
    est.computeSets.push_back(std::move(c));
    memory.copies.push_back(std::move(copies));
    return static_cast<unsigned>(est.computeSets.size() - 1);
  }

  unsigned memcpyType() {
    if (memcpyTypeIndex < 0) {
      est.vertexTypes.push_back({"poplar_rt::LongMemcpy",
                                 constants::copyPointerBytes});
      memcpyTypeIndex = long(est.vertexTypes.size() - 1);
    }
    return unsigned(memcpyTypeIndex);
  }

  unsigned modelHostCopy(exec::Step &s) {
    const bool toDevice =
        s.kind == SK::StreamToTensor || s.kind == SK::RemoteToTensor;
    std::string name = s.name;
    if (name.empty()) {
      if (s.kind == SK::StreamToTensor || s.kind == SK::TensorToStream)
        name = exe.streams[s.stream].handle;
      else if (s.kind == SK::PrintTensor)
        name = "PrintTensor";
      else
        name = exe.remoteBuffers[s.remoteBuffer].handle;
    }
    std::map<unsigned, std::pair<std::uint64_t, unsigned>> perTile;
    for (const auto &run : s.access.runs)
      forEachTilePiece(graph.variables[run.var].mapping, run.start, run.stride,
                       run.length, [&](unsigned tile, std::size_t n) {
                         auto &t = perTile[tile == TileMapping::NoTile ? 0 : tile];
                         t.first += n * s.access.elementBytes;
                         t.second += run.stride == 1 ? 1 : unsigned(n);
                       });
    est.hostExchanges.push_back(hostExchange(target, name, perTile, toDevice));
    const unsigned n = node("StreamCopy", name);
    est.programs[n].exchange = long(est.hostExchanges.size() - 1);
    const std::size_t first = est.steps.size();
    sync(true, n);
    exchange(SimStep::Kind::StreamCopy, unsigned(est.hostExchanges.size() - 1), n);
    IpuSet ipus;
    addTiles(ipus, est.hostExchanges.back().tiles);
    // (At run time the copy waits for the IPUs of the device's host sync
    // group: ExecutionRecorder::setSyncConfiguration.)
    onIpus(first, ipus);
    return n;
  }

  // Bytes and elements of a tensor on each tile.
  std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>>
  bytesByTile(const exec::TensorAccess &a) const {
    std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>> perTile;
    for (const auto &run : a.runs)
      forEachTilePiece(graph.variables[run.var].mapping, run.start, run.stride,
                       run.length, [&](unsigned tile, std::size_t n) {
                         auto &t = perTile[tile == TileMapping::NoTile ? 0 : tile];
                         t.first += n * a.elementBytes;
                         t.second += n;
                       });
    return perTile;
  }

  // A CrossReplicaCopy is one exchange between replicas; a collective
  // runs over the ring of replicas in steps, each an external sync and an
  // exchange of a 1/n share of every tile's data with its neighbour
  // replica: n - 1 steps that reduce (the received share is combined,
  // a vector of the type a cycle) and n - 1 that gather.
  unsigned modelCrossReplica(exec::Step &s) {
    using C = detail::CrossReplicaCollective;
    const bool copy = s.kind == SK::CrossReplicaCopy;
    // The groups run side by side: one group's ring is the time.
    const auto replicas = copy ? exe.replicationFactor
                               : unsigned(s.replicaGroups.at(0).size());
    const std::string name =
        !s.name.empty() ? s.name : copy ? "CrossReplicaCopy" : "Collective";
    const auto src = bytesByTile(s.access);
    const auto dst = bytesByTile(s.dstAccess);
    auto share = [&](std::uint64_t x) { return (x + replicas - 1) / replicas; };
    const std::uint64_t vector = std::max(1u, target.getVectorWidth(s.access.type));
    // The traffic of one step; `reducing` adds the combine.
    auto stepTraffic = [&](bool reducing, bool whole) {
      std::map<unsigned, ReplicaTileTraffic> tiles;
      for (const auto &[tile, be] : src) {
        auto &t = tiles[tile];
        t.sent = whole ? be.first : share(be.first);
        t.received = t.sent;
        if (reducing)
          t.combine = (share(be.second) + vector - 1) / vector;
      }
      return tiles;
    };
    std::vector<std::pair<std::string, std::map<unsigned, ReplicaTileTraffic>>> phases;
    unsigned stepsPerPhase = 1;
    if (copy) {
      std::map<unsigned, ReplicaTileTraffic> tiles;
      for (const auto &[tile, be] : src)
        tiles[tile].sent = be.first;
      for (const auto &[tile, be] : dst)
        tiles[tile].received = be.first;
      phases.emplace_back(name + "/Exchange", std::move(tiles));
    } else if (replicas > 1 &&
               !(s.collectiveOp == detail::CrossReplicaOperator::LOCAL &&
                 s.collective == C::ReduceScatter)) {
      // (A LOCAL reduce-scatter keeps the replica's own part: nothing
      // crosses the links.)
      stepsPerPhase = replicas - 1;
      if (s.collective != C::AllGather)
        phases.emplace_back(name + "/ReduceScatter", stepTraffic(true, false));
      if (s.collective == C::AllReduce)
        phases.emplace_back(name + "/AllGather", stepTraffic(false, false));
      if (s.collective == C::AllGather)
        phases.emplace_back(name + "/AllGather", stepTraffic(false, true));
    }
    std::vector<unsigned> nodes;
    for (auto &[phaseName, tiles] : phases) {
      est.externalExchanges.push_back(crossReplicaExchange(target, phaseName, tiles));
      const auto index = unsigned(est.externalExchanges.size() - 1);
      const unsigned n = node("GlobalExchange", phaseName);
      est.programs[n].exchange = long(index);
      for (unsigned i = 0; i != stepsPerPhase; ++i) {
        sync(true, n);
        exchange(SimStep::Kind::GlobalExchange, index, n);
      }
      nodes.push_back(n);
    }
    if (nodes.empty()) { // one replica: nothing leaves the IPU
      const unsigned n = node("Sync", name);
      est.programs[n].syncType = "Internal";
      sync(false, n);
      nodes.push_back(n);
    }
    return wrap(nodes, name);
  }

  unsigned modelSwitch(exec::Step &s) {
    // The control value is sent from its tile to every other tile.
    const auto &var = graph.variables[s.scalar.var];
    const unsigned owner = var.mapping.tileOf(s.scalar.element);
    const std::uint64_t bytes = typeSize(s.scalar.type);
    Traffic broadcast;
    for (unsigned t = 0; t != numTiles; ++t)
      broadcast.add(owner == TileMapping::NoTile ? 0 : owner, t, bytes);
    const std::string name =
        (s.name.empty() ? std::string("switchControlBroadcast") : s.name) +
        "/ExchangePre";
    long external = -1, internal = -1;
    recordExchange(broadcast, name, external, internal);
    const PhaseExchange x = phaseNodes(external, internal);
    const unsigned sw = node("Switch", s.name);
    std::vector<unsigned> nodes;
    sync(false, sw);
    emit(x, nodes, sw);
    control(constants::switchBaseInstructions +
                constants::switchCaseInstructions * unsigned(s.caseValues.size()),
            sw);
    nodes.push_back(sw);
    const unsigned seq = node("Sequence", s.name);
    est.programs[seq].children = nodes;
    return seq;
  }

  struct ComputeSetExchanges {
    long preInternal = -1, preExternal = -1;
    long postInternal = -1, postExternal = -1;
  };

  const Graph::Impl &graph;
  Executable::Impl &exe;
  Estimates &est;
  MemoryInputs &memory;
  const Target &target;
  const std::uint64_t numTiles;
  const unsigned workers;
  std::vector<bool> csModelled;
  // Each variable's tile mapping as one sorted array.
  std::vector<FlatTileMapping> flatMappings;
  // What each compute set run by a program moves, worked out for all of
  // them side by side before the programs are walked.
  std::vector<ComputeSetTraffic> csTraffic;
  std::vector<ComputeSetExchanges> csExchanges;
  std::map<std::vector<unsigned>, unsigned> ipuSetIds;
  long memcpyTypeIndex = -1;
};

GraphStats graphStats(const Graph::Impl &graph) {
  GraphStats g;
  g.numVertices = graph.vertices.size();
  g.numVars = graph.variables.size();
  g.numComputeSets = graph.computeSets.size();
  for (const auto &v : graph.vertices) {
    const auto &info = *graph.vertexTypes[v.type].info;
    for (std::size_t f = 0; f != v.numFields; ++f) {
      if (info.fields[f].kind == codelet_interface::FieldKind::State)
        continue;
      if (info.fields[f].shape == codelet_interface::FieldShape::List)
        g.numEdges += v.field(f).extra ? v.field(f).extra->items.size() : 0;
      else
        g.numEdges += v.field(f).tensor.valid() ? 1 : 0;
    }
  }
  return g;
}

} // namespace

unsigned memoryModelSteps(const Graph::Impl &graph) {
  return std::max<unsigned>(1, 2 * static_cast<unsigned>(graph.computeSets.size()));
}

std::shared_ptr<const Estimates>
estimateExecutable(const Graph::Impl &graph, Executable::Impl &exe,
                   const OptionFlags &options,
                   const std::function<void(unsigned)> &onSteps) {
  auto step = [&](unsigned n = 1) {
    if (onSteps)
      onSteps(n);
  };
  const auto start = std::chrono::steady_clock::now();
  auto est = std::make_shared<Estimates>();
  est->target = exe.target;
  est->replicationFactor = exe.replicationFactor;
  est->graph = graphStats(graph);

  // The vertex types used, in the graph's order.
  MemoryInputs memory;
  memory.computeSetUsed.assign(graph.computeSets.size(), false);
  memory.liveness.computeSetAccess.resize(graph.computeSets.size());
  std::vector<std::size_t> counts(graph.vertexTypes.size(), 0);
  for (const auto &v : graph.vertices)
    ++counts[v.type];
  memory.profileType.assign(graph.vertexTypes.size(), 0);
  for (std::size_t t = 0; t != graph.vertexTypes.size(); ++t) {
    if (counts[t] == 0)
      continue;
    memory.profileType[t] = static_cast<unsigned>(est->vertexTypes.size());
    est->vertexTypes.push_back(
        {graph.vertexTypes[t].name, vertexStateBytes(*graph.vertexTypes[t].info)});
  }

  const unsigned workers = exe.target.getNumWorkerContexts();
  est->vertexCycles.assign(graph.vertices.size(), 0);
  est->vertexComputeSet.assign(graph.vertices.size(), 0);
  est->vertexType.assign(graph.vertices.size(), 0);
  for (unsigned cs = 0; cs != exe.computeSets.size(); ++cs) {
    const auto &plan = exe.computeSets[cs];
    est->computeSets.push_back(
        estimateComputeSet(plan, exe.vertexTypes, memory.profileType, workers));
    for (const auto &v : plan.vertices) {
      est->vertexCycles[v.id] = vertexCycles(plan, v, exe.vertexTypes[v.type], workers);
      est->vertexComputeSet[v.id] = cs;
      est->vertexType[v.id] = memory.profileType[v.type];
    }
    step();
  }

  ProgramModeller(graph, exe, *est, memory).run();
  step();
  est->memory = computeMemory(graph, exe, *est, memory, options);
  step(memoryModelSteps(graph));

  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  est->optimizationInfo = {
      {"estimationSeconds", seconds},
      {"numSimulatedSteps", double(est->steps.size())},
      {"numPrograms", double(est->programs.size())}};
  return est;
}

} // namespace poplar::model
