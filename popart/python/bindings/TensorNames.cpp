// The reserved prefixes of tensor names (popart.reservedGradientPrefix()
// ...) and the default opset versions of the builder's domains.
#include "Bindings.hpp"

#include <popart/graphcoreoperators.hpp>
#include <popart/tensornames.hpp>

#include <pybind11/stl.h>

namespace popart {
namespace python {

void bindTensorNames(py::module_ &m) {
  using Prefix = TensorId (*)();
  const std::pair<const char *, Prefix> prefixes[] = {
      {"reservedGradientPrefix", &reservedGradientPrefix},
      {"reservedUpdatedVarPrefix", &reservedUpdatedVarPrefix},
      {"reservedAccumPrefix", &reservedAccumPrefix},
      {"reservedAcclPrefix", &reservedAcclPrefix},
      {"reservedAccl1Prefix", &reservedAccl1Prefix},
      {"reservedAccl2Prefix", &reservedAccl2Prefix},
      {"reservedAccl3Prefix", &reservedAccl3Prefix},
      {"reservedCounterPrefix", &reservedCounterPrefix},
      {"reservedStepPrefix", &reservedStepPrefix},
      {"reservedStashedPrefix", &reservedStashedPrefix},
      {"reservedRestoredPrefix", &reservedRestoredPrefix},
      {"reservedLossScalingPrefix", &reservedLossScalingPrefix},
      {"reservedRandomSeedPrefix", &reservedRandomSeedPrefix},
      {"reservedSeedModifierPrefix", &reservedSeedModifierPrefix},
      {"reservedInitPrefix", &reservedInitPrefix},
      {"reservedConcatInitPrefix", &reservedConcatInitPrefix},
      {"reservedConstValuePrefix", &reservedConstValuePrefix},
      {"reservedLoopIteratorPrefix", &reservedLoopIteratorPrefix},
      {"reservedLoopCondPrefix", &reservedLoopCondPrefix},
      {"reservedRemoteArgPrefix", &reservedRemoteArgPrefix},
      {"reservedIndexPrefix", &reservedIndexPrefix},
      {"reservedGlobalNormPrefix", &reservedGlobalNormPrefix},
      {"reservedAdamUpdaterPrefix", &reservedAdamUpdaterPrefix},
      {"reservedLambR1SqPrefix", &reservedLambR1SqPrefix},
      {"reservedLambR2SqPrefix", &reservedLambR2SqPrefix},
      {"reservedOptimizerPrefix", &reservedOptimizerPrefix},
      {"reservedRecomputePrefix", &reservedRecomputePrefix},
      {"cycleCountPrefix", &cycleCountPrefix}};
  for (const auto &[name, prefix] : prefixes) {
    const Prefix f = prefix;
    m.def(name, [f]() { return f(); });
  }
  m.def("reservedPrefixes", &reservedPrefixes);
  m.def("getGradId", &getGradId, py::arg("tensorId"));
  m.def("isGradId", &isGradId, py::arg("tensorId"));
  m.def("getNonGradId", &getNonGradId, py::arg("tensorId"));

  m.attr("defaultAiOnnxOpset") = defaultAiOnnxOpset;
  m.attr("defaultAiOnnxMlOpset") = defaultAiOnnxMlOpset;
  m.attr("defaultAiGraphcoreOpset") = defaultAiGraphcoreOpset;
}

} // namespace python
} // namespace popart
