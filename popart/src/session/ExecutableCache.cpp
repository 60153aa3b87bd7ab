#include "session/ExecutableCache.hpp"

#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/optimizer.hpp>

#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace popart {
namespace {

constexpr const char *sdkVersion = POPART_SDK_VERSION;

// A 64-bit hash over 8-byte words: fast enough for a model's weights.
class KeyHash {
public:
  void add(const std::string &bytes) {
    mix(bytes.size());
    std::size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, bytes.data() + i, 8);
      mix(w);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
    mix(tail);
  }
  std::uint64_t value() const {
    std::uint64_t h = state;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
  }

private:
  void mix(std::uint64_t w) {
    state ^= w + 0x9e3779b97f4a7c15ull + (state << 6) + (state >> 2);
    state *= 0xbf58476d1ce4e5b9ull;
    state ^= state >> 31;
  }
  std::uint64_t state = 0x243f6a8885a308d3ull;
};

template <class Map> std::string describeMap(const Map &m) {
  std::ostringstream s;
  for (const auto &[k, v] : m)
    s << k << '=' << v << ';';
  return s.str();
}

template <class Set> std::string describeSet(const Set &xs) {
  std::ostringstream s;
  for (const auto &x : xs)
    s << x << ';';
  return s.str();
}

// Every field of the options, so that any change is a new key.
std::string describeOptions(const SessionOptions &o) {
  std::map<std::string, std::string> engine;
  for (const auto &[k, v] : o.engineOptions)
    if (k.rfind("autoReport.", 0) != 0)
      engine[k] = v;
  std::ostringstream s;
  s << o.logDir << '|' << describeSet(o.dotChecks) << '|' << o.firstDotOp
    << '|' << o.finalDotOp << '|' << o.dotOpNames << '|'
    << o.enableOutlining << o.enableOutliningCopyCostPruning << '|'
    << o.outlineThreshold << '|' << o.outlineSequenceBreakCost << '|'
    << static_cast<int>(o.autoRecomputation) << o.explicitRecomputation
    << static_cast<int>(o.mergeVarUpdate) << '|' << o.mergeVarUpdateMemThreshold
    << '|' << o.looseThresholdAtPeak << '|' << o.rearrangeAnchorsOnHost
    << o.rearrangeStreamsOnHost << o.enablePrefetchDatastreams << '|'
    << o.defaultBufferingDepth << '|' << o.defaultPrefetchBufferingDepth << '|'
    << describeMap(o.bufferingDepthMap) << '|'
    << describeMap(o.prefetchBufferingDepthMap) << '|'
    << o.enableReplicatedGraphs << '|' << o.replicatedGraphCount << '|'
    << o.enableGradientAccumulation << '|' << o.accumulationFactor << '|'
    << static_cast<int>(o.accumulationAndReplicationReductionType)
    << static_cast<int>(o.meanAccumulationAndReplicationReductionStrategy)
    << static_cast<int>(o.virtualGraphMode) << '|'
    << describeSet(o.virtualGraphSplitRatios) << '|' << o.enablePipelining
    << o.enableDistributedReplicatedGraphs << '|' << o.globalReplicationFactor
    << '|' << o.globalReplicaOffset << '|' << o.hostAllReduce
    << toString(o.activationTensorLocationSettings)
    << toString(o.weightTensorLocationSettings)
    << toString(o.optimizerStateTensorLocationSettings)
    << toString(o.accumulatorTensorLocationSettings)
    << o.enableExplicitMainLoops
    << o.useHostCopyOps << o.aliasZeroCopy << o.enableStochasticRounding
    << o.enableFloatingPointChecks << o.enableNonStableSoftmax
    << o.enableStableNorm << '|' << o.partialsTypeMatMuls << '|'
    << o.enableFullyConnectedPass << o.enableSerializedMatmuls
    << o.enableSupportedDataTypeCasting << '|' << describeMap(engine) << '|'
    << describeMap(o.convolutionOptions) << '|' << describeMap(o.lstmOptions)
    << '|' << describeMap(o.matmulOptions) << '|' << describeMap(o.gclOptions)
    << '|' << o.constantWeights << '|' << o.instrumentWithHardwareCycleCounter
    << '|' << o.hardwareInstrumentations.size() << '|'
    << static_cast<int>(o.syntheticDataMode) << '|' << o.strictOpVersions
    << o.disableGradAccumulationTensorStreams << o.enableLoadAndOffloadRNGState
    << o.delayVarUpdates << '|' << describeSet(o.customCodelets) << '|'
    << o.timeLimitScheduler << '|' << o.swapLimitScheduler << '|'
    << o.kahnTieBreaker << '|' << o.decomposeGradSum << o.opxAliasChecking
    << o.opxModifyChecking << o.enableMergeExchange
    << o.enableConstantFoldingOfMultipleConsumers;
  return s.str();
}

