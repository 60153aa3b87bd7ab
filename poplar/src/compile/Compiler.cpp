// Compiling a graph: check that everything the programs use is well formed
// and mapped, then lower each program to steps with planned data movement.
#include "compile/ExecutableImpl.hpp"
#include "compile/CopyPlanning.hpp"

#include "core/Logging.hpp"
#include "core/TypeInfo.hpp"
#include "graph/GraphImpl.hpp"
#include "model/Estimates.hpp"
#include "model/MemoryModel.hpp"
#include "model/ProgramModel.hpp"
#include "profiling/Profiles.hpp"
#include "program/ProgramImpl.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>

namespace poplar {
namespace {

using program::Program;
using Kind = Program::Impl::Kind;
using CopyKind = Program::Impl::CopyKind;

std::string describe(const Program::Impl &p) {
  std::string s = p.kindName();
  if (!p.debugName.empty())
    s += " '" + p.debugName + "'";
  return s;
}

exec::TensorAccess tensorAccess(const Tensor &t) {
  exec::TensorAccess a;
  a.runs = layout::flatRuns(t);
  a.numElements = t.numElements();
  a.type = t.elementType();
  a.elementBytes = typeSize(a.type);
  a.shape = t.shape();
  a.name = t.getDebugStr();
  return a;
}

[[noreturn]] void fail(const Program::Impl &p, const std::string &message) {
  throw graph_program_compilation_error(describe(p) + ": " + message);
}

class ProgramLowering {
public:
  ProgramLowering(const Graph::Impl &graph, Executable::Impl &exe)
      : graph(graph), exe(exe) {}

  exec::Step lowerProgram(const Program &p, std::set<std::size_t> &streams) {
    usedStreams = &streams;
    return lower(p);
  }

  void lowerFunctions() {
    exe.functions.resize(graph.functions.size());
    functionStreams.resize(graph.functions.size());
    functionState.assign(graph.functions.size(), State::NotLowered);
    for (std::size_t f = 0; f != graph.functions.size(); ++f)
      lowerFunction(f);
  }

  const std::set<std::size_t> &streamsOfFunction(std::size_t f) const {
    return functionStreams[f];
  }

private:
  enum class State { NotLowered, Lowering, Lowered };

  void lowerFunction(std::size_t f) {
    if (functionState[f] == State::Lowered)
      return;
    if (functionState[f] == State::Lowering)
      throw graph_cycle_error("Function " + std::to_string(f) +
                              " calls itself (directly or through other "
                              "functions): recursion is not supported");
    functionState[f] = State::Lowering;
    std::set<std::size_t> *saved = usedStreams;
    std::set<std::size_t> streams;
    usedStreams = &streams;
    exe.functions[f] = lower(graph.functions[f]);
    usedStreams = saved;
    functionStreams[f] = std::move(streams);
    functionState[f] = State::Lowered;
  }

  exec::TensorAccess access(const Program::Impl &p, const Tensor &t,
                            const char *role) {
    if (!t.valid())
      fail(p, std::string("the ") + role + " tensor is not valid");
    graph.checkOwnership(t, describe(p));
    return tensorAccess(t);
  }

  exec::ScalarRef scalar(const Program::Impl &p, const Tensor &t,
                         const char *role, bool requireInteger = false) {
    exec::TensorAccess a = access(p, t, role);
    if (a.numElements != 1)
      fail(p, std::string("the ") + role + " '" + a.name +
                  "' must have exactly one element, it has " +
                  std::to_string(a.numElements));
    if (requireInteger && !isIntegral(a.type))
      fail(p, std::string("the ") + role + " '" + a.name +
                  "' must be an integer, not " + a.type.toString().str());
    return {a.runs[0].var, static_cast<std::size_t>(a.runs[0].start), a.type};
  }

