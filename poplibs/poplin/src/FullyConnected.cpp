#include <poplin/FullyConnected.hpp>

#include <poputil/exceptions.hpp>

#include <string>

namespace poplin {
namespace fc {

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(FullyConnectedParams p,
                           poplar::OptionFlags matmulOptions,
                           poplar::Type type, bool inferenceOnly) {
  const std::pair<const char *, std::size_t> sizes[] = {
      {"numGroups", p.numGroups},
      {"batchSize", p.batchSize},
      {"inputSize", p.inputSize},
      {"outputSize", p.outputSize}};
  for (const auto &s : sizes)
    if (s.second == 0)
      throw poputil::poplibs_error(
          std::string("poplin::fc::getMatMulPrePlanParameters: ") + s.first +
          " is 0");
  const std::size_t g = p.numGroups;
  auto pass = [&](const char *name, std::vector<std::size_t> a,
                  std::vector<std::size_t> b) {
    poplar::OptionFlags options = matmulOptions;
    options.set("fullyConnectedPass", name);
    return std::make_pair(MatMulParams{type, type, std::move(a), std::move(b)},
                          options);
  };
  std::vector<std::pair<MatMulParams, poplar::OptionFlags>> passes;
  passes.push_back(pass(inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD",
                        {g, p.batchSize, p.inputSize},
                        {g, p.inputSize, p.outputSize}));
  if (!inferenceOnly) {
    passes.push_back(pass("TRAINING_BWD", {g, p.batchSize, p.outputSize},
                          {g, p.outputSize, p.inputSize}));
    passes.push_back(pass("TRAINING_WU", {g, p.inputSize, p.batchSize},
                          {g, p.batchSize, p.outputSize}));
  }
  return passes;
}

} // namespace fc
} // namespace poplin
