// SessionOptions on the device under test (SDK_TEST_DEVICE): the fields this
// implementation cannot honour are refused with an error naming them; the
// numerical ones (enableNonStableSoftmax) and customCodelets do what they
// say.
#include "PopartTestDevice.hpp"
#include "ProcessFile.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/op.hpp>
#include <popart/opmanager.hpp>
#include <popart/popx/opx.hpp>
#include <popart/popx/opxmanager.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>

#include <poplar/Graph.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

struct Model {
  std::string proto;
  TensorId x, y;
};

Model softmaxModel() {
  auto b = Builder::create();
  Model m;
  m.x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 3}));
  m.y = b->aiOnnxOpset13().softmax({m.x}, 1);
  b->addOutputTensor(m.y);
  m.proto = b->getModelProto();
  return m;
}

Floats runOnce(const std::string &proto, const TensorId &x, const TensorId &y,
               Floats input, std::size_t outputs, const SessionOptions &opts) {
  auto session = InferenceSession::createFromOnnxModel(
      proto, DataFlow(1, {{y, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice(), InputShapeInfo(), opts);
  session->prepareDevice();
  session->weightsFromHost();
  Floats out(outputs);
  NDArrayWrapper<float> xw(input.data(), {int64_t(input.size())});
  NDArrayWrapper<float> yw(out.data(), {int64_t(outputs)});
  std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{y, yw}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  return out;
}

// ---------------------------------------------------------------------------
// A custom op whose lowering adds a vertex from a codelet file given by
// SessionOptions::customCodelets.

const OperatorIdentifier timesThreeId = {"test.ops", "TimesThree", 1};

class TimesThreeOp : public Op {
public:
  TimesThreeOp(const OperatorIdentifier &id, const Op::Settings &settings)
      : Op(id, settings) {}
  std::unique_ptr<Op> clone() const override {
    return std::unique_ptr<Op>(new TimesThreeOp(*this));
  }
  void setup() override { outInfo(0) = inInfo(0); }
};

const OpDefinition::DataTypes floatOnly = {DataType::FLOAT};
OpCreator<TimesThreeOp> timesThreeCreator(
    OpDefinitions({{timesThreeId,
                    OpDefinition({{"input", floatOnly}},
                                 {{"output", floatOnly}}, {})}}),
    [](const OpCreatorInfo &info) -> std::unique_ptr<Op> {
      return std::unique_ptr<Op>(new TimesThreeOp(info.opid, info.settings));
    },
    true);

class TimesThreeOpx : public popx::Opx {
public:
  TimesThreeOpx(Op *op, popx::Devicex *devicex) : popx::Opx(op, devicex) {}
  void grow(poplar::program::Sequence &prog) const override {
    const poplar::Tensor in = getInTensor(0);
    poplar::Tensor out = graph().clone(in, "timesThree");
    poplar::ComputeSet cs = graph().addComputeSet("timesThree");
    const auto v = graph().addVertex(cs, "TimesThreeVertex",
                                     {{"in", in.flatten()}, {"out", out.flatten()}});
    graph().setTileMapping(v, 0);
    prog.add(poplar::program::Execute(cs));
    setOutTensor(0, out);
  }
};
popx::OpxCreator<TimesThreeOpx> timesThreeOpxCreator({timesThreeId});

std::string writeCodelet() {
  const std::string path =
      popart_test::processFile("session_options_test_codelet", ".cpp");
  std::ofstream(path) << R"(#include <poplar/Vertex.hpp>
using namespace poplar;
class TimesThreeVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = 3.0f * in[i];
    return true;
  }
};
)";
  return path;
}

} // namespace

