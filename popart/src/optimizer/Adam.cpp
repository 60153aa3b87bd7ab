#include "optimizer/OptimizerMaps.hpp"

#include <popart/adam.hpp>
#include <popart/error.hpp>
#include <popart/tensorinfo.hpp>

#include <ostream>

namespace popart {
namespace {

const std::vector<std::string> adamKeys = {
    "defaultLearningRate", "defaultWeightDecay", "defaultBeta1",
    "defaultBeta2",        "defaultEps",         "defaultMaxWeightNorm",
    "lossScaling"};

std::map<std::string, OptimizerValue>
adamMap(const std::map<std::string, std::pair<float, bool>> &params) {
  auto m = getOptMap(params);
  checkKeys(m, adamKeys, "Adam");
  return m;
}

void checkAdamValues(const OptimizerValue &lr, const OptimizerValue &wd,
                     const OptimizerValue &b1, const OptimizerValue &b2,
                     const OptimizerValue &eps, const OptimizerValue &mwn) {
  if (lr.val() < 0.0f)
    throw error("Adam: the learning rate must not be negative ({})", lr.val());
  if (wd.val() < 0.0f)
    throw error("Adam: the weight decay must not be negative ({})", wd.val());
  if (b1.val() < 0.0f || b1.val() >= 1.0f)
    throw error("Adam: beta1 must be in [0, 1), not {}", b1.val());
  if (b2.val() < 0.0f || b2.val() >= 1.0f)
    throw error("Adam: beta2 must be in [0, 1), not {}", b2.val());
  if (eps.val() < 0.0f)
    throw error("Adam: eps must not be negative ({})", eps.val());
  if (!(mwn.val() > 0.0f))
    throw error("Adam: the maximum weight norm must be positive ({})",
                mwn.val());
}

void checkStateType(DataType t, const char *what) {
  if (t != DataType::UNDEFINED && t != DataType::FLOAT &&
      t != DataType::FLOAT16)
    throw error("{}: the optimiser state types must be FLOAT, FLOAT16 or "
                "UNDEFINED (the weight's), not {}",
                what, getDataTypeInfo(t).name());
}

} // namespace

std::ostream &operator<<(std::ostream &os, const AdamMode &m) {
  static const char *names[] = {"Adam", "AdamNoBias", "AdaMax", "Lamb",
                                "LambNoBias"};
  return os << names[static_cast<int>(m)];
}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1,
           OptimizerValue b2, OptimizerValue eps, OptimizerValue lossScaling,
           OptimizerValue mwn, AdamMode mode_, WeightDecayMode decayMode_,
           DataType accumType_, DataType accl1Type_, DataType accl2Type_,
           const std::vector<ClipNormSettings> &clip, bool scaled,
           const DebugContext &dc)
    : Optimizer(lossScaling, clip, dc), lrs(lr), wds(wd), b1s(b1), b2s(b2),
      epsvs(eps), mwns(mwn), mode(mode_), decayMode(decayMode_),
      accumType(accumType_), accl1Type(accl1Type_), accl2Type(accl2Type_),
      scaledOptimizerState(scaled) {
  checkAdamValues(lr, wd, b1, b2, eps, mwn);
  for (DataType t : {accumType, accl1Type, accl2Type})
    checkStateType(t, "Adam");
}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1,
           OptimizerValue b2, OptimizerValue eps, OptimizerValue lossScaling,
           AdamMode mode_, WeightDecayMode decayMode_, DataType accumType_,
           DataType accl1Type_, DataType accl2Type_,
           const std::vector<ClipNormSettings> &clip, bool scaled,
           const DebugContext &dc)
    : Adam(lr, wd, b1, b2, eps, lossScaling, getUnsetMaxWeightNorm(), mode_,
           decayMode_, accumType_, accl1Type_, accl2Type_, clip, scaled, dc) {}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1,
           OptimizerValue b2, OptimizerValue eps, OptimizerValue lossScaling,
           OptimizerValue mwn, AdamMode mode_, DataType accumType_,
           DataType accl1Type_, DataType accl2Type_,
           const std::vector<ClipNormSettings> &clip, bool scaled,
           const DebugContext &dc)
    : Adam(lr, wd, b1, b2, eps, lossScaling, mwn, mode_,
           WeightDecayMode::Decay, accumType_, accl1Type_, accl2Type_, clip,
           scaled, dc) {}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1,
           OptimizerValue b2, OptimizerValue eps, OptimizerValue lossScaling,
           AdamMode mode_, DataType accumType_, DataType accl1Type_,
           DataType accl2Type_, const std::vector<ClipNormSettings> &clip,
           bool scaled, const DebugContext &dc)
    : Adam(lr, wd, b1, b2, eps, lossScaling, getUnsetMaxWeightNorm(), mode_,
           WeightDecayMode::Decay, accumType_, accl1Type_, accl2Type_, clip,
           scaled, dc) {}