  void checkWritable(const Program::Impl &p, const Tensor &t) {
    if (t.containsConstant())
      fail(p, "the destination '" + t.getDebugStr() + "' is a constant");
    if (t.containsAliases())
      fail(p, "the destination '" + t.getDebugStr() +
                  "' refers to some elements more than once");
  }

  exec::Step base(const Program::Impl &p, exec::Step::Kind kind) {
    exec::Step s;
    s.kind = kind;
    s.name = p.debugName;
    return s;
  }

  exec::Step lower(const Program &prog) {
    const Program::Impl &p = prog.getImpl();
    using SK = exec::Step::Kind;
    switch (p.kind) {
    case Kind::Empty:
      return base(p, SK::Sequence);
    case Kind::Sequence: {
      exec::Step s = base(p, SK::Sequence);
      s.children.reserve(p.children.size());
      for (const auto &child : p.children)
        s.children.push_back(lower(child));
      return s;
    }
    case Kind::Execute: {
      if (!p.computeSet.valid() ||
          p.computeSet.getId() >= graph.computeSets.size())
        fail(p, "compute set " + std::to_string(p.computeSet.getId()) +
                    " does not exist in this graph");
      exec::Step s = base(p, SK::Execute);
      s.computeSet = p.computeSet.getId();
      return s;
    }
    case Kind::Repeat: {
      exec::Step s = base(p, SK::Repeat);
      s.count = p.count;
      s.children = {lower(p.children[0])};
      return s;
    }
    case Kind::RepeatWhile: {
      exec::Step s = base(p, SK::RepeatWhile);
      s.whileTrue = p.whileTrue;
      s.scalar = scalar(p, p.tensors[0], "predicate");
      s.children = {lower(p.children[0]), lower(p.children[1])};
      return s;
    }
    case Kind::If: {
      exec::Step s = base(p, SK::If);
      s.scalar = scalar(p, p.tensors[0], "predicate");
      s.children = {lower(p.children[0]), lower(p.children[1])};
      return s;
    }
    case Kind::Switch: {
      exec::Step s = base(p, SK::Switch);
      s.scalar = scalar(p, p.tensors[0], "control", true);
      s.caseValues = p.caseValues;
      s.boundsChecked = p.switchBoundsChecked;
      for (const auto &child : p.children)
        s.children.push_back(lower(child));
      return s;
    }
    case Kind::Copy:
      return lowerCopy(p);
    case Kind::WriteUndef: {
      exec::Step s = base(p, SK::WriteUndef);
      s.access = access(p, p.tensors[0], "undefined");
      return s;
    }
    case Kind::Sync: {
      exec::Step s = base(p, SK::Sync);
      s.syncType = p.syncType;
      return s;
    }
    case Kind::Call: {
      const unsigned f = p.function.getId();
      if (f >= graph.functions.size())
        fail(p, "function " + std::to_string(f) + " does not exist in this graph");
      lowerFunction(f);
      usedStreams->insert(functionStreams[f].begin(), functionStreams[f].end());
      exec::Step s = base(p, SK::Call);
      s.function = f;
      return s;
    }
    case Kind::PrintTensor: {
      exec::Step s = base(p, SK::PrintTensor);
      s.access = access(p, p.tensors[0], "printed");
      s.text = p.text;
      if (p.printFmt) {
        const PrintTensorFmt &f = *p.printFmt;
        if (static_cast<unsigned>(f.floatFormat) > 3)
          throw poplar_error("PrintTensor '" + p.text + "': " +
                             std::to_string(static_cast<unsigned>(f.floatFormat)) +
                             " is not a PrintTensorFmt::FloatFormat");
        s.formatted = true;
        s.printFormat = {f.summariseThreshold, f.edgeItems, f.maxLineWidth,
                         f.digits, static_cast<std::uint32_t>(f.floatFormat),
                         f.separator, f.openBracket, f.closeBracket};
      }
      return s;
    }
    case Kind::Abort: {
      exec::Step s = base(p, SK::Abort);
      s.text = p.text;
      return s;
    }
    case Kind::CrossReplicaCopy:
      return lowerCrossReplicaCopy(p);
    case Kind::CrossReplicaCollective:
      return lowerCollective(p);
    case Kind::AbortOnCondition: {
      exec::Step s = base(p, SK::AbortOnCondition);
      s.scalar = scalar(p, p.tensors[0], "predicate");
      s.text = p.text;
      return s;
    }
    }
    fail(p, "unknown program kind");
  }

