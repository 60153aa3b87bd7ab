#include "optimizer/OptimizerMaps.hpp"

#include <popart/adaptive.hpp>
#include <popart/error.hpp>
#include <popart/tensorinfo.hpp>

#include <ostream>

namespace popart {
namespace {

const std::vector<std::string> adaptiveKeys = {
    "defaultLearningRate", "defaultWeightDecay", "defaultAlpha",
    "defaultMomentum",     "defaultEps",         "lossScaling"};

std::map<std::string, OptimizerValue>
adaptiveMap(const std::map<std::string, std::pair<float, bool>> &params) {
  auto m = getOptMap(params);
  checkKeys(m, adaptiveKeys, "Adaptive");
  return m;
}

void checkAdaptiveValues(const OptimizerValue &lr, const OptimizerValue &wd,
                         const OptimizerValue &a, const OptimizerValue &mm,
                         const OptimizerValue &eps) {
  if (lr.val() < 0.0f)
    throw error("Adaptive: the learning rate must not be negative ({})",
                lr.val());
  if (wd.val() < 0.0f)
    throw error("Adaptive: the weight decay must not be negative ({})",
                wd.val());
  if (a.val() < 0.0f || a.val() > 1.0f)
    throw error("Adaptive: alpha must be in [0, 1], not {}", a.val());
  if (mm.val() < 0.0f || mm.val() >= 1.0f)
    throw error("Adaptive: the momentum must be in [0, 1), not {}", mm.val());
  if (eps.val() < 0.0f)
    throw error("Adaptive: eps must not be negative ({})", eps.val());
}

} // namespace

std::ostream &operator<<(std::ostream &os, const AdaptiveMode &m) {
  static const char *names[] = {"AdaGrad", "RMSProp", "CenteredRMSProp",
                                "AdaDelta"};
  return os << names[static_cast<int>(m)];
}

Adaptive::Adaptive(OptimizerValue lr, OptimizerValue wd, OptimizerValue a,
                   OptimizerValue mm, OptimizerValue eps,
                   OptimizerValue lossScaling, AdaptiveMode mode_,
                   WeightDecayMode decayMode_, DataType accumType_,
                   DataType accl1Type_, DataType accl2Type_,
                   DataType accl3Type_, bool tf, const DebugContext &dc)
    : Optimizer(lossScaling, {}, dc), lrs(lr), wds(wd), as(a), mms(mm),
      epsvs(eps), mode(mode_), decayMode(decayMode_), accumType(accumType_),
      accl1Type(accl1Type_), accl2Type(accl2Type_), accl3Type(accl3Type_),
      rmspropTFVariant(tf) {
  checkAdaptiveValues(lr, wd, a, mm, eps);
  for (DataType t : {accumType, accl1Type, accl2Type, accl3Type})
    if (t != DataType::UNDEFINED && t != DataType::FLOAT &&
        t != DataType::FLOAT16)
      throw error("Adaptive: the optimiser state types must be FLOAT, FLOAT16 "
                  "or UNDEFINED (the weight's), not {}",
                  getDataTypeInfo(t).name());
  if (tf && mode != AdaptiveMode::RMSProp &&
      mode != AdaptiveMode::CenteredRMSProp)
    throw error("Adaptive: the TensorFlow variant exists for RMSProp and "
                "CenteredRMSProp only, not {}",
                static_cast<int>(mode));
}

Adaptive::Adaptive(const std::map<std::string, std::pair<float, bool>> &params,
                   AdaptiveMode mode_, WeightDecayMode decayMode_,
                   DataType accumType_, DataType accl1Type_,
                   DataType accl2Type_, DataType accl3Type_, bool tf,
                   const DebugContext &dc)
    : Adaptive(
          valueOr(adaptiveMap(params), "defaultLearningRate",
                  getUnsetLearningRate()),
          valueOr(adaptiveMap(params), "defaultWeightDecay",
                  getUnsetWeightDecay()),
          valueOr(adaptiveMap(params), "defaultAlpha", getUnsetAlpha()),
          valueOr(adaptiveMap(params), "defaultMomentum", getUnsetMomentum()),
          valueOr(adaptiveMap(params), "defaultEps", getUnsetEps()),
          valueOr(adaptiveMap(params), "lossScaling", getUnsetLossScaling()),
          mode_, decayMode_, accumType_, accl1Type_, accl2Type_, accl3Type_,
          tf, dc) {}

Adaptive::~Adaptive() = default;

Adaptive Adaptive::fromDefaultMap(const std::map<std::string, OptimizerValue> &m,
                                  AdaptiveMode mode_, WeightDecayMode decayMode_,
                                  DataType accumType_, DataType accl1Type_,
                                  DataType accl2Type_, DataType accl3Type_,
                                  const DebugContext &dc) {
  checkKeys(m, adaptiveKeys, "Adaptive");
  return Adaptive(valueOr(m, "defaultLearningRate", getUnsetLearningRate()),
                  valueOr(m, "defaultWeightDecay", getUnsetWeightDecay()),
                  valueOr(m, "defaultAlpha", getUnsetAlpha()),
                  valueOr(m, "defaultMomentum", getUnsetMomentum()),
                  valueOr(m, "defaultEps", getUnsetEps()),
                  valueOr(m, "lossScaling", getUnsetLossScaling()), mode_,
                  decayMode_, accumType_, accl1Type_, accl2Type_, accl3Type_,
                  false, dc);
}

std::unique_ptr<Optimizer> Adaptive::clone() const {
  return std::make_unique<Adaptive>(*this);
}

void Adaptive::insertSpecific(const TensorId &w, OptimizerValue lr,
                              OptimizerValue wd, OptimizerValue a,
                              OptimizerValue mm, OptimizerValue eps) {
  checkAdaptiveValues(lr, wd, a, mm, eps);
  lrs.insertSpecific(w, lr);
  wds.insertSpecific(w, wd);
  as.insertSpecific(w, a);
  mms.insertSpecific(w, mm);
  epsvs.insertSpecific(w, eps);
}

void Adaptive::insertSpecific(
    const TensorId &w, const std::map<std::string, std::pair<float, bool>> &p) {
  const auto m = getOptMap(p);
  checkKeys(m, {"learningRate", "weightDecay", "alpha", "momentum", "eps"},
            "Adaptive::insertSpecific");
  insertSpecific(w, valueOr(m, "learningRate", lrs.getDefault()),
                 valueOr(m, "weightDecay", wds.getDefault()),
                 valueOr(m, "alpha", as.getDefault()),
                 valueOr(m, "momentum", mms.getDefault()),
                 valueOr(m, "eps", epsvs.getDefault()));
}

bool Adaptive::hasSpecific(const TensorId &w) const {
  return lrs.hasSpecific(w) || wds.hasSpecific(w) || as.hasSpecific(w) ||
         mms.hasSpecific(w) || epsvs.hasSpecific(w);
}

bool Adaptive::hasSpecific() const {
  return lrs.hasSpecific() || wds.hasSpecific() || as.hasSpecific() ||
         mms.hasSpecific() || epsvs.hasSpecific();
}

void Adaptive::validReplacement(const Optimizer &other) const {
  Optimizer::validReplacement(other);
  const auto &o = static_cast<const Adaptive &>(other);
  checkReplacement(lrs, o.lrs, "the learning rate");
  checkReplacement(wds, o.wds, "the weight decay");
  checkReplacement(as, o.as, "alpha");
  checkReplacement(mms, o.mms, "the momentum");
  checkReplacement(epsvs, o.epsvs, "eps");
  if (mode != o.mode || decayMode != o.decayMode ||
      rmspropTFVariant != o.rmspropTFVariant || accumType != o.accumType ||
      accl1Type != o.accl1Type || accl2Type != o.accl2Type ||
      accl3Type != o.accl3Type)
    throw error("New optimizer is not a valid replacement: its mode, weight "
                "decay mode, variant or state types differ from the compiled "
                "one's");
}

std::size_t Adaptive::hash() const {
  std::size_t h = Optimizer::hash();
  for (const auto *m : {&lrs, &wds, &as, &mms, &epsvs})
    h = h * 31 + hashValues(*m);
  return h * 31 + static_cast<std::size_t>(mode) * 7 +
         static_cast<std::size_t>(decayMode) + rmspropTFVariant;
}

} // namespace popart
