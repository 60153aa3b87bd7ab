// Runs lowered programs. Data movement is planned at compile time; here it
// is carried out, with large copies shared among the host's threads
// (oneTBB). Every write goes to a distinct element, so results do not
// depend on the number of threads.
#include "runtime/EngineImpl.hpp"

#include "compile/CopyPlanning.hpp"
#include "core/ElementConversion.hpp"
#include "core/Logging.hpp"
#include "graph/StreamCallbackErrors.hpp"
#include "runtime/AdjacentRuns.hpp"
#include "runtime/ParallelFor.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cstring>

namespace poplar {
namespace {

// Below this many bytes, a copy runs on the calling thread.
constexpr std::size_t parallelCopyBytes = 256 * 1024;

// n elements of `Bytes` bytes, strides in elements. A copy of a size known
// at compile time is a move, not a call to memcpy per element.
template <std::size_t Bytes>
void copyStridedElements(unsigned char *dst, std::int64_t dstStride,
                         const unsigned char *src, std::int64_t srcStride,
                         std::size_t n) {
  const std::int64_t dstStep = dstStride * std::int64_t(Bytes);
  const std::int64_t srcStep = srcStride * std::int64_t(Bytes);
  for (std::size_t i = 0; i != n; ++i, dst += dstStep, src += srcStep)
    std::memcpy(dst, src, Bytes);
}

void copyStrided(unsigned char *dst, std::int64_t dstStride,
                 const unsigned char *src, std::int64_t srcStride,
                 std::size_t n, std::size_t bytes) {
  if (dstStride == 1 && srcStride == 1) {
    std::memmove(dst, src, n * bytes);
    return;
  }
  switch (bytes) {
  case 1:
    return copyStridedElements<1>(dst, dstStride, src, srcStride, n);
  case 2:
    return copyStridedElements<2>(dst, dstStride, src, srcStride, n);
  case 4:
    return copyStridedElements<4>(dst, dstStride, src, srcStride, n);
  case 8:
    return copyStridedElements<8>(dst, dstStride, src, srcStride, n);
  default:
    break;
  }
  for (std::size_t i = 0; i != n; ++i)
    std::memcpy(dst + std::int64_t(i) * dstStride * std::int64_t(bytes),
                src + std::int64_t(i) * srcStride * std::int64_t(bytes), bytes);
}

// Copies adjacentRunBlock segments at `seg` if they are a transposition:
// one source and one destination variable, one length, sources starting
// next to each other and stepping by one stride, destinations contiguous
// (a channel-innermost tensor copied into one with the channels outermost).
// Returns false, copying nothing, otherwise.
template <class Storage>
bool copyAdjacentSegments(const exec::CopySegment *seg, std::size_t bytes,
                          Storage &storage) {
  constexpr std::size_t block = runtime::adjacentRunBlock;
  const exec::CopySegment &first = seg[0];
  if (first.srcStride <= 1 || first.length < 2)
    return false;
  for (std::size_t j = 0; j != block; ++j)
    if (seg[j].srcVar != first.srcVar || seg[j].dstVar != first.dstVar ||
        seg[j].length != first.length || seg[j].srcStride != first.srcStride ||
        seg[j].dstStride != 1 ||
        seg[j].srcStart != first.srcStart + std::int64_t(j))
      return false;
  unsigned char *dst[block];
  for (std::size_t j = 0; j != block; ++j)
    dst[j] = storage[seg[j].dstVar].data() + seg[j].dstStart * bytes;
  const unsigned char *src =
      storage[first.srcVar].data() + first.srcStart * bytes;
  const std::int64_t stride = first.srcStride * std::int64_t(bytes);
  switch (bytes) {
  case 2:
    runtime::copyAdjacentRuns<2>(src, stride, dst, first.length);
    return true;
  case 4:
    runtime::copyAdjacentRuns<4>(src, stride, dst, first.length);
    return true;
  case 8:
    runtime::copyAdjacentRuns<8>(src, stride, dst, first.length);
    return true;
  default:
    return false;
  }
}

template <class F> void forEachIndex(std::size_t n, std::size_t bytes, F &&f) {
  if (n * bytes < parallelCopyBytes) {
    for (std::size_t i = 0; i != n; ++i)
      f(i);
    return;
  }
  runtime::parallelFor(std::size_t(0), n, [&](std::size_t i) { f(i); });
}

// Run i of a tensor access covers flattened elements [run.begin, ...).
template <class F>
void forEachRunChunk(const exec::TensorAccess &a, F &&f) {
  forEachIndex(a.runs.size(), a.numElements * a.elementBytes / (a.runs.size() + 1),
               [&](std::size_t r) { f(a.runs[r]); });
}

// The replicas a step runs on: all of them, or (inside control flow whose
// condition differs between replicas) those that took this path. Every
// step runs replica after replica, in ascending order.
using ReplicaSet = std::vector<unsigned>;

class Interpreter {
public:
  explicit Interpreter(Engine::Impl &engine)
      : e(engine), exe(*engine.exe),
        recorder(engine.recording ? engine.recorder.get() : nullptr) {}