  // The source and destination of a cross-replica step, checked.
  exec::Step crossReplicaBase(const Program::Impl &p, exec::Step::Kind kind) {
    exec::Step s = base(p, kind);
    s.access = access(p, p.tensors[0], "source");
    s.dstAccess = access(p, p.tensors[1], "destination");
    if (s.access.type != s.dstAccess.type)
      fail(p, "the source '" + s.access.name + "' is " +
                  s.access.type.toString().str() + " but the destination '" +
                  s.dstAccess.name + "' is " +
                  s.dstAccess.type.toString().str());
    checkWritable(p, p.tensors[1]);
    if (p.tensors[0].intersectsWith(p.tensors[1]) &&
        kind == exec::Step::Kind::CrossReplicaCopy)
      fail(p, "the source '" + s.access.name + "' and the destination '" +
                  s.dstAccess.name + "' overlap");
    return s;
  }

  exec::Step lowerCrossReplicaCopy(const Program::Impl &p) {
    exec::Step s = crossReplicaBase(p, exec::Step::Kind::CrossReplicaCopy);
    if (s.access.numElements != s.dstAccess.numElements)
      fail(p, "the source '" + s.access.name + "' has " +
                  std::to_string(s.access.numElements) +
                  " elements but the destination '" + s.dstAccess.name +
                  "' has " + std::to_string(s.dstAccess.numElements));
    const unsigned n = graph.replicationFactor;
    s.replicaMap.assign(n, exec::Step::noReplica);
    std::vector<bool> received(n, false);
    for (const auto &[from, to] : p.replicaMap) {
      if (from >= n || to >= n)
        fail(p, "the replica map names replica " +
                    std::to_string(std::max(from, to)) + " but the graph has " +
                    std::to_string(n));
      if (received[to])
        fail(p, "replica " + std::to_string(to) +
                    " receives from more than one replica");
      received[to] = true;
      s.replicaMap[from] = to;
    }
    return s;
  }

  // The groups of a collective: equal sizes, every replica once.
  std::vector<std::vector<unsigned>> checkedGroups(const Program::Impl &p) {
    const unsigned replicas = graph.replicationFactor;
    auto groups = p.replicaGroups;
    if (groups.empty()) {
      groups.emplace_back(replicas);
      for (unsigned r = 0; r != replicas; ++r)
        groups[0][r] = r;
    }
    std::vector<bool> seen(replicas, false);
    for (const auto &g : groups) {
      if (g.size() != groups[0].size() || g.empty())
        fail(p, "the replica groups are not all of the same (non-zero) size");
      for (unsigned r : g) {
        if (r >= replicas)
          fail(p, "a replica group names replica " + std::to_string(r) +
                      " but the graph has " + std::to_string(replicas));
        if (seen[r])
          fail(p, "replica " + std::to_string(r) + " is in two replica groups");
        seen[r] = true;
      }
    }
    if (std::find(seen.begin(), seen.end(), false) != seen.end())
      fail(p, "the replica groups leave out some of the " +
                  std::to_string(replicas) + " replicas");
    return groups;
  }

