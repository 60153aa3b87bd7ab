// Options of a session, with the original's defaults. Each field is
// honoured, or, set to a value other than its default that this
// implementation cannot honour, rejected with a popart::error naming it
// when the session is made (popart/README.md lists them).
#ifndef POPART_SESSIONOPTIONS_HPP
#define POPART_SESSIONOPTIONS_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>
#include <popart/reductiontype.hpp>
#include <popart/tensorlocation.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace popart {

enum class VirtualGraphMode { Off = 0, Manual, Auto, ExecutionPhases, N };
enum class RecomputationType { None = 0, Standard, NormOnly, RecomputeAll, Pipeline, N };
enum class MergeVarUpdateType { None = 0, All, AutoLoose, AutoTight, N };
enum class SyntheticDataMode { Off = 0, Zeros, RandomNormal, RandomUniform, N };
enum class Instrumentation { Outer = 0, Inner, N };
enum class IrSerializationFormat { JSON };
/// How a mean over accumulated gradients is taken: Post divides the sum
/// once after the last micro-batch, Running keeps a running mean.
enum class MeanReductionStrategy { Running = 0, Post, PostAndLoss, N };

/// Where the tensors of one kind (activations, weights, optimiser state,
/// gradient accumulators) live. A tensor of fewer than
/// minElementsForOffChip elements stays on chip; one of fewer than
/// minElementsForReplicatedTensorSharding elements is not sharded.
struct POPART_API TensorLocationSettings {
  TensorLocationSettings() = default;
  TensorLocationSettings(TensorLocation location_,
                         int minElementsForOffChip_ = 2,
                         int minElementsForReplicatedTensorSharding_ = 8192);
  TensorLocationSettings(TensorStorage storage_,
                         int minElementsForOffChip_ = 2,
                         int minElementsForReplicatedTensorSharding_ = 8192);

  TensorLocation location = TensorLocation();
  int minElementsForOffChip = 2;
  int minElementsForReplicatedTensorSharding = 8192;
};

POPART_API std::string toString(const TensorLocationSettings &);
POPART_API std::ostream &operator<<(std::ostream &,
                                    const TensorLocationSettings &);

class POPART_API SessionOptions {
public:
  /// The defaults below; the environment variable POPART_CACHE_DIR (or
  /// POPXL_CACHE_DIR, which wins), when set, turns enableEngineCaching on
  /// with cachePath its value.
  SessionOptions();

  // Debugging.
  /// Where DOT files and other logs are written ("" = the current directory).
  std::string logDir;
  /// Checkpoints of IR preparation to write DOT files at: "Fwd0", "Fwd1",
  /// "Final" (any case), or "All"; POPART_DOT_CHECKS adds more.
  std::set<std::string> dotChecks = {};
  int firstDotOp = 0;
  int finalDotOp = 10000;
  bool dotOpNames = false;
  bool exportPoplarComputationGraph = false;
  bool exportPoplarVertexGraph = false;

  // Outlining (subgraphs are not outlined by this implementation).
  bool enableOutlining = true;
  bool enableOutliningCopyCostPruning = true;
  float outlineThreshold = 1.0f;
  float outlineSequenceBreakCost = 10000.0f;

  // Recomputation and variable updates (training).
  RecomputationType autoRecomputation = RecomputationType::None;
  bool explicitRecomputation = false;
  MergeVarUpdateType mergeVarUpdate = MergeVarUpdateType::None;
  int64_t mergeVarUpdateMemThreshold = 1000000;
  int64_t looseThresholdAtPeak = 8000;

  // Streams.
  bool rearrangeAnchorsOnHost = true;
  bool rearrangeStreamsOnHost = false;
  bool enablePrefetchDatastreams = true;
  unsigned defaultBufferingDepth = 1;
  unsigned defaultPrefetchBufferingDepth = 111111;
  std::map<TensorId, unsigned> bufferingDepthMap;
  std::map<TensorId, unsigned> prefetchBufferingDepthMap;

