#include "runtime/EngineImpl.hpp"

#include "core/Logging.hpp"
#include "target/DeviceImpl.hpp"

#include <poplar/detail/HalfBits.hpp>
#include <poplar/exceptions.hpp>

#include "runtime/ParallelFor.hpp"

#include <tbb/blocked_range.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <ostream>
#include <thread>

namespace poplar {

// ---------------------------------------------------------------- Executable

Executable::Executable(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
Executable::Executable(Executable &&) noexcept = default;
Executable &Executable::operator=(Executable &&) noexcept = default;
Executable::~Executable() = default;
std::unique_ptr<Executable::Impl> Executable::releaseImpl() {
  return std::move(impl);
}

Executable compileGraph(const Graph &graph, ArrayRef<program::Program> progs,
                        const OptionFlags &opt, ProgressFunc progress,
                        const DebugContext &dc) {
  auto exe = compileToExecutable(graph, progs, resolveEngineOptions(opt), progress);
  exe->name = dc.getPathName();
  return Executable(std::move(exe));
}

Executable compileGraph(Graph &&graph, ArrayRef<program::Program> progs,
                        const OptionFlags &opt, ProgressFunc progress,
                        const DebugContext &dc) {
  const Graph &g = graph;
  return compileGraph(g, progs, opt, std::move(progress), dc);
}

// -------------------------------------------------------------------- Engine

void Engine::Impl::resetStorage(bool storageIsZero) {
  std::uint32_t behaviour = 0;
  if (engineOptionIs(options, "debug.floatPointOpException", false))
    behaviour |= detail::fpInvalidException | detail::fpDivideByZeroException |
                 detail::fpOverflowException;
  if (engineOptionIs(options, "debug.nanOverflowMode", false))
    behaviour |= detail::fpNanOnOverflow;
  for (unsigned r = 0; r != replicas.size(); ++r) {
    ReplicaState &replica = replicas[r];
    replica.tileBehaviour.assign(exe->target.getNumTiles(), behaviour);
    replica.computeSets.clear();
    replica.computeSets.resize(exe->computeSets.size());
    for (std::size_t v = 0; v != exe->variables.size(); ++v) {
      const auto &info = exe->variables[v];
      auto &bytes = replica.storage[v];
      if (info.initialValue.empty()) {
        if (!storageIsZero)
          std::fill(bytes.begin(), bytes.end(), 0);
      } else {
        std::copy(info.initialValue.begin(), info.initialValue.end(),
                  bytes.begin());
      }
      if (info.isReplicationIndex) {
        const std::uint32_t index = r;
        std::memcpy(bytes.data(), &index, sizeof index);
      }
      if (info.isHwSeedState && r != 0) {
        // Each replica its own generator key (word 1): a Weyl step of r.
        std::uint32_t key;
        std::memcpy(&key, bytes.data() + 4, 4);
        key += 0x9E3779B9u * r;
        std::memcpy(bytes.data() + 4, &key, 4);
      }
    }
  }
}

ComputeSetInstance &Engine::Impl::computeSet(unsigned r, unsigned id) {
  ReplicaState &replica = replicas[r];
  auto &instance = replica.computeSets.at(id);
  if (!instance)
    instance = std::make_unique<ComputeSetInstance>(
        exe->computeSets[id], exe->vertexTypes, replica.storage,
        replica.tileBehaviour);
  return *instance;
}

void Engine::Impl::prepareRun() {
  for (unsigned r = 0; r != replicas.size(); ++r)
    for (unsigned cs = 0; cs != exe->computeSets.size(); ++cs)
      computeSet(r, cs);
  // oneTBB starts its worker threads when first asked for parallel work;
  // each worker takes one index and waits (briefly) for the others.
  const int threads = tbb::this_task_arena::max_concurrency();
  std::atomic<int> arrived{0};
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  runtime::parallelForRange(
      tbb::blocked_range<int>(0, threads, 1),
      [&](const tbb::blocked_range<int> &) {
        arrived.fetch_add(1);
        while (arrived.load() < threads &&
               std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield();
      },
      tbb::simple_partitioner());
}

std::size_t Engine::Impl::streamIndex(StringRef handle, const char *what) const {
  for (std::size_t i = 0; i != exe->streams.size(); ++i)
    if (exe->streams[i].handle == std::string_view(handle))
      return i;
  throw stream_connection_error(std::string(what) + ": no stream named '" +
                                handle.str() + "'");
}

Engine::Engine(const Graph &graph, const program::Program &prog,
               const OptionFlags &options, ProgressFunc progress,
               const DebugContext &dc)
    : Engine(graph, ArrayRef<program::Program>(&prog, 1), options,
             std::move(progress), dc) {}

Engine::Engine(const Graph &graph, ArrayRef<program::Program> progs,
               const OptionFlags &options, ProgressFunc progress,
               const DebugContext &dc)
    : Engine(compileGraph(graph, progs, options, std::move(progress), dc),
             options) {}

Engine::Engine(Executable &&exe, const OptionFlags &options)
    : impl(std::make_unique<Impl>()) {
  impl->options = resolveEngineOptions(options);
  impl->prefetch = streamPrefetchEnabled(impl->options);
  impl->exe = std::shared_ptr<const Executable::Impl>(exe.releaseImpl());
  if (!impl->exe)
    throw poplar_error("Engine: the executable is empty (moved from)");
  const auto &x = *impl->exe;
  impl->replicas.resize(x.replicationFactor);
  for (ReplicaState &replica : impl->replicas) {
    replica.storage.resize(x.variables.size());
    for (std::size_t v = 0; v != x.variables.size(); ++v)
      replica.storage[v].resize(x.variables[v].numElements *
                                x.variables[v].elementBytes);
    replica.remoteStorage.resize(x.remoteBuffers.size());
    for (std::size_t b = 0; b != x.remoteBuffers.size(); ++b) {
      const auto &info = x.remoteBuffers[b];
      replica.remoteStorage[b].assign(
          info.numElements * info.repeats * info.elementBytes, 0);
    }
    replica.streams.resize(x.streams.size());
  }
  impl->resetStorage(/*storageIsZero=*/true);
  setUpProfiling(*impl);
  writeRequestedGraphReport(*this);
  if (const AutoReportOptions report = autoReportOptions(impl->options); report.any())
    impl->autoReport = std::make_unique<AutoReport>(*impl, report, x.name);
}

Engine::Engine(Engine &&) noexcept = default;
Engine &Engine::operator=(Engine &&) noexcept = default;
Engine::~Engine() {
  if (impl)
    for (ReplicaState &replica : impl->replicas)
      for (StreamConnection &c : replica.streams)
        c.dropPrefetched();
}

void Engine::load(const Device &device) {
  const Target &target = device.getTarget();
  if (target != impl->exe->deviceTarget) {
    const Target &compiled = impl->exe->deviceTarget;
    const std::string source =
        impl->exe->source.empty() ? "the graph was"
                                  : "the executable " + impl->exe->source + " was";
    throw poplar_error("Engine::load: the device (" +
                       toString(target.getTargetType()) + " " +
                       target.getTargetArchString() + ", " +
                       std::to_string(target.getNumTiles()) +
                       " tiles) does not have the target " + source +
                       " compiled for (" + toString(compiled.getTargetType()) +
                       " " + compiled.getTargetArchString() + ", " +
                       std::to_string(compiled.getNumTiles()) + " tiles)");
  }
  // Like hardware, an IPU Model standing in for it must be attached first.
  if (device.getImpl().lock && !device.isAttached())
    throw poplar_error("Engine::load: device " + std::to_string(device.getId()) +
                       " is not attached (call Device::attach first)");
  impl->syncConfiguration = device.getImpl().syncConfiguration;
  if (impl->recorder)
    impl->recorder->setSyncConfiguration(impl->syncConfiguration);
  impl->resetStorage();
  impl->prepareRun();
  impl->loaded = true;
  logging::info(logging::Module::Engine, "Loaded engine onto device {}",
                device.getId());
}

bool Engine::isLoaded() const { return impl->loaded; }

void Engine::run(unsigned prog, const std::string &debugName) {
  const auto &x = *impl->exe;
  if (!impl->loaded)
    throw runtime_error("Engine::run(" + std::to_string(prog) +
                        "): the engine is not loaded on a device; call "
                        "Engine::load first");
  if (prog >= x.programs.size())
    throw index_error("Engine::run: program " + std::to_string(prog) +
                      " does not exist (the engine has " +
                      std::to_string(x.programs.size()) + ")");
  // Check every stream before running, so a failed run changes nothing.
  for (std::size_t s : x.streamsUsed[prog])
    for (unsigned r = 0; r != impl->numReplicas(); ++r)
      if (!impl->connection(s, r).connected)
        throw stream_connection_error(
            "Engine::run(" + std::to_string(prog) + "): stream '" +
            x.streams[s].handle + "' is used by the program but is not " +
            (impl->numReplicas() > 1 && !x.streams[s].broadcast
                 ? "connected for replica " + std::to_string(r)
                 : std::string("connected")) +
            " (use Engine::connectStream or Engine::connectStreamToCallback)");
  logging::debug(logging::Module::Engine, "Engine::run({}){}", prog,
                 debugName.empty() ? "" : " " + debugName);
  if (impl->recording && impl->recorder)
    impl->recorder->startRun();
  // Only runs that complete are reported.
  if (impl->autoReport)
    impl->autoReport->beginRun(*impl);
  runProgram(*impl, x.programs[prog]);
  if (impl->autoReport)
    impl->autoReport->endRun(*impl, prog, debugName);
}

void Engine::loadAndRun(const Device &device, unsigned prog) {
  load(device);
  run(prog);
}

namespace {

const exec::TensorAccess &
findHandle(const std::map<std::string, exec::TensorAccess, std::less<>> &handles,
           StringRef handle, const char *what, const char *kind) {
  auto it = handles.find(std::string_view(handle));
  if (it == handles.end())
    throw poplar_error(std::string(what) + ": no host " + kind +
                       " handle named '" + handle.str() + "'");
  return it->second;
}

// The number of the tensor's copies the buffer holds: one per replica, or
// (when `allowOne`, for writes) one for all of them.
unsigned checkBufferSize(const exec::TensorAccess &a, StringRef handle,
                         const void *begin, const void *end, const char *what,
                         unsigned replicas, bool allowOne) {
  if (!begin)
    throw poplar_error(std::string(what) + "('" + handle.str() +
                       "'): the buffer is null");
  const std::size_t bytes = a.numElements * a.elementBytes;
  if (!end)
    return replicas;
  const auto size = static_cast<std::size_t>(static_cast<const char *>(end) -
                                             static_cast<const char *>(begin));
  if (size == bytes * replicas)
    return replicas;
  if (allowOne && size == bytes)
    return 1;
  throw poplar_error(std::string(what) + "('" + handle.str() +
                     "'): the buffer holds " + std::to_string(size) +
                     " bytes but tensor '" + a.name + "' needs " +
                     std::to_string(bytes) +
                     (replicas > 1 ? " for each of " + std::to_string(replicas) +
                                         " replicas"
                                   : std::string()));
}

} // namespace

void Engine::writeTensor(StringRef handle, const void *buf, const void *bufEnd) {
  const auto &a =
      findHandle(impl->exe->hostWrites, handle, "Engine::writeTensor", "write");
  const unsigned copies = checkBufferSize(a, handle, buf, bufEnd,
                                          "Engine::writeTensor",
                                          impl->numReplicas(), true);
  if (!impl->loaded)
    throw runtime_error("Engine::writeTensor('" + handle.str() +
                        "'): the engine is not loaded on a device");
  const std::size_t bytes = a.numElements * a.elementBytes;
  for (unsigned r = 0; r != impl->numReplicas(); ++r)
    scatterElements(impl->replicas[r], a,
                    static_cast<const unsigned char *>(buf) +
                        (copies == 1 ? 0 : r * bytes));
}

void Engine::writeTensor(StringRef handle, const void *buf) {
  writeTensor(handle, buf, nullptr);
}

void Engine::readTensor(StringRef handle, void *buf, void *bufEnd) {
  const auto &a =
      findHandle(impl->exe->hostReads, handle, "Engine::readTensor", "read");
  checkBufferSize(a, handle, buf, bufEnd, "Engine::readTensor",
                  impl->numReplicas(), false);
  if (!impl->loaded)
    throw runtime_error("Engine::readTensor('" + handle.str() +
                        "'): the engine is not loaded on a device");
  const std::size_t bytes = a.numElements * a.elementBytes;
  for (unsigned r = 0; r != impl->numReplicas(); ++r)
    gatherElements(impl->replicas[r], a,
                   static_cast<unsigned char *>(buf) + r * bytes);
}

void Engine::readTensor(StringRef handle, void *buf) {
  readTensor(handle, buf, nullptr);
}

void Engine::connectStream(StringRef handle, void *begin, void *end) {
  const std::size_t s = impl->streamIndex(handle, "Engine::connectStream");
  const auto &info = impl->exe->streams[s];
  if (!begin || !end || end < begin)
    throw stream_connection_error("Engine::connectStream('" + handle.str() +
                                  "'): the buffer is null or its end precedes "
                                  "its beginning");
  const std::size_t size = static_cast<std::size_t>(
      static_cast<char *>(end) - static_cast<char *>(begin));
  // A replicated stream's buffer is shared out: replica r has the r-th of
  // numReplicas equal parts.
  const unsigned parts = info.broadcast ? 1 : impl->numReplicas();
  const std::size_t transfer = info.bytes() * parts;
  if (transfer == 0 ? size != 0 : (size == 0 || size % transfer != 0))
    throw stream_connection_error(
        "Engine::connectStream('" + handle.str() + "'): the buffer holds " +
        std::to_string(size) + " bytes, which is not a whole number of the " +
        std::to_string(info.bytes()) + "-byte transfers of the stream (" +
        std::to_string(info.numElements) + " x " + info.type.toString().str() +
        ")" +
        (parts > 1 ? " for each of its " + std::to_string(parts) + " replicas"
                   : std::string()));
  for (unsigned r = 0; r != parts; ++r) {
    StreamConnection &c = impl->replicas[r].streams[s];
    c.dropPrefetched();
    c = StreamConnection{};
    c.connected = true;
    c.begin = static_cast<unsigned char *>(begin) + r * (size / parts);
    c.end = c.begin + size / parts;
  }
}

void Engine::connectStream(StringRef handle, void *p) {
  const std::size_t s = impl->streamIndex(handle, "Engine::connectStream");
  char *begin = static_cast<char *>(p);
  const auto &info = impl->exe->streams[s];
  const std::size_t copies = info.broadcast ? 1 : impl->numReplicas();
  connectStream(handle, p, begin ? begin + info.bytes() * copies : nullptr);
}

void Engine::connectStream(const DataStream &stream, void *p) {
  connectStream(stream.handle(), p);
}

void Engine::connectStream(const DataStream &stream, void *begin, void *end) {
  connectStream(stream.handle(), begin, end);
}

void Engine::connectStreamToCallback(StringRef handle, StreamCallbackHandle f) {
  const std::size_t s =
      impl->streamIndex(handle, "Engine::connectStreamToCallback");
  std::shared_ptr<StreamCallback> callback(f.release());
  if (!callback)
    throw stream_connection_error("Engine::connectStreamToCallback('" +
                                  handle.str() + "'): the callback is empty");
  // Every replica of a replicated stream calls the one callback in turn.
  const unsigned parts = impl->exe->streams[s].broadcast ? 1 : impl->numReplicas();
  for (unsigned r = 0; r != parts; ++r) {
    StreamConnection &c = impl->replicas[r].streams[s];
    c.dropPrefetched();
    c = StreamConnection{};
    c.connected = true;
    c.callback = callback;
    c.sharedCallback = parts > 1;
  }
}

void Engine::connectStreamToCallback(StringRef handle, unsigned replicaId,
                                     StreamCallbackHandle f) {
  const std::size_t s =
      impl->streamIndex(handle, "Engine::connectStreamToCallback");
  const bool broadcast = impl->exe->streams[s].broadcast;
  if (replicaId >= impl->numReplicas() || (broadcast && replicaId != 0))
    throw stream_connection_error(
        "Engine::connectStreamToCallback('" + handle.str() + "'): replica " +
        std::to_string(replicaId) +
        (broadcast ? " cannot have its own callback: the stream is BROADCAST"
                   : " does not exist (the graph has " +
                         std::to_string(impl->numReplicas()) + ")"));
  std::shared_ptr<StreamCallback> callback(f.release());
  if (!callback)
    throw stream_connection_error("Engine::connectStreamToCallback('" +
                                  handle.str() + "'): the callback is empty");
  StreamConnection &c = impl->replicas[replicaId].streams[s];
  c.dropPrefetched();
  c = StreamConnection{};
  c.connected = true;
  c.callback = std::move(callback);
}

std::vector<std::string> Engine::listStreams() const {
  std::vector<std::string> handles;
  for (const auto &s : impl->exe->streams)
    handles.push_back(s.handle);
  return handles;
}

namespace {

struct RemoteRow {
  unsigned char *data;
  std::size_t bytes;
};

// The storage of one row of a remote buffer, checking the handle, row and
// replica.
RemoteRow remoteRow(Engine::Impl &engine, StringRef handle,
                    std::uint64_t repeat, unsigned replica, const char *what) {
  const auto &buffers = engine.exe->remoteBuffers;
  for (std::size_t b = 0; b != buffers.size(); ++b) {
    const auto &info = buffers[b];
    if (info.handle != std::string_view(handle))
      continue;
    if (repeat >= info.repeats)
      throw index_error(std::string(what) + "('" + handle.str() + "'): row " +
                        std::to_string(repeat) + " is out of range (" +
                        std::to_string(info.repeats) + " rows)");
    if (replica >= engine.numReplicas())
      throw index_error(std::string(what) + "('" + handle.str() + "'): replica " +
                        std::to_string(replica) + " does not exist (the graph has " +
                        std::to_string(engine.numReplicas()) + ")");
    const std::size_t rowBytes = info.numElements * info.elementBytes;
    return {engine.replicas[replica].remoteStorage[b].data() + repeat * rowBytes,
            rowBytes};
  }
  throw poplar_error(std::string(what) + ": no remote buffer named '" +
                     handle.str() + "'");
}

} // namespace

void Engine::copyToRemoteBuffer(const void *data, StringRef handle,
                                std::uint64_t repeatIndex,
                                unsigned replicationIndex) {
  const RemoteRow row = remoteRow(*impl, handle, repeatIndex, replicationIndex,
                                  "Engine::copyToRemoteBuffer");
  std::memcpy(row.data, data, row.bytes);
}

void Engine::copyFromRemoteBuffer(StringRef handle, void *data,
                                  std::uint64_t repeatIndex,
                                  unsigned replicationIndex) {
  const RemoteRow row = remoteRow(*impl, handle, repeatIndex, replicationIndex,
                                  "Engine::copyFromRemoteBuffer");
  std::memcpy(data, row.data, row.bytes);
}

void Engine::setPrintStream(std::ostream &stream) { impl->printStream = &stream; }

const OptionFlags &Engine::getEngineOptions() const { return impl->options; }
const Target &Engine::getTarget() const { return impl->exe->target; }

} // namespace poplar