  exec::Step lowerCollective(const Program::Impl &p) {
    using C = detail::CrossReplicaCollective;
    using Op = detail::CrossReplicaOperator;
    exec::Step s = crossReplicaBase(p, exec::Step::Kind::CrossReplicaCollective);
    s.collective = p.collective;
    s.collectiveOp = p.collectiveOp;
    s.replicaGroups = checkedGroups(p);
    const std::size_t n = s.replicaGroups[0].size();
    const std::size_t N = s.access.numElements;
    const std::size_t expected = p.collective == C::AllReduce ? N
                                 : p.collective == C::ReduceScatter
                                     ? (N + n - 1) / n
                                     : N * n;
    if (s.dstAccess.numElements != expected)
      fail(p, "the destination '" + s.dstAccess.name + "' has " +
                  std::to_string(s.dstAccess.numElements) + " elements but " +
                  std::to_string(expected) + " are needed for " +
                  std::to_string(N) + " source elements over " +
                  std::to_string(n) + " replicas");
    const bool logical =
        p.collectiveOp == Op::LOGICAL_AND || p.collectiveOp == Op::LOGICAL_OR;
    if (p.collective != C::AllGather) {
      if (logical && s.access.type != BOOL)
        fail(p, "a logical reduction needs a bool tensor, not " +
                    s.access.type.toString().str());
      if (!logical && s.access.type == BOOL && p.collectiveOp != Op::LOCAL)
        fail(p, "only LOGICAL_AND, LOGICAL_OR and LOCAL reduce bool tensors");
      if (!isFloatingPoint(s.access.type) && !isIntegral(s.access.type) &&
          s.access.type != BOOL)
        fail(p, "cannot reduce elements of type " +
                    s.access.type.toString().str());
    }
    if (p.tensors[0].intersectsWith(p.tensors[1]) &&
        p.collective != C::AllReduce)
      fail(p, "the source '" + s.access.name + "' and the destination '" +
                  s.dstAccess.name + "' overlap");
    return s;
  }