  void runAll(const exec::Step &s) {
    ReplicaSet all(e.numReplicas());
    for (unsigned r = 0; r != all.size(); ++r)
      all[r] = r;
    run(s, all);
  }

private:
  void run(const exec::Step &s, const ReplicaSet &rs) {
    using K = exec::Step::Kind;
    // Control flow records its own steps each time it tests or loops;
    // everything else once, as it starts. The record follows one replica
    // (profiler.replicaToProfile, default 0): replicas run side by side,
    // so one replica's time is the run's.
    const bool record = recorder && profiled(rs);
    if (record && s.kind != K::Repeat && s.kind != K::RepeatWhile)
      simulate(s);
    switch (s.kind) {
    case K::Sequence:
      for (const auto &child : s.children)
        run(child, rs);
      return;
    case K::Execute:
      for (unsigned r : rs)
        e.computeSet(r, s.computeSet).execute();
      return;
    case K::Repeat:
      for (unsigned i = 0; i != s.count; ++i) {
        if (record)
          simulate(s);
        run(s.children[0], rs);
      }
      return;
    case K::RepeatWhile: {
      ReplicaSet looping = rs, next; // reused: loops may run many times
      for (;;) {
        run(s.children[0], looping);
        if (recorder && profiled(looping))
          simulate(s);
        next.clear();
        for (unsigned r : looping)
          if ((readScalar(r, s.scalar) != 0) == s.whileTrue)
            next.push_back(r);
        if (next.empty())
          return;
        looping.swap(next);
        run(s.children[1], looping);
      }
    }
    case K::If: {
      ReplicaSet taken, notTaken;
      for (unsigned r : rs)
        (readScalar(r, s.scalar) != 0 ? taken : notTaken).push_back(r);
      if (!taken.empty())
        run(s.children[0], taken);
      if (!notTaken.empty())
        run(s.children[1], notTaken);
      return;
    }
    case K::Switch:
      return runSwitch(s, rs);
    case K::CopyTensors:
      for (unsigned r : rs)
        copyTensors(s, e.replicas[r]);
      return;
    case K::StreamToTensor:
      return streamToTensor(s, rs);
    case K::TensorToStream:
      for (unsigned r : rs)
        tensorToStream(s, r);
      return;
    case K::RemoteToTensor:
    case K::TensorToRemote:
      for (unsigned r : rs)
        remoteCopy(s, r);
      return;
    case K::WriteUndef:
    case K::Sync:
      return; // no effect on values
    case K::Call:
      run(exe.functions[s.function], rs);
      return;
    case K::PrintTensor:
      for (unsigned r : rs)
        print(s, r);
      return;
    case K::Abort:
      throw application_runtime_error(
          "Abort" + (s.name.empty() ? "" : " '" + s.name + "'") +
          (s.text.empty() ? std::string() : ": " + s.text));
    case K::AbortOnCondition:
      for (unsigned r : rs)
        if (readScalar(r, s.scalar) != 0)
          throw application_runtime_error(
              "AbortOnCondition" + (s.name.empty() ? "" : " '" + s.name + "'") +
              (e.numReplicas() > 1 ? " in replica " + std::to_string(r)
                                   : std::string()) +
              (s.text.empty() ? std::string(": the condition was true")
                              : ": " + s.text));
      return;
    case K::CrossReplicaCopy:
      requireAllReplicas(s, rs);
      return crossReplicaCopy(s);
    case K::CrossReplicaCollective:
      requireAllReplicas(s, rs);
      return runCollective(e, s);
    }
  }

  bool profiled(const ReplicaSet &rs) const {
    return std::binary_search(rs.begin(), rs.end(), e.profiledReplica);
  }

  void simulate(const exec::Step &s) {
    if (s.simBegin != s.simEnd)
      recorder->record(s.simBegin, s.simEnd);
  }

  // Replicas exchange data only when every one of them reaches the step.
  void requireAllReplicas(const exec::Step &s, const ReplicaSet &rs) const {
    if (rs.size() != e.numReplicas())
      throw application_runtime_error(
          std::string(s.kind == exec::Step::Kind::CrossReplicaCopy
                          ? "CrossReplicaCopy"
                          : "Collective") +
          (s.name.empty() ? "" : " '" + s.name + "'") + ": only " +
          std::to_string(rs.size()) + " of the " +
          std::to_string(e.numReplicas()) +
          " replicas reached it (control flow took different paths in "
          "different replicas)");
  }

  const unsigned char *element(unsigned r, const exec::ScalarRef &ref) const {
    return e.replicas[r].storage[ref.var].data() +
           ref.element * exe.variables[ref.var].elementBytes;
  }

