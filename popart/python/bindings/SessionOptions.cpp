// SessionOptions with every field as a property, and the enums of its
// fields. Fields holding a dict, list or set are bound as `_<name>`;
// popart/__init__.py makes `<name>` a property whose value writes through
// (`opts.engineOptions["debug.instrument"] = "true"` changes the options),
// from the names listed in SessionOptions._containerFields.
#include "Bindings.hpp"

#include <popart/sessionoptions.hpp>

#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <sstream>

namespace popart {
namespace python {

namespace {

using Options = SessionOptions;

class OptionsBinder {
public:
  explicit OptionsBinder(py::class_<Options> &cls) : cls(cls) {}

  template <class T> OptionsBinder &field(const char *name, T Options::*member) {
    cls.def_readwrite(name, member);
    return *this;
  }
  template <class T> OptionsBinder &container(const char *name, T Options::*member) {
    cls.def_readwrite(("_" + std::string(name)).c_str(), member);
    containers.append(name);
    return *this;
  }
  void finish() { cls.attr("_containerFields") = containers; }

private:
  py::class_<Options> &cls;
  py::list containers;
};

void bindEnums(py::module_ &m) {
  py::enum_<VirtualGraphMode>(m, "VirtualGraphMode")
      .value("Off", VirtualGraphMode::Off)
      .value("Manual", VirtualGraphMode::Manual)
      .value("Auto", VirtualGraphMode::Auto)
      .value("ExecutionPhases", VirtualGraphMode::ExecutionPhases);
  // None is a Python keyword: the original calls it NoRecompute.
  py::enum_<RecomputationType>(m, "RecomputationType")
      .value("NoRecompute", RecomputationType::None)
      .value("Standard", RecomputationType::Standard)
      .value("NormOnly", RecomputationType::NormOnly)
      .value("RecomputeAll", RecomputationType::RecomputeAll)
      .value("Pipeline", RecomputationType::Pipeline);
  py::enum_<MergeVarUpdateType>(m, "MergeVarUpdateType")
      .value("Off", MergeVarUpdateType::None)
      .value("All", MergeVarUpdateType::All)
      .value("AutoLoose", MergeVarUpdateType::AutoLoose)
      .value("AutoTight", MergeVarUpdateType::AutoTight);
  py::enum_<SyntheticDataMode>(m, "SyntheticDataMode")
      .value("Off", SyntheticDataMode::Off)
      .value("Zeros", SyntheticDataMode::Zeros)
      .value("RandomNormal", SyntheticDataMode::RandomNormal)
      .value("RandomUniform", SyntheticDataMode::RandomUniform);
  py::enum_<Instrumentation>(m, "Instrumentation")
      .value("Outer", Instrumentation::Outer)
      .value("Inner", Instrumentation::Inner);
  py::enum_<IrSerializationFormat>(m, "IrSerializationFormat")
      .value("JSON", IrSerializationFormat::JSON);
  py::enum_<ReductionType>(m, "ReductionType")
      .value("Sum", ReductionType::Sum)
      .value("Mean", ReductionType::Mean)
      .value("NoReduction", ReductionType::NoReduction);
  py::enum_<MeanReductionStrategy>(m, "MeanReductionStrategy")
      .value("Running", MeanReductionStrategy::Running)
      .value("Post", MeanReductionStrategy::Post)
      .value("PostAndLoss", MeanReductionStrategy::PostAndLoss);
}

void bindTensorLocations(py::module_ &m) {
  py::enum_<CommGroupType>(m, "CommGroupType")
      .value("All", CommGroupType::All)
      .value("Consecutive", CommGroupType::Consecutive)
      .value("Orthogonal", CommGroupType::Orthogonal)
      .value("Ungrouped", CommGroupType::None);
  py::class_<CommGroup>(m, "CommGroup")
      .def(py::init<>())
      .def(py::init<CommGroupType, unsigned>(), py::arg("type"),
           py::arg("replicaGroupSize"))
      .def_readwrite("type", &CommGroup::type)
      .def_readwrite("replicaGroupSize", &CommGroup::replicaGroupSize)
      .def(py::self == py::self)
      .def("__repr__", [](const CommGroup &g) {
        std::ostringstream s;
        s << g;
        return s.str();
      });
  py::enum_<TensorStorage>(m, "TensorStorage")
      .value("OnChip", TensorStorage::OnChip)
      .value("OffChip", TensorStorage::OffChip);
  // TileSet is bound with DataFlow's InputSettings.
  py::enum_<ReplicatedTensorSharding>(m, "ReplicatedTensorSharding")
      .value("Off", ReplicatedTensorSharding::Off)
      .value("On", ReplicatedTensorSharding::On);
  py::class_<TensorLocation>(m, "TensorLocation")
      .def(py::init<>())
      .def(py::init<TensorStorage>(), py::arg("storage"))
      .def(py::init<TensorStorage, ReplicatedTensorSharding>(),
           py::arg("storage"), py::arg("replicatedTensorSharding"))
      .def(py::init<TensorStorage, ReplicatedTensorSharding, CommGroup>(),
           py::arg("storage"), py::arg("replicatedTensorSharding"),
           py::arg("shardingDomain"))
      .def(py::init<TensorStorage, TileSet, TileSet, ReplicatedTensorSharding>(),
           py::arg("storage"), py::arg("loadTileSet"),
           py::arg("storageTileSet"), py::arg("replicatedTensorSharding"))
      .def(py::init<TensorStorage, TileSet, TileSet, ReplicatedTensorSharding,
                    CommGroup>(),
           py::arg("storage"), py::arg("loadTileSet"),
           py::arg("storageTileSet"), py::arg("replicatedTensorSharding"),
           py::arg("shardingDomain"))
      .def_readwrite("storage", &TensorLocation::storage)
      .def_readwrite("loadTileSet", &TensorLocation::loadTileSet)
      .def_readwrite("storageTileSet", &TensorLocation::storageTileSet)
      .def_readwrite("replicatedTensorSharding",
                     &TensorLocation::replicatedTensorSharding)
      .def_readwrite("shardingDomain", &TensorLocation::shardingDomain);
  py::class_<TensorLocationSettings>(m, "TensorLocationSettings")
      .def(py::init<>())
      .def(py::init<TensorLocation, int, int>(), py::arg("location"),
           py::arg("minElementsForOffChip") = 2,
           py::arg("minElementsForReplicatedTensorSharding") = 8192)
      .def(py::init<TensorStorage, int, int>(), py::arg("storage"),
           py::arg("minElementsForOffChip") = 2,
           py::arg("minElementsForReplicatedTensorSharding") = 8192)
      .def_readwrite("location", &TensorLocationSettings::location)
      .def_readwrite("minElementsForOffChip",
                     &TensorLocationSettings::minElementsForOffChip)
      .def_readwrite("minElementsForReplicatedTensorSharding",
                     &TensorLocationSettings::minElementsForReplicatedTensorSharding)
      .def("__repr__", [](const TensorLocationSettings &s) {
        return toString(s);
      });
}

} // namespace

void bindSessionOptions(py::module_ &m) {
  bindEnums(m);
  bindTensorLocations(m);
  py::class_<Options> cls(m, "SessionOptions");
  cls.def(py::init<>());
  cls.def("getGlobalReplicationFactor", &Options::getGlobalReplicationFactor);
  cls.def("getAccumulationFactor", &Options::getAccumulationFactor);
  cls.def("explicitPipeliningEnabled", &Options::explicitPipeliningEnabled);
  cls.def("implicitPipeliningEnabled", &Options::implicitPipeliningEnabled);
  OptionsBinder(cls)
      // Debugging.
      .field("logDir", &Options::logDir)
      .container("dotChecks", &Options::dotChecks)
      .field("firstDotOp", &Options::firstDotOp)
      .field("finalDotOp", &Options::finalDotOp)
      .field("dotOpNames", &Options::dotOpNames)
      .field("exportPoplarComputationGraph", &Options::exportPoplarComputationGraph)
      .field("exportPoplarVertexGraph", &Options::exportPoplarVertexGraph)
      // Outlining.
      .field("enableOutlining", &Options::enableOutlining)
      .field("enableOutliningCopyCostPruning", &Options::enableOutliningCopyCostPruning)
      .field("outlineThreshold", &Options::outlineThreshold)
      .field("outlineSequenceBreakCost", &Options::outlineSequenceBreakCost)
      // Recomputation and variable updates.
      .field("autoRecomputation", &Options::autoRecomputation)
      .field("explicitRecomputation", &Options::explicitRecomputation)
      .field("mergeVarUpdate", &Options::mergeVarUpdate)
      .field("mergeVarUpdateMemThreshold", &Options::mergeVarUpdateMemThreshold)
      .field("looseThresholdAtPeak", &Options::looseThresholdAtPeak)
      // Streams.
      .field("rearrangeAnchorsOnHost", &Options::rearrangeAnchorsOnHost)
      .field("rearrangeStreamsOnHost", &Options::rearrangeStreamsOnHost)
      .field("enablePrefetchDatastreams", &Options::enablePrefetchDatastreams)
      .field("defaultBufferingDepth", &Options::defaultBufferingDepth)
      .field("defaultPrefetchBufferingDepth", &Options::defaultPrefetchBufferingDepth)
      .container("bufferingDepthMap", &Options::bufferingDepthMap)
      .container("prefetchBufferingDepthMap", &Options::prefetchBufferingDepthMap)
      // Parallelism.
      .field("enableReplicatedGraphs", &Options::enableReplicatedGraphs)
      .field("replicatedGraphCount", &Options::replicatedGraphCount)
      .field("enableGradientAccumulation", &Options::enableGradientAccumulation)
      .field("accumulationFactor", &Options::accumulationFactor)
      .field("accumulationAndReplicationReductionType",
             &Options::accumulationAndReplicationReductionType)
      .field("meanAccumulationAndReplicationReductionStrategy",
             &Options::meanAccumulationAndReplicationReductionStrategy)
      .field("virtualGraphMode", &Options::virtualGraphMode)
      .container("virtualGraphSplitRatios", &Options::virtualGraphSplitRatios)
      .field("enablePipelining", &Options::enablePipelining)
      .field("enableDistributedReplicatedGraphs",
             &Options::enableDistributedReplicatedGraphs)
      .field("globalReplicationFactor", &Options::globalReplicationFactor)
      .field("globalReplicaOffset", &Options::globalReplicaOffset)
      .field("hostAllReduce", &Options::hostAllReduce)
      .field("enableExplicitMainLoops", &Options::enableExplicitMainLoops)
      .field("useHostCopyOps", &Options::useHostCopyOps)
      .field("aliasZeroCopy", &Options::aliasZeroCopy)
      // Numerics.
      .field("enableStochasticRounding", &Options::enableStochasticRounding)
      .field("enableFloatingPointChecks", &Options::enableFloatingPointChecks)
      .field("enableNonStableSoftmax", &Options::enableNonStableSoftmax)
      .field("enableStableNorm", &Options::enableStableNorm)
      .field("partialsTypeMatMuls", &Options::partialsTypeMatMuls)
      .field("enableFullyConnectedPass", &Options::enableFullyConnectedPass)
      .field("enableSerializedMatmuls", &Options::enableSerializedMatmuls)
      .field("enableSupportedDataTypeCasting", &Options::enableSupportedDataTypeCasting)
      // Options of poplar and PopLibs.
      .container("engineOptions", &Options::engineOptions)
      .container("convolutionOptions", &Options::convolutionOptions)
      .container("lstmOptions", &Options::lstmOptions)
      .container("matmulOptions", &Options::matmulOptions)
      .container("reportOptions", &Options::reportOptions)
      .container("gclOptions", &Options::gclOptions)
      // Compilation and caching.
      .field("compileEngine", &Options::compileEngine)
      .field("constantWeights", &Options::constantWeights)
      .field("enableEngineCaching", &Options::enableEngineCaching)
      .field("enableVariablesCaching", &Options::enableVariablesCaching)
      .field("cachePath", &Options::cachePath)
      .field("compilationProgressLogger", &Options::compilationProgressLogger)
      .field("compilationProgressTotal", &Options::compilationProgressTotal)
      // Instrumentation.
      .field("instrumentWithHardwareCycleCounter",
             &Options::instrumentWithHardwareCycleCounter)
      .container("hardwareInstrumentations", &Options::hardwareInstrumentations)
      .field("syntheticDataMode", &Options::syntheticDataMode)
      // Miscellaneous.
      .field("strictOpVersions", &Options::strictOpVersions)
      .field("disableGradAccumulationTensorStreams",
             &Options::disableGradAccumulationTensorStreams)
      .field("enableLoadAndOffloadRNGState", &Options::enableLoadAndOffloadRNGState)
      // Tensor locations.
      .field("activationTensorLocationSettings",
             &Options::activationTensorLocationSettings)
      .field("weightTensorLocationSettings", &Options::weightTensorLocationSettings)
      .field("optimizerStateTensorLocationSettings",
             &Options::optimizerStateTensorLocationSettings)
      .field("accumulatorTensorLocationSettings",
             &Options::accumulatorTensorLocationSettings)
      .field("delayVarUpdates", &Options::delayVarUpdates)
      .container("customCodelets", &Options::customCodelets)
      .field("timeLimitScheduler", &Options::timeLimitScheduler)
      .field("swapLimitScheduler", &Options::swapLimitScheduler)
      .field("kahnTieBreaker", &Options::kahnTieBreaker)
      .field("decomposeGradSum", &Options::decomposeGradSum)
      .field("opxAliasChecking", &Options::opxAliasChecking)
      .field("opxModifyChecking", &Options::opxModifyChecking)
      .field("enableMergeExchange", &Options::enableMergeExchange)
      .field("enableConstantFoldingOfMultipleConsumers",
             &Options::enableConstantFoldingOfMultipleConsumers)
      .finish();
}

} // namespace python
} // namespace popart