  exec::Step lowerCopy(const Program::Impl &p) {
    using SK = exec::Step::Kind;
    switch (p.copyKind) {
    case CopyKind::TensorToTensor: {
      exec::Step s = base(p, SK::CopyTensors);
      const Tensor &src = p.tensors[0], &dst = p.tensors[1];
      exec::TensorAccess from = access(p, src, "source");
      exec::TensorAccess to = access(p, dst, "destination");
      if (from.numElements != to.numElements)
        fail(p, "the source '" + from.name + "' has " +
                    std::to_string(from.numElements) +
                    " elements but the destination '" + to.name + "' has " +
                    std::to_string(to.numElements));
      if (from.type != to.type)
        fail(p, "the source '" + from.name + "' is " +
                    from.type.toString().str() + " but the destination '" +
                    to.name + "' is " + to.type.toString().str());
      checkWritable(p, dst);
      s.segments = planCopy(from.runs, to.runs);
      s.elementBytes = from.elementBytes;
      s.copyElements = from.numElements;
      s.staged = src.intersectsWith(dst);
      return s;
    }
    case CopyKind::StreamToTensor:
    case CopyKind::TensorToStream: {
      const bool toTensor = p.copyKind == CopyKind::StreamToTensor;
      exec::Step s = base(p, toTensor ? SK::StreamToTensor : SK::TensorToStream);
      if (!p.stream.valid())
        fail(p, "the stream is not valid");
      const DataStream::Impl &stream = p.stream.getImpl();
      if (stream.graphId != graph.id)
        fail(p, "stream '" + stream.handle + "' belongs to another graph");
      const auto expected = toTensor ? DataStreamType::HostToDeviceFIFO
                                     : DataStreamType::DeviceToHostFIFO;
      if (stream.type != expected)
        fail(p, "stream '" + stream.handle + "' is a " +
                    (toTensor ? "device-to-host" : "host-to-device") +
                    " stream and cannot be copied " +
                    (toTensor ? "from" : "to"));
      s.access = access(p, p.tensors[0], toTensor ? "destination" : "source");
      if (s.access.numElements != stream.numElements)
        fail(p, "stream '" + stream.handle + "' carries " +
                    std::to_string(stream.numElements) + " elements but tensor '" +
                    s.access.name + "' has " +
                    std::to_string(s.access.numElements));
      if (s.access.type != stream.elementType)
        fail(p, "stream '" + stream.handle + "' is " +
                    stream.elementType.toString().str() + " but tensor '" +
                    s.access.name + "' is " + s.access.type.toString().str());
      if (toTensor)
        checkWritable(p, p.tensors[0]);
      s.stream = stream.id;
      usedStreams->insert(stream.id);
      return s;
    }
    case CopyKind::RemoteToTensor:
    case CopyKind::TensorToRemote: {
      const bool toTensor = p.copyKind == CopyKind::RemoteToTensor;
      exec::Step s = base(p, toTensor ? SK::RemoteToTensor : SK::TensorToRemote);
      if (!p.remoteBuffer.valid())
        fail(p, "the remote buffer is not valid");
      const RemoteBuffer::Impl &buffer = p.remoteBuffer.getImpl();
      if (buffer.graphId != graph.id)
        fail(p, "remote buffer '" + buffer.handle + "' belongs to another graph");
      s.access = access(p, p.tensors[0], toTensor ? "destination" : "source");
      if (s.access.type != buffer.elementType)
        fail(p, "remote buffer '" + buffer.handle + "' is " +
                    buffer.elementType.toString().str() + " but tensor '" +
                    s.access.name + "' is " + s.access.type.toString().str());
      if (toTensor)
        checkWritable(p, p.tensors[0]);
      std::size_t rows = 1;
      if (p.tensors.size() == 2) {
        exec::TensorAccess offsets = access(p, p.tensors[1], "offset");
        if (!isIntegral(offsets.type))
          fail(p, "the offset '" + offsets.name + "' must be an integer tensor");
        rows = offsets.numElements;
        for (const auto &run : offsets.runs)
          for (std::size_t i = 0; i != run.length; ++i)
            s.offsets.push_back(
                {run.var,
                 static_cast<std::size_t>(run.start + run.stride * std::int64_t(i)),
                 offsets.type});
      }
      if (rows == 0 || s.access.numElements != rows * buffer.numElements)
        fail(p, "tensor '" + s.access.name + "' has " +
                    std::to_string(s.access.numElements) +
                    " elements but " + std::to_string(rows) +
                    " row(s) of remote buffer '" + buffer.handle + "' hold " +
                    std::to_string(rows * buffer.numElements));
      s.remoteBuffer = buffer.id;
      return s;
    }
    }
    fail(p, "unknown copy kind");
  }