  double readScalar(unsigned r, const exec::ScalarRef &ref) const {
    return elementAsDouble(ref.type, element(r, ref));
  }

  long long readInteger(unsigned r, const exec::ScalarRef &ref) const {
    return elementAsInteger(ref.type, element(r, ref));
  }

  void runSwitch(const exec::Step &s, const ReplicaSet &rs) {
    // Replicas grouped by the branch they take, in branch order.
    std::vector<ReplicaSet> byBranch(s.children.size());
    for (unsigned r : rs) {
      const long long control = readInteger(r, s.scalar);
      std::size_t branch = 0;
      for (std::size_t i = 0; i != s.caseValues.size(); ++i)
        if (s.caseValues[i] == control) {
          branch = i + 1;
          break;
        }
      if (branch == 0 && s.boundsChecked)
        throw application_runtime_error(
            "Switch" + (s.name.empty() ? "" : " '" + s.name + "'") +
            ": control value " + std::to_string(control) +
            " matches no case");
      byBranch[branch].push_back(r);
    }
    for (std::size_t b = 0; b != byBranch.size(); ++b)
      if (!byBranch[b].empty())
        run(s.children[b], byBranch[b]);
  }

  void copyTensors(const exec::Step &s, ReplicaState &replica) {
    auto &storage = replica.storage;
    const std::size_t bytes = s.elementBytes;
    if (!s.staged) {
      // Blocks of segments, so that those that transpose (see
      // copyAdjacentSegments) are copied side by side.
      constexpr std::size_t block = runtime::adjacentRunBlock;
      const std::size_t blocks = (s.segments.size() + block - 1) / block;
      forEachIndex(
          blocks, s.copyElements * bytes / (blocks + 1), [&](std::size_t k) {
            const std::size_t begin = k * block;
            const std::size_t end = std::min(begin + block, s.segments.size());
            if (end - begin == block &&
                copyAdjacentSegments(&s.segments[begin], bytes, storage))
              return;
            for (std::size_t i = begin; i != end; ++i) {
              const auto &seg = s.segments[i];
              copyStrided(storage[seg.dstVar].data() + seg.dstStart * bytes,
                          seg.dstStride,
                          storage[seg.srcVar].data() + seg.srcStart * bytes,
                          seg.srcStride, seg.length, bytes);
            }
          });
      return;
    }
    // Source and destination overlap: read everything, then write.
    std::vector<std::size_t> offset(s.segments.size() + 1, 0);
    for (std::size_t i = 0; i != s.segments.size(); ++i)
      offset[i + 1] = offset[i] + s.segments[i].length;
    std::vector<unsigned char> staging(offset.back() * bytes);
    forEachIndex(s.segments.size(), staging.size() / (s.segments.size() + 1),
                 [&](std::size_t i) {
                   const auto &seg = s.segments[i];
                   copyStrided(staging.data() + offset[i] * bytes, 1,
                               storage[seg.srcVar].data() + seg.srcStart * bytes,
                               seg.srcStride, seg.length, bytes);
                 });
    forEachIndex(s.segments.size(), staging.size() / (s.segments.size() + 1),
                 [&](std::size_t i) {
                   const auto &seg = s.segments[i];
                   copyStrided(storage[seg.dstVar].data() + seg.dstStart * bytes,
                               seg.dstStride, staging.data() + offset[i] * bytes,
                               1, seg.length, bytes);
                 });
  }

  void crossReplicaCopy(const exec::Step &s) {
    // Every source is read before any destination is written.
    const std::size_t bytes = s.access.numElements * s.access.elementBytes;
    std::vector<unsigned char> staging(bytes * e.numReplicas());
    for (unsigned r = 0; r != e.numReplicas(); ++r)
      if (s.replicaMap[r] != exec::Step::noReplica)
        gatherElements(e.replicas[r], s.access, staging.data() + r * bytes);
    for (unsigned r = 0; r != e.numReplicas(); ++r)
      if (s.replicaMap[r] != exec::Step::noReplica)
        scatterElements(e.replicas[s.replicaMap[r]], s.dstAccess,
                        staging.data() + r * bytes);
  }

  // The host memory the next transfer of a stream uses.
  unsigned char *nextTransfer(StreamConnection &c, std::size_t bytes) {
    if (c.callback) {
      e.transferBuffer.resize(bytes);
      return e.transferBuffer.data();
    }
    unsigned char *p = c.begin + c.position;
    c.position += bytes;
    if (c.begin + c.position >= c.end)
      c.position = 0;
    return p;
  }