// POPLAR_ENGINE_OPTIONS can change the compile; its autoReport options
// only say where the reports of the engine go.
std::string describeEngineEnvironment() {
  const char *env = std::getenv("POPLAR_ENGINE_OPTIONS");
  if (!env || !*env)
    return {};
  poplar::OptionFlags flags;
  try {
    poplar::readJSON(poplar::StringRef(env), flags);
  } catch (const poplar::poplar_error &) {
    return env; // poplar reports the error when the engine is made
  }
  std::map<std::string, std::string> kept;
  for (const auto &[k, v] : flags)
    if (k.rfind("autoReport.", 0) != 0)
      kept[k] = v;
  return describeMap(kept);
}

std::string readCodelets(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string describeTarget(const poplar::Target &t) {
  std::ostringstream s;
  t.serialize(s);
  return s.str();
}

std::string targetSummary(const poplar::Target &t) {
  return poplar::toString(t.getTargetType()) + " " + t.getTargetArchString() +
         " (" + std::to_string(t.getNumIPUs()) + " IPU x " +
         std::to_string(t.getTilesPerIPU()) + " tiles)";
}

std::string encodeMetadata(const Ir &ir, const DeviceInfo &device,
                           const LoweredInterface &io, std::uint64_t key) {
  popef::Encoder e;
  e.str(sdkVersion);
  e.u64(key);
  e.str(ir.isTraining() ? "training" : "inference");
  e.str(describeTarget(device.getTarget()));
  e.str(targetSummary(device.getTarget()));
  for (const auto *m : {&io.inputs, &io.anchors}) {
    e.u64(m->size());
    for (const auto &[id, n] : *m) {
      e.str(id);
      e.u64(static_cast<std::uint64_t>(n));
    }
  }
  for (const auto *v : {&io.variables, &io.optimizerScalars}) {
    e.u64(v->size());
    for (const auto &id : *v)
      e.str(id);
  }
  e.u64(io.randomSeed);
  e.u64(io.hostReduceGradients.size());
  for (const auto &[id, n] : io.hostReduceGradients) {
    e.str(id);
    e.u64(static_cast<std::uint64_t>(n));
  }
  e.u64(io.remoteVariables.size());
  for (const auto &id : io.remoteVariables)
    e.str(id);
  return std::move(e.bytes());
}

std::string encodeVariables(const Ir &ir, const LoweredInterface &io) {
  popef::Encoder e;
  e.u64(io.variables.size());
  const Graph &g = ir.getMainGraph();
  for (const auto &id : io.variables) {
    const Tensor &t = g.getTensor(id);
    e.str(id);
    e.str(std::string(t.data.begin(), t.data.end()));
  }
  return std::move(e.bytes());
}

// The session's tensor of a stream the file names, with the elements the
// file says (unless `elements` is negative).
void checkTensor(const popef::Reader &file, const Ir &ir, const TensorId &id,
                 int64_t elements, const char *what) {
  const Graph &g = ir.getMainGraph();
  if (!g.hasTensor(id))
    file.fail(logging::format("it was compiled for another model: its {} "
                              "'{}' is not a tensor of this session",
                              what, id));
  const int64_t ours = g.getTensor(id).info.nelms();
  if (elements >= 0 && ours != elements)
    file.fail(logging::format("it was compiled for another model: its {} "
                              "'{}' has {} elements, the session's {}",
                              what, id, elements, ours));
}

} // namespace

std::uint64_t executableCacheKey(const Ir &ir, const DeviceInfo &device) {
  KeyHash h;
  h.add("popart-executable-cache-1");
  h.add(sdkVersion);
  h.add(ir.isTraining() ? "training" : "inference");
  h.add(ir.getModel().SerializeAsString());
  h.add(ir.serialise());
  const DataFlow &df = ir.getDataFlow();
  std::ostringstream flow;
  flow << df.batchesPerStep();
  for (const auto &id : df.anchors())
    flow << ';' << id << ':' << static_cast<int>(df.art(id).id()) << ':'
         << df.art(id).hash();
  h.add(flow.str());
  const SessionOptions &o = ir.getSessionOptions();
  h.add(describeOptions(o));
  for (const auto &path : o.customCodelets)
    h.add(readCodelets(path));
  if (ir.isTraining())
    h.add(ir.getOptimizer().type_s() + ":" +
          std::to_string(ir.getOptimizer().hash()));
  h.add(describeTarget(device.getTarget()));
  h.add(describeEngineEnvironment());
  return h.value();
}

std::string cacheFileOf(const std::string &cachePath, std::uint64_t key,
                        const std::string &sessionName) {
  KeyHash h;
  h.add(std::to_string(key));
  h.add(sessionName);
  return (std::filesystem::path(cachePath) / (std::to_string(h.value()) + ".popef"))
      .string();
}

std::string popefPathOf(const std::string &path, const std::string &defaultName) {
  if (!path.empty() &&
      (path.back() == '/' || std::filesystem::is_directory(path)))
    return (std::filesystem::path(path) / defaultName).string();
  return path;
}