  const Graph::Impl &graph;
  Executable::Impl &exe;
  std::set<std::size_t> *usedStreams = nullptr;
  std::vector<std::set<std::size_t>> functionStreams;
  std::vector<State> functionState;
};

void checkTileMapping(const Graph::Impl &graph) {
  if (graph.target.getTargetType() == TargetType::CPU)
    return; // the CPU runs everything as one tile: no mapping needed
  for (const auto &v : graph.variables) {
    const std::size_t unmapped = v.mapping.countUnmapped(v.numElements);
    if (unmapped != 0) {
      const std::size_t first = v.mapping.firstUnmapped(v.numElements);
      throw invalid_tile_mapping(
          std::string(v.isConstant ? "Constant" : "Variable") + " '" + v.name +
          "' has " + std::to_string(unmapped) + " of its " +
          std::to_string(v.numElements) +
          " elements without a tile mapping (the first is element " +
          std::to_string(first) + "): map it with Graph::setTileMapping");
    }
  }
}

// The edges' storage ranges serve the estimates only.
void releaseEdgeStorage(Executable::Impl &exe) {
  for (auto &cs : exe.computeSets)
    for (auto &edge : cs.gathered)
      std::vector<layout::StorageRange>().swap(edge.storage);
}

} // namespace

std::unique_ptr<Executable::Impl>
compileToExecutable(const Graph &graphObject, ArrayRef<program::Program> progs,
                    const OptionFlags &options, const ProgressFunc &progress) {
  const auto start = std::chrono::steady_clock::now();
  const Graph::Impl &graph = graphObject.getImpl();
  // The progress (step, totalSteps): one step per compute set lowered, per
  // program lowered, and on IPU targets per compute set estimated, for the
  // program model and the memory model's share; 0 first, totalSteps last.
  const bool ipu = graph.target.getTargetType() != TargetType::CPU;
  const int numComputeSets = static_cast<int>(graph.computeSets.size());
  const int totalSteps =
      1 + numComputeSets + static_cast<int>(progs.size()) +
      (ipu ? numComputeSets + 1 + static_cast<int>(model::memoryModelSteps(graph))
           : 0);
  int done = 0;
  auto report = [&](int step) {
    if (progress)
      progress(step, totalSteps);
  };
  auto ticks = [&](unsigned n) {
    done += static_cast<int>(n);
    report(std::min(done, totalSteps - 1));
  };
  auto tick = [&] { ticks(1); };
  report(0);
  checkTileMapping(graph);

  auto exe = std::make_unique<Executable::Impl>();
  exe->target = graph.target;
  exe->replicationFactor = graph.replicationFactor;
  exe->deviceTarget = graph.deviceTarget;
  exe->variables.reserve(graph.variables.size());
  for (const auto &v : graph.variables)
    exe->variables.push_back({v.name, v.type, v.numElements, typeSize(v.type),
                              v.isConstant, v.initialValue,
                              v.isReplicationIndex, v.isHwSeedState});
  for (const auto &s : graph.streams)
    exe->streams.push_back({s->handle, s->elementType, s->numElements,
                            typeSize(s->elementType), s->type,
                            s->replicatedMode == ReplicatedStreamMode::BROADCAST});
  for (const auto &b : graph.remoteBuffers)
    exe->remoteBuffers.push_back({b->handle, b->elementType, b->numElements,
                                  b->repeats, typeSize(b->elementType)});
  for (const auto &[name, h] : graph.hostWrites)
    exe->hostWrites.emplace(name, tensorAccess(h.tensor));
  for (const auto &[name, h] : graph.hostReads)
    exe->hostReads.emplace(name, tensorAccess(h.tensor));
  lowerComputeSets(graph, *exe, progress ? std::function<void()>(tick)
                                         : std::function<void()>());

  ProgramLowering lowering(graph, *exe);
  lowering.lowerFunctions();
  exe->streamsUsed.resize(progs.size());
  for (std::size_t i = 0; i != progs.size(); ++i) {
    exe->programs.push_back(lowering.lowerProgram(progs[i], exe->streamsUsed[i]));
    tick();
  }

  // IPU targets: cycle and memory estimates, and the memory check.
  if (ipu) {
    exe->estimates = model::estimateExecutable(
        graph, *exe, options,
        progress ? std::function<void(unsigned)>(ticks)
                 : std::function<void(unsigned)>());
    releaseEdgeStorage(*exe);
    const std::string oom = model::outOfMemoryReport(graph, *exe->estimates);
    if (!oom.empty()) {
      auto allow = options.find("debug.allowOutOfMemory");
      if (allow == options.end() || allow->second != "true")
        throw graph_memory_allocation_error(
            oom, profiling::graphProfile(*exe->estimates));
      logging::warn(logging::Module::Compiler,
                    "The graph does not fit in memory, but "
                    "debug.allowOutOfMemory is set. {}",
                    oom);
    }
  }

  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  logging::info(logging::Module::Compiler,
                "Compiled graph: {} variables, {} programs, {} functions in "
                "{:.3f} s",
                exe->variables.size(), exe->programs.size(),
                exe->functions.size(), seconds);
  report(totalSteps);
  return exe;
}

} // namespace poplar