  void streamToTensor(const exec::Step &s, const ReplicaSet &rs) {
    const std::size_t bytes = exe.streams[s.stream].bytes();
    if (exe.streams[s.stream].broadcast) {
      // One transfer, received by every replica.
      const unsigned char *data = receive(e.connection(s.stream, 0), bytes);
      for (unsigned r : rs)
        scatterElements(e.replicas[r], s.access, data);
      finishReceive(e.connection(s.stream, 0));
      return;
    }
    for (unsigned r : rs) {
      StreamConnection &c = e.connection(s.stream, r);
      scatterElements(e.replicas[r], s.access, receive(c, bytes));
      finishReceive(c);
    }
  }

  // The data of the next host-to-device transfer of c.
  const unsigned char *receive(StreamConnection &c, std::size_t bytes) {
    if (!c.callback)
      return nextTransfer(c, bytes);
    // The data prefetched after the previous transfer, else fetched now.
    c.prefetchBuffer.resize(bytes);
    if (!c.prefetched) {
      c.callback->fetch(c.prefetchBuffer.data());
      rethrowStreamCallbackError();
    }
    c.prefetched = false;
    return c.prefetchBuffer.data();
  }

  void finishReceive(StreamConnection &c) {
    if (!c.callback)
      return;
    c.callback->complete();
    // The stream buffer is free again: fill it for the next transfer.
    if (e.prefetch && !c.sharedCallback)
      c.prefetched = c.callback->prefetch(c.prefetchBuffer.data()) ==
                     StreamCallback::Result::Success;
  }

  void tensorToStream(const exec::Step &s, unsigned r) {
    StreamConnection &c = e.connection(s.stream, r);
    const std::size_t bytes = exe.streams[s.stream].bytes();
    unsigned char *data = nextTransfer(c, bytes);
    gatherElements(e.replicas[r], s.access, data);
    if (c.callback) {
      c.callback->fetch(data);
      rethrowStreamCallbackError();
      c.callback->complete();
    }
  }

  void remoteCopy(const exec::Step &s, unsigned r) {
    const auto &info = exe.remoteBuffers[s.remoteBuffer];
    ReplicaState &replica = e.replicas[r];
    auto &buffer = replica.remoteStorage[s.remoteBuffer];
    const std::size_t rowBytes = info.numElements * info.elementBytes;
    std::vector<std::size_t> rows;
    if (s.offsets.empty())
      rows.push_back(0);
    for (const auto &ref : s.offsets) {
      const long long row = readInteger(r, ref);
      if (row < 0 || static_cast<std::size_t>(row) >= info.repeats)
        throw runtime_error("Copy" + (s.name.empty() ? "" : " '" + s.name + "'") +
                            ": row " + std::to_string(row) +
                            " is out of range for remote buffer '" +
                            info.handle + "' of " +
                            std::to_string(info.repeats) + " rows");
      rows.push_back(static_cast<std::size_t>(row));
    }
    std::vector<unsigned char> staging(rows.size() * rowBytes);
    if (s.kind == exec::Step::Kind::RemoteToTensor) {
      for (std::size_t i = 0; i != rows.size(); ++i)
        std::memcpy(staging.data() + i * rowBytes,
                    buffer.data() + rows[i] * rowBytes, rowBytes);
      scatterElements(replica, s.access, staging.data());
    } else {
      gatherElements(replica, s.access, staging.data());
      for (std::size_t i = 0; i != rows.size(); ++i)
        std::memcpy(buffer.data() + rows[i] * rowBytes,
                    staging.data() + i * rowBytes, rowBytes);
    }
  }

  void print(const exec::Step &s, unsigned r) {
    std::vector<unsigned char> data(s.access.numElements * s.access.elementBytes);
    gatherElements(e.replicas[r], s.access, data.data());
    if (s.formatted)
      printFormattedTensor(*e.printStream, s.text, s.printFormat, s.access,
                           data.data());
    else
      printTensor(*e.printStream, s.text, s.access, data.data());
  }

  Engine::Impl &e;
  const Executable::Impl &exe;
  model::ExecutionRecorder *recorder;
};

} // namespace

void gatherElements(const ReplicaState &replica, const exec::TensorAccess &a,
                    unsigned char *dst) {
  const std::size_t bytes = a.elementBytes;
  forEachRunChunk(a, [&](const layout::FlatRun &run) {
    copyStrided(dst + run.begin * bytes, 1,
                replica.storage[run.var].data() + run.start * bytes, run.stride,
                run.length, bytes);
  });
}

void scatterElements(ReplicaState &replica, const exec::TensorAccess &a,
                     const unsigned char *src) {
  const std::size_t bytes = a.elementBytes;
  forEachRunChunk(a, [&](const layout::FlatRun &run) {
    copyStrided(replica.storage[run.var].data() + run.start * bytes, run.stride,
                src + run.begin * bytes, 1, run.length, bytes);
  });
}

void runProgram(Engine::Impl &engine, const exec::Step &program) {
  Interpreter(engine).runAll(program);
}

} // namespace poplar
