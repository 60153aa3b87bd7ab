// Runs lowered programs. Data movement is planned at compile time; here it
// is carried out, with large copies shared among the host's threads
// (oneTBB). Every write goes to a distinct element, so results do not
// depend on the number of threads.
#include "runtime/EngineImpl.hpp"

#include "compile/CopyPlanning.hpp"
#include "graph/StreamCallbackErrors.hpp"
#include "core/ElementConversion.hpp"
#include "core/Logging.hpp"

#include <poplar/exceptions.hpp>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

namespace poplar {
namespace {

// Below this many bytes, a copy runs on the calling thread.
constexpr std::size_t parallelCopyBytes = 256 * 1024;

void copyStrided(unsigned char *dst, std::int64_t dstStride,
                 const unsigned char *src, std::int64_t srcStride,
                 std::size_t n, std::size_t bytes) {
  if (dstStride == 1 && srcStride == 1) {
    std::memmove(dst, src, n * bytes);
    return;
  }
  for (std::size_t i = 0; i != n; ++i)
    std::memcpy(dst + std::int64_t(i) * dstStride * std::int64_t(bytes),
                src + std::int64_t(i) * srcStride * std::int64_t(bytes), bytes);
}

template <class F> void forEachIndex(std::size_t n, std::size_t bytes, F &&f) {
  if (n * bytes < parallelCopyBytes) {
    for (std::size_t i = 0; i != n; ++i)
      f(i);
    return;
  }
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { f(i); });
}

// Run i of a tensor access covers flattened elements [run.begin, ...).
template <class F>
void forEachRunChunk(const exec::TensorAccess &a, F &&f) {
  forEachIndex(a.runs.size(), a.numElements * a.elementBytes / (a.runs.size() + 1),
               [&](std::size_t r) { f(a.runs[r]); });
}

class Interpreter {
public:
  explicit Interpreter(Engine::Impl &engine)
      : e(engine), exe(*engine.exe),
        recorder(engine.recording ? engine.recorder.get() : nullptr) {}

  void run(const exec::Step &s) {
    using K = exec::Step::Kind;
    // Control flow records its own steps each time it tests or loops;
    // everything else once, as it starts.
    if (recorder && s.kind != K::Repeat && s.kind != K::RepeatWhile)
      simulate(s);
    switch (s.kind) {
    case K::Sequence:
      for (const auto &child : s.children)
        run(child);
      return;
    case K::Execute:
      e.computeSet(s.computeSet).execute();
      return;
    case K::Repeat:
      for (unsigned i = 0; i != s.count; ++i) {
        if (recorder)
          simulate(s);
        run(s.children[0]);
      }
      return;
    case K::RepeatWhile:
      for (;;) {
        run(s.children[0]);
        if (recorder)
          simulate(s);
        if ((readScalar(s.scalar) != 0) != s.whileTrue)
          return;
        run(s.children[1]);
      }
    case K::If:
      run(readScalar(s.scalar) != 0 ? s.children[0] : s.children[1]);
      return;
    case K::Switch:
      return runSwitch(s);
    case K::CopyTensors:
      return copyTensors(s);
    case K::StreamToTensor:
      return streamToTensor(s);
    case K::TensorToStream:
      return tensorToStream(s);
    case K::RemoteToTensor:
    case K::TensorToRemote:
      return remoteCopy(s);
    case K::WriteUndef:
    case K::Sync:
      return; // no effect on values
    case K::Call:
      run(exe.functions[s.function]);
      return;
    case K::PrintTensor:
      return print(s);
    case K::Abort:
      throw application_runtime_error(
          "Abort" + (s.name.empty() ? "" : " '" + s.name + "'") +
          (s.text.empty() ? std::string() : ": " + s.text));
    case K::AbortOnCondition:
      if (readScalar(s.scalar) != 0)
        throw application_runtime_error(
            "AbortOnCondition" + (s.name.empty() ? "" : " '" + s.name + "'") +
            (s.text.empty() ? std::string(": the condition was true")
                            : ": " + s.text));
      return;
    }
  }

private:
  void simulate(const exec::Step &s) {
    if (s.simBegin != s.simEnd)
      recorder->record(s.simBegin, s.simEnd);
  }

  double readScalar(const exec::ScalarRef &ref) const {
    const auto &var = e.storage[ref.var];
    return elementAsDouble(ref.type,
                           var.data() + ref.element * exe.variables[ref.var].elementBytes);
  }

  long long readInteger(const exec::ScalarRef &ref) const {
    const auto &var = e.storage[ref.var];
    return elementAsInteger(ref.type, var.data() + ref.element *
                                                     exe.variables[ref.var].elementBytes);
  }