  // Parallelism.
  bool enableReplicatedGraphs = false;
  int64_t replicatedGraphCount = 1;
  bool enableGradientAccumulation = false;
  int64_t accumulationFactor = 1;
  ReductionType accumulationAndReplicationReductionType = ReductionType::Sum;
  MeanReductionStrategy meanAccumulationAndReplicationReductionStrategy =
      MeanReductionStrategy::Post;
  VirtualGraphMode virtualGraphMode = VirtualGraphMode::Off;
  std::vector<float> virtualGraphSplitRatios;
  bool enablePipelining = false;
  /// Replicas in several processes (started by mpirun): this process's
  /// replicas are globalReplicaOffset ... + local replicas - 1 of
  /// globalReplicationFactor. Their gradients are reduced, and the weights
  /// broadcast by weightsFromHost, over MPI (popart/mpi.hpp).
  bool enableDistributedReplicatedGraphs = false;
  int64_t globalReplicationFactor = 1;
  int64_t globalReplicaOffset = 0;
  /// Each weight's gradient goes to the host before its update and comes
  /// back reduced (streams gradientStore__<id> and gradientLoad__<id>,
  /// TrainingSession::getHostReduceStreamIds): by MPI across the processes
  /// with enableDistributedReplicatedGraphs, else by the callbacks the
  /// user connects (connectStreamToCallback; Horovod's
  /// DistributedOptimizer), unchanged without them.
  bool hostAllReduce = false;
  bool enableExplicitMainLoops = false;
  bool useHostCopyOps = false;
  bool aliasZeroCopy = false;

  // Numerics.
  bool enableStochasticRounding = false;
  bool enableFloatingPointChecks = false;
  bool enableNonStableSoftmax = false;
  bool enableStableNorm = false;
  std::string partialsTypeMatMuls;
  bool enableFullyConnectedPass = true;
  bool enableSerializedMatmuls = true;
  bool enableSupportedDataTypeCasting = true;

  // Options passed to poplar and poplibs.
  std::map<std::string, std::string> engineOptions;
  std::map<std::string, std::string> convolutionOptions;
  std::map<std::string, std::string> lstmOptions;
  std::map<std::string, std::string> matmulOptions;
  std::map<std::string, std::string> reportOptions;
  std::map<std::string, std::string> gclOptions;

  // Compilation and caching.
  /// false: prepareDevice builds the poplar graph but compiles no engine
  /// (nothing can run; compileAndExport still compiles).
  bool compileEngine = true;
  /// Initializers become constants of the graph (inference).
  bool constantWeights = true;
  /// Keep each compiled executable as <cachePath>/<key>.popef and load it
  /// instead of compiling when the key (model, options, device, SDK
  /// version, ...) is the same.
  bool enableEngineCaching = false;
  /// Cached files hold the variables' values too.
  bool enableVariablesCaching = true;
  std::string cachePath = "session_cache";
  /// Called with (progress, compilationProgressTotal) as the device is
  /// prepared; without it progress is logged (and drawn as a bar on a
  /// terminal).
  std::function<void(int, int)> compilationProgressLogger;
  int compilationProgressTotal = 100;

  // Instrumentation.
  bool instrumentWithHardwareCycleCounter = false;
  std::set<Instrumentation> hardwareInstrumentations = {Instrumentation::Outer};
  SyntheticDataMode syntheticDataMode = SyntheticDataMode::Off;

  // Miscellaneous.
  /// Ops must be of exactly the version the model's opset implies.
  bool strictOpVersions = true;
  bool disableGradAccumulationTensorStreams = false;
  bool enableLoadAndOffloadRNGState = false;

  // Tensor locations (popart/README.md, "Replicated tensor sharding").
  /// With ReplicatedTensorSharding::On and replicatedGraphCount R > 1, each
  /// weight's optimiser state (SGD momentum, Adam and Adaptive moments) of
  /// at least minElementsForReplicatedTensorSharding elements is held as
  /// 1/R per replica: the gradient is reduce-scattered, the update runs on
  /// the replica's shard and the weight is all-gathered.
  TensorLocationSettings optimizerStateTensorLocationSettings =
      TensorLocationSettings{TensorLocation(), 2, 8192};
  /// Activations are never sharded (RTS On is ignored, as the original
  /// does); weights and accumulators stay whole on chip.
  TensorLocationSettings activationTensorLocationSettings =
      TensorLocationSettings{TensorLocation(), 2, 8192};
  TensorLocationSettings weightTensorLocationSettings =
      TensorLocationSettings{TensorLocation(), 2, 8192};
  TensorLocationSettings accumulatorTensorLocationSettings =
      TensorLocationSettings{TensorLocation(), 2, 8192};
  bool delayVarUpdates = true;
  std::vector<std::string> customCodelets;
  double timeLimitScheduler = 1e9;
  int64_t swapLimitScheduler = static_cast<int64_t>(1e9);
  /// Tie breaker of the scheduler's topological sort: "greedy" or "fifo".
  std::string kahnTieBreaker = "greedy";
  bool decomposeGradSum = false;
  bool opxAliasChecking = false;
  bool opxModifyChecking = false;
  bool enableMergeExchange = true;
  bool enableConstantFoldingOfMultipleConsumers = true;

  int64_t getGlobalReplicationFactor() const;
  unsigned getAccumulationFactor() const;
  bool explicitPipeliningEnabled() const { return false; }
  bool implicitPipeliningEnabled() const { return enablePipelining; }
};

} // namespace popart

#endif
