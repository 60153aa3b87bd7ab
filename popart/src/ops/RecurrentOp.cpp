#include "ops/RecurrentOp.hpp"

#include <popart/error.hpp>

#include <map>

namespace popart {

namespace {

// The activations taking alpha and beta, with their ONNX defaults.
struct ActivationDefaults {
  bool hasAlpha, hasBeta;
  float alpha, beta;
};
const std::map<std::string, ActivationDefaults> &activationTable() {
  static const std::map<std::string, ActivationDefaults> table = {
      {"Sigmoid", {false, false, 0, 0}},
      {"Tanh", {false, false, 0, 0}},
      {"Relu", {false, false, 0, 0}},
      {"Softsign", {false, false, 0, 0}},
      {"Softplus", {false, false, 0, 0}},
      {"Affine", {true, true, 1.0f, 0.0f}},
      {"LeakyRelu", {true, false, 0.01f, 0}},
      {"ThresholdedRelu", {true, false, 1.0f, 0}},
      {"ScaledTanh", {true, true, 1.0f, 1.0f}},
      {"HardSigmoid", {true, true, 0.2f, 0.5f}},
      {"Elu", {true, false, 1.0f, 0}}};
  return table;
}

} // namespace

RecurrentOp::RecurrentOp(const OperatorIdentifier &id,
                         const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), hiddenSize(a.getInt("hidden_size", 0)),
      layout(a.getInt("layout", 0)),
      direction(a.getString("direction", "forward")),
      clip(a.getFloat("clip", 0.0f)) {
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    throw error("{} '{}': direction '{}' is not forward, reverse or "
                "bidirectional",
                id.type, settings.name, direction);
  if (layout != 0 && layout != 1)
    throw error("{} '{}': layout {} is neither 0 nor 1", id.type,
                settings.name, layout);
  if (a.has("clip") && clip <= 0)
    throw error("{} '{}': clip {} must be positive", id.type, settings.name,
                clip);
  if (isGru())
    linearBeforeReset = a.getInt("linear_before_reset", 0) != 0;
  if (isLstm())
    inputForget = a.getInt("input_forget", 0) != 0;
  const std::vector<std::string> defaults =
      isLstm() ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
      : isGru() ? std::vector<std::string>{"Sigmoid", "Tanh"}
                : std::vector<std::string>{"Tanh"};
  std::vector<std::string> names = a.has("activations")
                                       ? a.getStrings("activations")
                                       : std::vector<std::string>{};
  const std::vector<float> alphas = a.has("activation_alpha")
                                        ? a.getFloats("activation_alpha")
                                        : std::vector<float>{};
  const std::vector<float> betas = a.has("activation_beta")
                                       ? a.getFloats("activation_beta")
                                       : std::vector<float>{};
  const std::size_t dirs = std::size_t(directions());
  if (names.empty())
    for (std::size_t d = 0; d < dirs; ++d)
      names.insert(names.end(), defaults.begin(), defaults.end());
  if (names.size() != defaults.size() * dirs)
    throw error("{} '{}': {} activations for {} direction(s) of {} each",
                id.type, settings.name, names.size(), dirs, defaults.size());
  std::size_t nextAlpha = 0, nextBeta = 0;
  activations.assign(dirs, {});
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto found = activationTable().find(names[i]);
    if (found == activationTable().end())
      throw error("{} '{}': activation '{}' is not supported", id.type,
                  settings.name, names[i]);
    RecurrentActivation act{names[i], found->second.alpha, found->second.beta};
    if (found->second.hasAlpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (found->second.hasBeta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    activations[i / defaults.size()].push_back(act);
  }
}

void RecurrentOp::setup() {
  const Shape x = inShape(0);
  if (x.size() != 3)
    throw error("{}: input '{}' of shape {} is not 3-D", str(),
                inTensor(0)->id, x);
  if (inInfo(0).dataType() != DataType::FLOAT &&
      inInfo(0).dataType() != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; FLOAT and FLOAT16 are supported", str(),
                inTensor(0)->id, inInfo(0).data_type());
  seqLength = layout == 0 ? x[0] : x[1];
  batchSize = layout == 0 ? x[1] : x[0];
  inputSize = x[2];
  const int64_t dirs = directions(), h = hiddenSize, g = gates();
  if (h <= 0)
    throw error("{}: hidden_size {} must be positive", str(), h);
  auto expect = [&](InIndex i, const char *what, const Shape &shape) {
    if (hasInput(i) && inShape(i) != shape)
      throw error("{}: {} '{}' has shape {}, not {}", str(), what,
                  inTensor(i)->id, inShape(i), shape);
  };
  expect(1, "W", {dirs, g * h, inputSize});
  expect(2, "R", {dirs, g * h, h});
  expect(3, "B", {dirs, 2 * g * h});
  expect(4, "sequence_lens", {batchSize});
  expect(5, "initial_h", {dirs, batchSize, h});
  if (isLstm()) {
    expect(6, "initial_c", {dirs, batchSize, h});
    expect(7, "P", {dirs, 3 * h});
  }
  if (hasInput(4) && inInfo(4).dataType() != DataType::INT32 &&
      inInfo(4).dataType() != DataType::INT64)
    throw error("{}: sequence_lens '{}' is {}, not INT32", str(),
                inTensor(4)->id, inInfo(4).data_type());
  const DataType type = inInfo(0).dataType();
  const Shape y = layout == 0 ? Shape{seqLength, dirs, batchSize, h}
                              : Shape{batchSize, seqLength, dirs, h};
  const Shape state =
      layout == 0 ? Shape{dirs, batchSize, h} : Shape{batchSize, dirs, h};
  if (hasOutput(0))
    outInfo(0) = TensorInfo(type, y);
  for (OutIndex o = 1; o < (isLstm() ? 3 : 2); ++o)
    if (hasOutput(o))
      outInfo(o) = TensorInfo(type, state);
}

} // namespace popart