TEST_CASE("Options that cannot be honoured are refused by name",
          "[popart][options]") {
  const Model m = softmaxModel();
  using Setter = std::function<void(SessionOptions &)>;
  const std::vector<std::pair<std::string, Setter>> refused = {
      {"exportPoplarComputationGraph",
       [](SessionOptions &o) { o.exportPoplarComputationGraph = true; }},
      {"exportPoplarVertexGraph",
       [](SessionOptions &o) { o.exportPoplarVertexGraph = true; }},
      {"outlineThreshold", [](SessionOptions &o) { o.outlineThreshold = 2; }},
      {"outlineSequenceBreakCost",
       [](SessionOptions &o) { o.outlineSequenceBreakCost = 1; }},
      {"explicitRecomputation",
       [](SessionOptions &o) { o.explicitRecomputation = true; }},
      {"mergeVarUpdate",
       [](SessionOptions &o) { o.mergeVarUpdate = MergeVarUpdateType::All; }},
      {"mergeVarUpdateMemThreshold",
       [](SessionOptions &o) { o.mergeVarUpdateMemThreshold = 1; }},
      {"looseThresholdAtPeak",
       [](SessionOptions &o) { o.looseThresholdAtPeak = 1; }},
      {"rearrangeAnchorsOnHost",
       [](SessionOptions &o) { o.rearrangeAnchorsOnHost = false; }},
      {"rearrangeStreamsOnHost",
       [](SessionOptions &o) { o.rearrangeStreamsOnHost = true; }},
      {"defaultBufferingDepth",
       [](SessionOptions &o) { o.defaultBufferingDepth = 2; }},
      {"defaultPrefetchBufferingDepth",
       [](SessionOptions &o) { o.defaultPrefetchBufferingDepth = 2; }},
      {"bufferingDepthMap",
       [&](SessionOptions &o) { o.bufferingDepthMap[m.x] = 2; }},
      {"prefetchBufferingDepthMap",
       [&](SessionOptions &o) { o.prefetchBufferingDepthMap[m.x] = 2; }},
      {"virtualGraphMode",
       [](SessionOptions &o) {
         o.virtualGraphMode = VirtualGraphMode::ExecutionPhases;
       }},
      {"virtualGraphSplitRatios",
       [](SessionOptions &o) { o.virtualGraphSplitRatios = {0.5f, 0.5f}; }},
      {"enablePipelining", [](SessionOptions &o) { o.enablePipelining = true; }},
      // Without enableDistributedReplicatedGraphs.
      {"globalReplicaOffset",
       [](SessionOptions &o) { o.globalReplicaOffset = 1; }},
      {"globalReplicationFactor",
       [](SessionOptions &o) { o.globalReplicationFactor = 2; }},
      {"hostAllReduce", [](SessionOptions &o) { o.hostAllReduce = true; }},
      {"meanAccumulationAndReplicationReductionStrategy",
       [](SessionOptions &o) {
         o.meanAccumulationAndReplicationReductionStrategy =
             MeanReductionStrategy::Running;
       }},
      {"enableExplicitMainLoops",
       [](SessionOptions &o) { o.enableExplicitMainLoops = true; }},
      {"useHostCopyOps", [](SessionOptions &o) { o.useHostCopyOps = true; }},
      {"aliasZeroCopy", [](SessionOptions &o) { o.aliasZeroCopy = true; }},
      {"enableStochasticRounding",
       [](SessionOptions &o) { o.enableStochasticRounding = true; }},
      {"enableFloatingPointChecks",
       [](SessionOptions &o) { o.enableFloatingPointChecks = true; }},
      {"enableStableNorm", [](SessionOptions &o) { o.enableStableNorm = true; }},
      {"enableFullyConnectedPass",
       [](SessionOptions &o) { o.enableFullyConnectedPass = false; }},
      {"enableSupportedDataTypeCasting",
       [](SessionOptions &o) { o.enableSupportedDataTypeCasting = false; }},
      {"lstmOptions",
       [](SessionOptions &o) { o.lstmOptions["availableMemoryProportion"] = "0.3"; }},
      {"gclOptions", [](SessionOptions &o) { o.gclOptions["useSynclessCollectives"] = "true"; }},
      {"hardwareInstrumentations",
       [](SessionOptions &o) {
         o.hardwareInstrumentations = {Instrumentation::Inner};
       }},
      {"syntheticDataMode",
       [](SessionOptions &o) { o.syntheticDataMode = SyntheticDataMode::Zeros; }},
      {"strictOpVersions", [](SessionOptions &o) { o.strictOpVersions = false; }},
      {"disableGradAccumulationTensorStreams",
       [](SessionOptions &o) { o.disableGradAccumulationTensorStreams = true; }},
      {"enableLoadAndOffloadRNGState",
       [](SessionOptions &o) { o.enableLoadAndOffloadRNGState = true; }},
      {"delayVarUpdates", [](SessionOptions &o) { o.delayVarUpdates = false; }},
      {"timeLimitScheduler", [](SessionOptions &o) { o.timeLimitScheduler = 5; }},
      {"swapLimitScheduler", [](SessionOptions &o) { o.swapLimitScheduler = 5; }},
      {"decomposeGradSum", [](SessionOptions &o) { o.decomposeGradSum = true; }},
      {"opxAliasChecking", [](SessionOptions &o) { o.opxAliasChecking = true; }},
      {"opxModifyChecking", [](SessionOptions &o) { o.opxModifyChecking = true; }},
      {"enableMergeExchange",
       [](SessionOptions &o) { o.enableMergeExchange = false; }},
      {"autoRecomputation",
       [](SessionOptions &o) { o.autoRecomputation = RecomputationType::Standard; }},
      {"activationTensorLocationSettings.location.storage OffChip",
       [](SessionOptions &o) {
         o.activationTensorLocationSettings.location.storage =
             TensorStorage::OffChip;
       }},
      {"accumulatorTensorLocationSettings.location: tile sets",
       [](SessionOptions &o) {
         o.accumulatorTensorLocationSettings.location = TensorLocation(
             TensorStorage::OnChip, TileSet::IO, TileSet::IO,
             ReplicatedTensorSharding::Off);
       }},
      {"enableGradientAccumulation",
       [](SessionOptions &o) {
         o.enableGradientAccumulation = true;
         o.accumulationFactor = 2;
       }},
  };
  for (const auto &r : refused) {
    INFO(r.first);
    SessionOptions opts;
    r.second(opts);
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            m.proto, DataFlow(1, {{m.y, AnchorReturnType("ALL")}}),
            popart_test::createTestDevice(), InputShapeInfo(), opts),
        Catch::Contains("SessionOptions::" + r.first));
  }
}

