// The optimiser base, its values, and the replacement checks.
#include <popart/error.hpp>
#include <popart/optimizer.hpp>

#include <ostream>

namespace popart {

void OptimizerValue::validReplacement(const OptimizerValue &rhs) const {
  if (isConst() != rhs.isConst())
    throw error("the new value is {}, the compiled one {} (constness cannot "
                "change without recompiling)",
                rhs.isConst() ? "constant" : "not constant",
                isConst() ? "constant" : "not constant");
  if (isConst() && val() != rhs.val())
    throw error("it is a constant {} in the compiled session and cannot "
                "become {}",
                val(), rhs.val());
}

OptimizerValue OptimizerValueMap::get(const TensorId &id) const {
  auto it = specifics.find(id);
  return it == specifics.end() ? defaultOptVal : it->second;
}

void OptimizerValueMap::insertSpecific(const TensorId &id, OptimizerValue v) {
  specifics[id] = v;
}

void OptimizerValueMap::validReplacement(const OptimizerValueMap &rhs) const {
  try {
    defaultOptVal.validReplacement(rhs.defaultOptVal);
  } catch (const error &e) {
    throw error("its default: {}", e.what());
  }
  if (specifics.size() != rhs.specifics.size())
    throw error("it has values for {} weights, the compiled one for {}",
                rhs.specifics.size(), specifics.size());
  for (const auto &s : specifics) {
    auto it = rhs.specifics.find(s.first);
    if (it == rhs.specifics.end())
      throw error("it has no value for weight '{}', which the compiled one "
                  "has",
                  s.first);
    try {
      s.second.validReplacement(it->second);
    } catch (const error &e) {
      throw error("weight '{}': {}", s.first, e.what());
    }
  }
}

ClipNormSettings::ClipNormSettings(const std::vector<TensorId> &ids, float m)
    : ClipNormSettings(ids, m, Mode::ClipSpecifiedWeights) {}

ClipNormSettings::ClipNormSettings(const std::vector<TensorId> &ids, float m,
                                   Mode mode_)
    : weightIds(ids), maxNorm(m), mode(mode_) {
  if (!(maxNorm > 0.0f))
    throw error("ClipNormSettings: maxNorm must be positive, not {}", maxNorm);
  if (mode == Mode::ClipSpecifiedWeights && weightIds.empty())
    throw error("ClipNormSettings: a group of clipped weights needs at least "
                "one weight");
}

ClipNormSettings ClipNormSettings::clipWeights(const std::vector<TensorId> &ids,
                                               float maxNorm) {
  return ClipNormSettings(ids, maxNorm, Mode::ClipSpecifiedWeights);
}

ClipNormSettings ClipNormSettings::clipAllWeights(float maxNorm) {
  return ClipNormSettings({}, maxNorm, Mode::ClipAllWeights);
}

bool ClipNormSettings::operator==(const ClipNormSettings &o) const {
  return weightIds == o.weightIds && maxNorm == o.maxNorm && mode == o.mode;
}

std::ostream &operator<<(std::ostream &os, const WeightDecayMode &m) {
  return os << (m == WeightDecayMode::Decay ? "Decay" : "L2Regularization");
}

std::map<std::string, OptimizerValue>
getOptMap(const std::map<std::string, std::pair<float, bool>> &m) {
  std::map<std::string, OptimizerValue> out;
  for (const auto &p : m)
    out.emplace(p.first, OptimizerValue(p.second));
  return out;
}

Optimizer::Optimizer(OptimizerValue lossScaling,
                     const std::vector<ClipNormSettings> &clipNormSettings_,
                     const DebugContext &debugContext_)
    : debugContext(debugContext_), ls(lossScaling),
      clipNormSettings(clipNormSettings_) {
  if (!(ls.val() > 0.0f))
    throw error("Optimizer: the loss scaling must be positive, not {}",
                ls.val());
  int allWeightGroups = 0;
  for (const auto &c : clipNormSettings)
    allWeightGroups += c.getMode() == ClipNormSettings::Mode::ClipAllWeights;
  if (allWeightGroups && clipNormSettings.size() > 1)
    throw error("Optimizer: ClipNormSettings::clipAllWeights cannot be "
                "combined with other clipping groups");
}

Optimizer::~Optimizer() = default;

void Optimizer::validReplacement(const Optimizer &other) const {
  if (other.type() != type())
    throw error("New optimizer is not a valid replacement: it is {}, the "
                "compiled one {}",
                other.type_s(), type_s());
  try {
    ls.validReplacement(other.ls);
  } catch (const error &e) {
    throw error("New optimizer is not a valid replacement. Problem with the "
                "loss scaling: {}",
                e.what());
  }
  if (clipNormSettings != other.clipNormSettings)
    throw error("New optimizer is not a valid replacement: its gradient "
                "clipping differs from the compiled one's");
}

std::size_t Optimizer::hash() const {
  std::size_t h = std::hash<int>()(static_cast<int>(type()));
  h = h * 31 + std::hash<float>()(ls.val()) + ls.isConst();
  for (const auto &c : clipNormSettings) {
    h = h * 31 + std::hash<float>()(c.maxNorm);
    for (const auto &w : c.weightIds)
      h = h * 31 + std::hash<std::string>()(w);
  }
  return h;
}

} // namespace popart