  void runSwitch(const exec::Step &s) {
    const long long control = readInteger(s.scalar);
    for (std::size_t i = 0; i != s.caseValues.size(); ++i)
      if (s.caseValues[i] == control)
        return run(s.children[i + 1]);
    if (s.boundsChecked)
      throw application_runtime_error(
          "Switch" + (s.name.empty() ? "" : " '" + s.name + "'") +
          ": control value " + std::to_string(control) +
          " matches no case");
    run(s.children[0]);
  }

  void copyTensors(const exec::Step &s) {
    const std::size_t bytes = s.elementBytes;
    if (!s.staged) {
      forEachIndex(s.segments.size(), s.copyElements * bytes / (s.segments.size() + 1),
                   [&](std::size_t i) {
                     const auto &seg = s.segments[i];
                     copyStrided(e.storage[seg.dstVar].data() + seg.dstStart * bytes,
                                 seg.dstStride,
                                 e.storage[seg.srcVar].data() + seg.srcStart * bytes,
                                 seg.srcStride, seg.length, bytes);
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
                               e.storage[seg.srcVar].data() + seg.srcStart * bytes,
                               seg.srcStride, seg.length, bytes);
                 });
    forEachIndex(s.segments.size(), staging.size() / (s.segments.size() + 1),
                 [&](std::size_t i) {
                   const auto &seg = s.segments[i];
                   copyStrided(e.storage[seg.dstVar].data() + seg.dstStart * bytes,
                               seg.dstStride, staging.data() + offset[i] * bytes,
                               1, seg.length, bytes);
                 });
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

  void streamToTensor(const exec::Step &s) {
    StreamConnection &c = e.streams[s.stream];
    const std::size_t bytes = exe.streams[s.stream].bytes();
    if (!c.callback) {
      scatterElements(e, s.access, nextTransfer(c, bytes));
      return;
    }
    // The data prefetched after the previous transfer, else fetched now.
    c.prefetchBuffer.resize(bytes);
    if (!c.prefetched) {
      c.callback->fetch(c.prefetchBuffer.data());
      rethrowStreamCallbackError();
    }
    c.prefetched = false;
    scatterElements(e, s.access, c.prefetchBuffer.data());
    c.callback->complete();
    // The stream buffer is free again: fill it for the next transfer.
    if (e.prefetch)
      c.prefetched = c.callback->prefetch(c.prefetchBuffer.data()) ==
                     StreamCallback::Result::Success;
  }

  void tensorToStream(const exec::Step &s) {
    StreamConnection &c = e.streams[s.stream];
    const std::size_t bytes = exe.streams[s.stream].bytes();
    unsigned char *data = nextTransfer(c, bytes);
    gatherElements(e, s.access, data);
    if (c.callback) {
      c.callback->fetch(data);
      rethrowStreamCallbackError();
      c.callback->complete();
    }
  }

  void remoteCopy(const exec::Step &s) {
    const auto &info = exe.remoteBuffers[s.remoteBuffer];
    auto &buffer = e.remoteStorage[s.remoteBuffer];
    const std::size_t rowBytes = info.numElements * info.elementBytes;
    std::vector<std::size_t> rows;
    if (s.offsets.empty())
      rows.push_back(0);
    for (const auto &ref : s.offsets) {
      const long long row = readInteger(ref);
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
      scatterElements(e, s.access, staging.data());
    } else {
      gatherElements(e, s.access, staging.data());
      for (std::size_t i = 0; i != rows.size(); ++i)
        std::memcpy(buffer.data() + rows[i] * rowBytes,
                    staging.data() + i * rowBytes, rowBytes);
    }
  }

  void print(const exec::Step &s) {
    std::vector<unsigned char> data(s.access.numElements * s.access.elementBytes);
    gatherElements(e, s.access, data.data());
    printTensor(*e.printStream, s.text, s.access, data.data());
  }

  Engine::Impl &e;
  const Executable::Impl &exe;
  model::ExecutionRecorder *recorder;
};

} // namespace

void gatherElements(const Engine::Impl &engine, const exec::TensorAccess &a,
                    unsigned char *dst) {
  const std::size_t bytes = a.elementBytes;
  forEachRunChunk(a, [&](const layout::FlatRun &run) {
    copyStrided(dst + run.begin * bytes, 1,
                engine.storage[run.var].data() + run.start * bytes, run.stride,
                run.length, bytes);
  });
}

void scatterElements(Engine::Impl &engine, const exec::TensorAccess &a,
                     const unsigned char *src) {
  const std::size_t bytes = a.elementBytes;
  forEachRunChunk(a, [&](const layout::FlatRun &run) {
    copyStrided(engine.storage[run.var].data() + run.start * bytes, run.stride,
                src + run.begin * bytes, 1, run.length, bytes);
  });
}

void runProgram(Engine::Impl &engine, const exec::Step &program) {
  Interpreter(engine).run(program);
}

} // namespace poplar