TEST_CASE("enableNonStableSoftmax leaves out the maximum", "[popart][options]") {
  const Model m = softmaxModel();
  SessionOptions nonStable;
  nonStable.enableNonStableSoftmax = true;
  // Small inputs: the same probabilities either way.
  const Floats small = {1.0f, 2.0f, 3.0f};
  const float sum = std::exp(1.0f) + std::exp(2.0f) + std::exp(3.0f);
  for (const auto &opts : {SessionOptions(), nonStable}) {
    const Floats p = runOnce(m.proto, m.x, m.y, small, 3, opts);
    for (int i = 0; i < 3; ++i)
      REQUIRE(p[i] == Approx(std::exp(float(i + 1)) / sum).epsilon(1e-5));
  }
  // Inputs beyond exp's range: only the stable form survives.
  const Floats large = {100.0f, 101.0f, 0.0f};
  const Floats stable = runOnce(m.proto, m.x, m.y, large, 3, SessionOptions());
  REQUIRE(stable[1] == Approx(1.0f / (1.0f + std::exp(-1.0f))).epsilon(1e-5));
  const Floats overflowed = runOnce(m.proto, m.x, m.y, large, 3, nonStable);
  REQUIRE(std::isnan(overflowed[0]));
  REQUIRE(std::isnan(overflowed[1]));
}

TEST_CASE("customCodelets are added to the graph for custom ops' vertices",
          "[popart][options]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  auto y = b->customOp(timesThreeId, 1, {x}, 1, {}).at(0);
  b->addOutputTensor(y);
  const std::string proto = b->getModelProto();
  const std::string codelet = writeCodelet();

  SessionOptions opts;
  opts.customCodelets = {codelet};
  const Floats out = runOnce(proto, x, y, {1, -2, 0.5f, 4}, 4, opts);
  REQUIRE(out == Floats{3, -6, 1.5f, 12});

  // Without the codelets the vertex is unknown; a missing file is named.
  REQUIRE_THROWS_WITH(runOnce(proto, x, y, {1, 2, 3, 4}, 4, SessionOptions()),
                      Catch::Contains("TimesThreeVertex"));
  opts.customCodelets = {"no_such_codelets.cpp"};
  REQUIRE_THROWS_WITH(runOnce(proto, x, y, {1, 2, 3, 4}, 4, opts),
                      Catch::Contains("SessionOptions::customCodelets") &&
                          Catch::Contains("no_such_codelets.cpp"));
  std::remove(codelet.c_str());
}