Adam::Adam(const std::map<std::string, std::pair<float, bool>> &params,
           AdamMode mode_, WeightDecayMode decayMode_, DataType accumType_,
           DataType accl1Type_, DataType accl2Type_,
           const std::vector<ClipNormSettings> &clip, bool scaled,
           const DebugContext &dc)
    : Adam(valueOr(adamMap(params), "defaultLearningRate",
                   getUnsetLearningRate()),
           valueOr(adamMap(params), "defaultWeightDecay", getUnsetWeightDecay()),
           valueOr(adamMap(params), "defaultBeta1", getUnsetBeta1()),
           valueOr(adamMap(params), "defaultBeta2", getUnsetBeta2()),
           valueOr(adamMap(params), "defaultEps", getUnsetEps()),
           valueOr(adamMap(params), "lossScaling", getUnsetLossScaling()),
           valueOr(adamMap(params), "defaultMaxWeightNorm",
                   getUnsetMaxWeightNorm()),
           mode_, decayMode_, accumType_, accl1Type_, accl2Type_, clip, scaled,
           dc) {}

Adam::~Adam() = default;

Adam Adam::fromDefaultMap(const std::map<std::string, OptimizerValue> &m,
                          AdamMode mode_, WeightDecayMode decayMode_,
                          DataType accumType_, DataType accl1Type_,
                          DataType accl2Type_, const DebugContext &dc) {
  checkKeys(m, adamKeys, "Adam");
  return Adam(valueOr(m, "defaultLearningRate", getUnsetLearningRate()),
              valueOr(m, "defaultWeightDecay", getUnsetWeightDecay()),
              valueOr(m, "defaultBeta1", getUnsetBeta1()),
              valueOr(m, "defaultBeta2", getUnsetBeta2()),
              valueOr(m, "defaultEps", getUnsetEps()),
              valueOr(m, "lossScaling", getUnsetLossScaling()),
              valueOr(m, "defaultMaxWeightNorm", getUnsetMaxWeightNorm()),
              mode_, decayMode_, accumType_, accl1Type_, accl2Type_, {}, false,
              dc);
}

std::unique_ptr<Optimizer> Adam::clone() const {
  return std::make_unique<Adam>(*this);
}

void Adam::insertSpecific(const TensorId &w, OptimizerValue lr,
                          OptimizerValue wd, OptimizerValue b1,
                          OptimizerValue b2, OptimizerValue eps,
                          OptimizerValue mwn) {
  checkAdamValues(lr, wd, b1, b2, eps, mwn);
  lrs.insertSpecific(w, lr);
  wds.insertSpecific(w, wd);
  b1s.insertSpecific(w, b1);
  b2s.insertSpecific(w, b2);
  epsvs.insertSpecific(w, eps);
  mwns.insertSpecific(w, mwn);
}

void Adam::insertSpecific(
    const TensorId &w, const std::map<std::string, std::pair<float, bool>> &p) {
  const auto m = getOptMap(p);
  checkKeys(m,
            {"learningRate", "weightDecay", "beta1", "beta2", "eps",
             "maxWeightNorm"},
            "Adam::insertSpecific");
  insertSpecific(w, valueOr(m, "learningRate", lrs.getDefault()),
                 valueOr(m, "weightDecay", wds.getDefault()),
                 valueOr(m, "beta1", b1s.getDefault()),
                 valueOr(m, "beta2", b2s.getDefault()),
                 valueOr(m, "eps", epsvs.getDefault()),
                 valueOr(m, "maxWeightNorm", mwns.getDefault()));
}

bool Adam::hasSpecific(const TensorId &w) const {
  return lrs.hasSpecific(w) || wds.hasSpecific(w) || b1s.hasSpecific(w) ||
         b2s.hasSpecific(w) || epsvs.hasSpecific(w) || mwns.hasSpecific(w);
}

bool Adam::hasSpecific() const {
  return lrs.hasSpecific() || wds.hasSpecific() || b1s.hasSpecific() ||
         b2s.hasSpecific() || epsvs.hasSpecific() || mwns.hasSpecific();
}

void Adam::validReplacement(const Optimizer &other) const {
  Optimizer::validReplacement(other);
  const auto &o = static_cast<const Adam &>(other);
  checkReplacement(lrs, o.lrs, "the learning rate");
  checkReplacement(wds, o.wds, "the weight decay");
  checkReplacement(b1s, o.b1s, "beta1");
  checkReplacement(b2s, o.b2s, "beta2");
  checkReplacement(epsvs, o.epsvs, "eps");
  checkReplacement(mwns, o.mwns, "the maximum weight norm");
  if (mode != o.mode || decayMode != o.decayMode ||
      accumType != o.accumType || accl1Type != o.accl1Type ||
      accl2Type != o.accl2Type ||
      scaledOptimizerState != o.scaledOptimizerState)
    throw error("New optimizer is not a valid replacement: its mode, weight "
                "decay mode or state types differ from the compiled one's");
}

std::size_t Adam::hash() const {
  std::size_t h = Optimizer::hash();
  for (const auto *m : {&lrs, &wds, &b1s, &b2s, &epsvs, &mwns})
    h = h * 31 + hashValues(*m);
  return h * 31 + static_cast<std::size_t>(mode) * 7 +
         static_cast<std::size_t>(decayMode);
}

} // namespace popart
