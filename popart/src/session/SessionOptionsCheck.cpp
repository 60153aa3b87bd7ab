#include "session/SessionOptionsCheck.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <functional>
#include <utility>
#include <string>
#include <vector>

namespace popart {
namespace {

struct Refusal {
  const char *field;
  std::function<bool(const SessionOptions &)> isSet; // set to a refused value
  const char *why;
};

// The options whose non-default values are not honoured here, and why.
const std::vector<Refusal> &refusals() {
  static const SessionOptions d;
  static const std::vector<Refusal> list = {
      {"exportPoplarComputationGraph",
       [](const SessionOptions &o) { return o.exportPoplarComputationGraph; },
       "poplar's computation graph is not exported"},
      {"exportPoplarVertexGraph",
       [](const SessionOptions &o) { return o.exportPoplarVertexGraph; },
       "poplar's vertex graph is not exported"},
      {"outlineThreshold",
       [](const SessionOptions &o) { return o.outlineThreshold != d.outlineThreshold; },
       "subgraphs are not outlined"},
      {"outlineSequenceBreakCost",
       [](const SessionOptions &o) {
         return o.outlineSequenceBreakCost != d.outlineSequenceBreakCost;
       },
       "subgraphs are not outlined"},
      {"explicitRecomputation",
       [](const SessionOptions &o) { return o.explicitRecomputation; },
       "recomputation is implicit (autoRecomputation and the Builder's "
       "annotations)"},
      {"mergeVarUpdate",
       [](const SessionOptions &o) { return o.mergeVarUpdate != MergeVarUpdateType::None; },
       "variable updates are not merged"},
      {"mergeVarUpdateMemThreshold",
       [](const SessionOptions &o) {
         return o.mergeVarUpdateMemThreshold != d.mergeVarUpdateMemThreshold;
       },
       "variable updates are not merged"},
      {"looseThresholdAtPeak",
       [](const SessionOptions &o) {
         return o.looseThresholdAtPeak != d.looseThresholdAtPeak;
       },
       "variable updates are not merged"},
      {"rearrangeAnchorsOnHost",
       [](const SessionOptions &o) { return !o.rearrangeAnchorsOnHost; },
       "anchors are always rearranged on the host"},
      {"rearrangeStreamsOnHost",
       [](const SessionOptions &o) { return o.rearrangeStreamsOnHost; },
       "streams are rearranged on the device"},
      {"defaultBufferingDepth",
       [](const SessionOptions &o) {
         return o.defaultBufferingDepth != d.defaultBufferingDepth;
       },
       "host streams have one buffer"},
      {"defaultPrefetchBufferingDepth",
       [](const SessionOptions &o) {
         return o.defaultPrefetchBufferingDepth != d.defaultPrefetchBufferingDepth;
       },
       "host streams have one buffer"},
      {"bufferingDepthMap",
       [](const SessionOptions &o) { return !o.bufferingDepthMap.empty(); },
       "host streams have one buffer"},
      {"prefetchBufferingDepthMap",
       [](const SessionOptions &o) { return !o.prefetchBufferingDepthMap.empty(); },
       "host streams have one buffer"},
      {"virtualGraphMode",
       [](const SessionOptions &o) {
         return o.virtualGraphMode == VirtualGraphMode::ExecutionPhases;
       },
       "execution phases are not supported (Off, Manual and Auto are)"},
      {"virtualGraphSplitRatios",
       [](const SessionOptions &o) { return !o.virtualGraphSplitRatios.empty(); },
       "graphs are not split automatically"},
      {"globalReplicaOffset",
       [](const SessionOptions &o) {
         return o.globalReplicaOffset != 0 &&
                !o.enableDistributedReplicatedGraphs;
       },
       "it is the offset of distributed replicas, and "
       "enableDistributedReplicatedGraphs is false"},
      {"globalReplicationFactor",
       [](const SessionOptions &o) {
         return o.globalReplicationFactor != 1 &&
                !o.enableDistributedReplicatedGraphs;
       },
       "it is the number of distributed replicas, and "
       "enableDistributedReplicatedGraphs is false"},
      {"accumulationAndReplicationReductionType",
       [](const SessionOptions &o) {
         return o.accumulationAndReplicationReductionType ==
                ReductionType::NoReduction;
       },
       "accumulated gradients are reduced by Sum or Mean"},
      {"meanAccumulationAndReplicationReductionStrategy",
       [](const SessionOptions &o) {
         return o.meanAccumulationAndReplicationReductionStrategy !=
                MeanReductionStrategy::Post;
       },
       "the mean of accumulated gradients is taken after the last "
       "micro-batch (Post)"},
      {"gclOptions",
       [](const SessionOptions &o) {
         return !o.gclOptions.empty() &&
                !(o.enableReplicatedGraphs && o.replicatedGraphCount > 1);
       },
       "they are the options of the collectives between replicas, and there "
       "are none without replicatedGraphCount > 1"},
      {"enableExplicitMainLoops",
       [](const SessionOptions &o) { return o.enableExplicitMainLoops; },
       "the main loops are the lowering's"},
      {"useHostCopyOps",
       [](const SessionOptions &o) { return o.useHostCopyOps; },
       "host copies are the lowering's"},
      {"aliasZeroCopy", [](const SessionOptions &o) { return o.aliasZeroCopy; },
       "tensors are not aliased across subgraphs"},
      {"enableStochasticRounding",
       [](const SessionOptions &o) { return o.enableStochasticRounding; },
       "the simulated devices round to nearest"},
      {"enableFloatingPointChecks",
       [](const SessionOptions &o) { return o.enableFloatingPointChecks; },
       "floating-point exceptions are not raised"},
      {"enableStableNorm",
       [](const SessionOptions &o) { return o.enableStableNorm; },
       "normalisations compute their statistics in one way"},
      {"enableFullyConnectedPass",
       [](const SessionOptions &o) { return !o.enableFullyConnectedPass; },
       "matmuls are always planned for their pass"},
      {"enableSupportedDataTypeCasting",
       [](const SessionOptions &o) { return !o.enableSupportedDataTypeCasting; },
       "INT64 and DOUBLE tensors are always held as INT32 and FLOAT"},
      {"lstmOptions",
       [](const SessionOptions &o) { return !o.lstmOptions.empty(); },
       "there is no LSTM op to give them to"},
      {"hardwareInstrumentations",
       [](const SessionOptions &o) {
         return o.hardwareInstrumentations != d.hardwareInstrumentations;
       },
       "only the outer (whole step) cycle count is kept"},
      {"syntheticDataMode",
       [](const SessionOptions &o) {
         return o.syntheticDataMode != SyntheticDataMode::Off;
       },
       "inputs always come from the host"},
      {"strictOpVersions",
       [](const SessionOptions &o) { return !o.strictOpVersions; },
       "each node must use a definition its opset implies"},
      {"disableGradAccumulationTensorStreams",
       [](const SessionOptions &o) { return o.disableGradAccumulationTensorStreams; },
       "every variable has its streams"},
      {"enableLoadAndOffloadRNGState",
       [](const SessionOptions &o) { return o.enableLoadAndOffloadRNGState; },
       "the random state is the seed (setRandomSeed)"},
      {"delayVarUpdates",
       [](const SessionOptions &o) { return !o.delayVarUpdates; },
       "variable updates are scheduled after their weight's last reader"},
      {"timeLimitScheduler",
       [](const SessionOptions &o) { return o.timeLimitScheduler != d.timeLimitScheduler; },
       "the schedule is a topological sort, with no search to limit"},
      {"swapLimitScheduler",
       [](const SessionOptions &o) { return o.swapLimitScheduler != d.swapLimitScheduler; },
       "the schedule is a topological sort, with no search to limit"},
      {"decomposeGradSum",
       [](const SessionOptions &o) { return o.decomposeGradSum; },
       "gradients are summed by one op"},
      {"opxAliasChecking",
       [](const SessionOptions &o) { return o.opxAliasChecking; },
       "lowerings are not checked for aliasing"},
      {"opxModifyChecking",
       [](const SessionOptions &o) { return o.opxModifyChecking; },
       "lowerings are not checked for modification"},
      {"enableMergeExchange",
       [](const SessionOptions &o) { return !o.enableMergeExchange; },
       "exchanges are not merged"},
  };
  return list;
}

// The tensor locations this implementation honours: on the compute
// tiles; variables on chip or off chip (remote buffers), weights and
// optimiser state sharded over the replicas or not (and, as the original,
// activations never sharded).
void checkTensorLocationSettings(const SessionOptions &o) {
  const std::pair<const char *, const TensorLocationSettings *> settings[] = {
      {"activationTensorLocationSettings", &o.activationTensorLocationSettings},
      {"weightTensorLocationSettings", &o.weightTensorLocationSettings},
      {"optimizerStateTensorLocationSettings",
       &o.optimizerStateTensorLocationSettings},
      {"accumulatorTensorLocationSettings",
       &o.accumulatorTensorLocationSettings}};
  for (const auto &[name, s] : settings) {
    const TensorLocation &l = s->location;
    if (l.storage != TensorStorage::OnChip &&
        l.storage != TensorStorage::OffChip)
      throw error("SessionOptions::{}.location.storage: {} is not OnChip or "
                  "OffChip",
                  name, static_cast<int>(l.storage));
    // Remote buffers hold variables (loaded before the ops of a program
    // fragment that use them, stored after those that change them);
    // activations are not streamed here.
    if (l.storage == TensorStorage::OffChip &&
        s == &o.activationTensorLocationSettings)
      throw error("SessionOptions::{}.location.storage OffChip is not "
                  "supported here: only variables (weights, optimiser state, "
                  "accumulators) are held in remote buffers",
                  name);
    if (l.loadTileSet != TileSet::Compute || l.storageTileSet != TileSet::Compute)
      throw error("SessionOptions::{}.location: tile sets loadTileSet={}, "
                  "storageTileSet={} are not supported here: there are no "
                  "IO tiles, tensors live on the Compute tiles",
                  name, l.loadTileSet, l.storageTileSet);
    if (l.replicatedTensorSharding != ReplicatedTensorSharding::Off &&
        l.replicatedTensorSharding != ReplicatedTensorSharding::On)
      throw error("SessionOptions::{}.location.replicatedTensorSharding: {} "
                  "is not Off or On",
                  name, static_cast<int>(l.replicatedTensorSharding));
    if (s->minElementsForReplicatedTensorSharding < 0 ||
        s->minElementsForOffChip < 0)
      throw error("SessionOptions::{}: minElementsForOffChip ({}) and "
                  "minElementsForReplicatedTensorSharding ({}) must not be "
                  "negative",
                  name, s->minElementsForOffChip,
                  s->minElementsForReplicatedTensorSharding);
  }
  if (o.activationTensorLocationSettings.location.replicatedTensorSharding ==
      ReplicatedTensorSharding::On)
    logging::session::info(
        "SessionOptions::activationTensorLocationSettings: activations are "
        "not sharded over the replicas (replicatedTensorSharding On applies "
        "to weights and their optimiser state, as in the original)");
  for (const auto &[name, s] : settings)
    if (s->location.storage == TensorStorage::OffChip &&
        o.enableDistributedReplicatedGraphs && o.globalReplicationFactor > 1)
      throw error("SessionOptions::{}.location.storage OffChip is not "
                  "supported with enableDistributedReplicatedGraphs (the "
                  "processes exchange variables through their host copies)",
                  name);
  for (const auto &[name, s] : {settings[1], settings[2], settings[3]}) {
    const TensorLocation &l = s->location;
    if (l.replicatedTensorSharding != ReplicatedTensorSharding::On)
      continue;
    const CommGroup &domain = l.shardingDomain;
    const int64_t replicas =
        o.enableReplicatedGraphs ? o.replicatedGraphCount : 1;
    const bool allReplicas =
        domain.type == CommGroupType::All ||
        (domain.type == CommGroupType::Consecutive &&
         static_cast<int64_t>(domain.replicaGroupSize) == replicas);
    if (domain.type != CommGroupType::None && !allReplicas)
      throw error("SessionOptions::{}.location.shardingDomain {} is not "
                  "supported here: tensors are sharded over all {} replicas "
                  "of the process (CommGroupType::All)",
                  name, domain, replicas);
    if (o.enableDistributedReplicatedGraphs && o.globalReplicationFactor > 1)
      throw error("SessionOptions::{}: replicated tensor sharding is not "
                  "supported with enableDistributedReplicatedGraphs (the "
                  "replicas of other processes are reduced on the host)",
                  name);
    if (o.hostAllReduce)
      throw error("SessionOptions::{}: replicated tensor sharding is not "
                  "supported with hostAllReduce (the host reduces whole "
                  "gradients)",
                  name);
  }
}

} // namespace

void checkSessionOptions(const SessionOptions &options, bool training) {
  for (const auto &r : refusals())
    if (r.isSet(options))
      throw error("SessionOptions::{} is not supported here: {}", r.field,
                  r.why);
  if (!training && options.enableGradientAccumulation &&
      options.accumulationFactor != 1)
    throw error("SessionOptions::enableGradientAccumulation: gradient "
                "accumulation needs a TrainingSession");
  if (!training && options.autoRecomputation != RecomputationType::None)
    throw error("SessionOptions::autoRecomputation: recomputation needs a "
                "TrainingSession");
  if (options.compilationProgressTotal <= 0)
    throw error("SessionOptions::compilationProgressTotal is {}: it must be "
                "positive",
                options.compilationProgressTotal);
  if (!training && options.hostAllReduce)
    throw error("SessionOptions::hostAllReduce: gradients are reduced in a "
                "TrainingSession only");
  if (options.enableDistributedReplicatedGraphs) {
    if (options.globalReplicationFactor < 1)
      throw error("SessionOptions::globalReplicationFactor is {}: it must be "
                  "at least 1",
                  options.globalReplicationFactor);
    if (options.globalReplicaOffset < 0 ||
        options.globalReplicaOffset >= options.globalReplicationFactor)
      throw error("SessionOptions::globalReplicaOffset is {}: it must be a "
                  "replica of the globalReplicationFactor {} (0 to {})",
                  options.globalReplicaOffset, options.globalReplicationFactor,
                  options.globalReplicationFactor - 1);
  }
  checkTensorLocationSettings(options);
  if (options.autoRecomputation == RecomputationType::Pipeline &&
      !options.enablePipelining)
    throw error("SessionOptions::autoRecomputation: "
                "RecomputationType::Pipeline recomputes the forward pipeline "
                "stages: it needs enablePipelining");
}

} // namespace popart