popef::Writer makePopef(const Ir &ir, const DeviceInfo &device,
                        const LoweredInterface &io, std::uint64_t key,
                        const poplar::Engine *engine, const SavedSession &what) {
  popef::Writer w;
  if (what.metadata)
    w.add("popart", encodeMetadata(ir, device, io, key));
  if (what.executable) {
    if (!engine)
      throw error("There is no executable to save: call prepareDevice first");
    std::ostringstream exe;
    engine->serializeExecutable(exe);
    w.add("poplar", exe.str());
  }
  if (what.variables)
    w.add("variables", encodeVariables(ir, io));
  return w;
}

LoadedExecutable loadPopef(const popef::Reader &file, const Ir &ir,
                           const DeviceInfo &device, std::uint64_t key,
                           bool withExecutable) {
  if (!file.has("popart"))
    file.fail("it has no PopART metadata (it was saved with "
              "savePopartMetadata false)");
  const std::string metadata = file.section("popart");
  popef::Decoder d(metadata, file);
  LoadedExecutable loaded;
  const std::string version = d.str();
  if (version != sdkVersion)
    file.fail(logging::format("it was made by SDK {}, and this is SDK {}",
                              version, sdkVersion));
  loaded.key = d.u64();
  const std::string kind = d.str();
  const std::string expectedKind = ir.isTraining() ? "training" : "inference";
  if (kind != expectedKind)
    file.fail(logging::format("it is the executable of a {} session, and this "
                              "is a {} session",
                              kind, expectedKind));
  const std::string target = d.str();
  const std::string summary = d.str();
  if (target != describeTarget(device.getTarget()))
    file.fail(logging::format("it was compiled for the target {}, and the "
                              "session's device is {}",
                              summary, targetSummary(device.getTarget())));
  LoweredInterface &io = loaded.io;
  for (auto *m : {&io.inputs, &io.anchors}) {
    const std::uint64_t n = d.u64();
    for (std::uint64_t i = 0; i != n; ++i) {
      const std::string id = d.str();
      (*m)[id] = static_cast<int64_t>(d.u64());
    }
  }
  for (auto *v : {&io.variables, &io.optimizerScalars}) {
    const std::uint64_t n = d.u64();
    for (std::uint64_t i = 0; i != n; ++i)
      v->push_back(d.str());
  }
  io.randomSeed = d.u64() != 0;
  for (std::uint64_t i = 0, n = d.u64(); i != n; ++i) {
    const std::string id = d.str();
    io.hostReduceGradients[id] = static_cast<int64_t>(d.u64());
  }
  for (std::uint64_t i = 0, n = d.u64(); i != n; ++i)
    io.remoteVariables.push_back(d.str());
  if (!d.done())
    file.fail("it is damaged: its metadata is longer than it should be");
  for (const auto &[id, n] : io.inputs)
    checkTensor(file, ir, id, n, "input");
  for (const auto &[id, n] : io.anchors)
    checkTensor(file, ir, id, n, "anchor");
  for (const auto &id : io.variables)
    checkTensor(file, ir, id, -1, "variable");
  for (const auto &id : io.optimizerScalars)
    checkTensor(file, ir, id, -1, "optimiser scalar");
  for (const auto &id : io.remoteVariables)
    checkTensor(file, ir, id, -1, "variable");
  for (const auto &id : ir.getDataFlow().anchors())
    if (!io.anchors.count(id))
      file.fail(logging::format("it does not return the session's anchor '{}' "
                                "(it was compiled for another DataFlow)",
                                id));
  if (loaded.key != key)
    file.fail("it was compiled for another model, other options or another "
              "device (its key is " + std::to_string(loaded.key) +
              ", the session's " + std::to_string(key) + ")");

  if (!withExecutable)
    return loaded;
  // Read in place, without a copy of the section: the executable's header
  // and contents carry their own checksums, which deserialize checks.
  file.readSection("poplar", [&](std::istream &in) {
    try {
      loaded.executable = std::make_unique<poplar::Executable>(
          poplar::Executable::deserialize(in));
    } catch (const poplar::poplar_error &e) {
      file.fail(e.what());
    }
  });
  return loaded;
}

void restoreVariables(const popef::Reader &file, Ir &ir) {
  if (!file.has("variables"))
    return;
  const std::string bytes = file.section("variables");
  popef::Decoder d(bytes, file);
  Graph &g = ir.getMainGraph();
  const std::uint64_t n = d.u64();
  for (std::uint64_t i = 0; i != n; ++i) {
    const std::string id = d.str();
    const std::string data = d.str();
    if (!g.hasTensor(id))
      file.fail(logging::format("its variable '{}' is not a tensor of this "
                                "session",
                                id));
    Tensor &t = g.getTensor(id);
    if (data.size() != t.data.size())
      file.fail(logging::format("its variable '{}' has {} bytes, the "
                                "session's {}",
                                id, data.size(), t.data.size()));
    t.data.assign(data.begin(), data.end());
  }
  logging::session::info("Set {} variables from {}", n, file.describe());
}

} // namespace popart
