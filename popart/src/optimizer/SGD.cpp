#include "optimizer/OptimizerMaps.hpp"

#include <popart/error.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/sgd.hpp>

#include <ostream>

namespace popart {

std::ostream &operator<<(std::ostream &os, const SGDAccumulatorAndMomentum &s) {
  return os << (s == SGDAccumulatorAndMomentum::Combined ? "Combined"
                                                         : "Separate");
}

SGD::SGD(OptimizerValue lr, OptimizerValue wd, OptimizerValue mm,
         OptimizerValue dp, OptimizerValue vs, OptimizerValue lossScaling,
         OptimizerValue nt, const std::vector<ClipNormSettings> &clip,
         SGDAccumulatorAndMomentum sgdAccMm_, DataType accumType_,
         DataType accl1Type_, const DebugContext &dc)
    : Optimizer(lossScaling, clip, dc), lrs(lr), wds(wd), mms(mm), dps(dp),
      vss(vs), nts(nt), sgdAccMm(sgdAccMm_), accumType(accumType_),
      accl1Type(accl1Type_) {
  check(lr, wd, mm, dp, vs, nt);
  for (DataType t : {accumType, accl1Type})
    if (t != DataType::UNDEFINED && t != DataType::FLOAT &&
        t != DataType::FLOAT16)
      throw error("SGD: the accumulator and velocity types must be FLOAT, "
                  "FLOAT16 or UNDEFINED (the weight's), not {}",
                  getDataTypeInfo(t).name());
}

SGD::SGD(OptimizerValue lr, OptimizerValue wd, OptimizerValue mm,
         OptimizerValue dp, OptimizerValue vs, OptimizerValue lossScaling,
         const std::vector<ClipNormSettings> &clip,
         SGDAccumulatorAndMomentum sgdAccMm_, DataType accumType_,
         DataType accl1Type_, const DebugContext &dc)
    : SGD(lr, wd, mm, dp, vs, lossScaling, getUnsetNesterov(), clip, sgdAccMm_,
          accumType_, accl1Type_, dc) {}

namespace {
const std::vector<std::string> sgdKeys = {
    "defaultLearningRate", "defaultWeightDecay",     "defaultMomentum",
    "defaultDampening",    "defaultVelocityScaling", "lossScaling",
    "nesterov"};

std::map<std::string, OptimizerValue> sgdMap(
    const std::map<std::string, std::pair<float, bool>> &params) {
  auto m = getOptMap(params);
  checkKeys(m, sgdKeys, "SGD");
  return m;
}
} // namespace

SGD::SGD(const std::map<std::string, std::pair<float, bool>> &params,
         const std::vector<ClipNormSettings> &clip,
         SGDAccumulatorAndMomentum sgdAccMm_, DataType accumType_,
         DataType accl1Type_, const DebugContext &dc)
    : SGD(valueOr(sgdMap(params), "defaultLearningRate", getUnsetLearningRate()),
          valueOr(sgdMap(params), "defaultWeightDecay", getUnsetWeightDecay()),
          valueOr(sgdMap(params), "defaultMomentum", getUnsetMomentum()),
          valueOr(sgdMap(params), "defaultDampening", getUnsetDampening()),
          valueOr(sgdMap(params), "defaultVelocityScaling",
                  getUnsetVelocityScaling()),
          valueOr(sgdMap(params), "lossScaling", getUnsetLossScaling()),
          valueOr(sgdMap(params), "nesterov", getUnsetNesterov()), clip,
          sgdAccMm_, accumType_, accl1Type_, dc) {}

SGD::~SGD() = default;

SGD SGD::fromDefaultMap(const std::map<std::string, OptimizerValue> &m,
                        const DebugContext &dc) {
  checkKeys(m, sgdKeys, "SGD");
  return SGD(valueOr(m, "defaultLearningRate", getUnsetLearningRate()),
             valueOr(m, "defaultWeightDecay", getUnsetWeightDecay()),
             valueOr(m, "defaultMomentum", getUnsetMomentum()),
             valueOr(m, "defaultDampening", getUnsetDampening()),
             valueOr(m, "defaultVelocityScaling", getUnsetVelocityScaling()),
             valueOr(m, "lossScaling", getUnsetLossScaling()),
             valueOr(m, "nesterov", getUnsetNesterov()), {},
             SGDAccumulatorAndMomentum::Combined, DataType::UNDEFINED,
             DataType::UNDEFINED, dc);
}

void SGD::check(const OptimizerValue &lr, const OptimizerValue &wd,
                const OptimizerValue &mm, const OptimizerValue &dp,
                const OptimizerValue &vs, const OptimizerValue &nt) const {
  if (lr.val() < 0.0f)
    throw error("SGD: the learning rate must not be negative ({})", lr.val());
  if (wd.val() < 0.0f)
    throw error("SGD: the weight decay must not be negative ({})", wd.val());
  if (mm.val() < 0.0f || mm.val() >= 1.0f)
    throw error("SGD: the momentum must be in [0, 1), not {}", mm.val());
  if (dp.val() < 0.0f || dp.val() > 1.0f)
    throw error("SGD: the dampening must be in [0, 1], not {}", dp.val());
  if (!(vs.val() > 0.0f))
    throw error("SGD: the velocity scaling must be positive, not {}", vs.val());
  if (nt.val() != 0.0f && nt.val() != 1.0f)
    throw error("SGD: nesterov must be 0 or 1, not {}", nt.val());
  if (nt.val() != 0.0f && !(mm.val() > 0.0f && dp.val() == 0.0f))
    throw error("SGD: Nesterov momentum needs a positive momentum and no "
                "dampening (momentum {}, dampening {})",
                mm.val(), dp.val());
}

std::unique_ptr<Optimizer> SGD::clone() const {
  return std::make_unique<SGD>(*this);
}

void SGD::insertSpecific(const TensorId &w, OptimizerValue lr,
                         OptimizerValue wd, OptimizerValue mm,
                         OptimizerValue dp, OptimizerValue vs,
                         OptimizerValue nt) {
  check(lr, wd, mm, dp, vs, nt);
  lrs.insertSpecific(w, lr);
  wds.insertSpecific(w, wd);
  mms.insertSpecific(w, mm);
  dps.insertSpecific(w, dp);
  vss.insertSpecific(w, vs);
  nts.insertSpecific(w, nt);
}

void SGD::insertSpecific(
    const TensorId &w, const std::map<std::string, std::pair<float, bool>> &p) {
  const auto m = getOptMap(p);
  checkKeys(m,
            {"learningRate", "weightDecay", "momentum", "dampening",
             "velocityScaling", "nesterov"},
            "SGD::insertSpecific");
  insertSpecific(w, valueOr(m, "learningRate", lrs.getDefault()),
                 valueOr(m, "weightDecay", wds.getDefault()),
                 valueOr(m, "momentum", mms.getDefault()),
                 valueOr(m, "dampening", dps.getDefault()),
                 valueOr(m, "velocityScaling", vss.getDefault()),
                 valueOr(m, "nesterov", nts.getDefault()));
}

bool SGD::hasSpecific(const TensorId &w) const {
  return lrs.hasSpecific(w) || wds.hasSpecific(w) || mms.hasSpecific(w) ||
         dps.hasSpecific(w) || vss.hasSpecific(w) || nts.hasSpecific(w);
}

bool SGD::hasSpecific() const {
  return lrs.hasSpecific() || wds.hasSpecific() || mms.hasSpecific() ||
         dps.hasSpecific() || vss.hasSpecific() || nts.hasSpecific();
}

bool SGD::hasMomentum(const TensorId &w) const {
  const OptimizerValue mm = mms.get(w);
  return !mm.isConst() || mm.val() != 0.0f;
}

void SGD::validReplacement(const Optimizer &other) const {
  Optimizer::validReplacement(other);
  const auto &o = static_cast<const SGD &>(other);
  checkReplacement(lrs, o.lrs, "the learning rate");
  checkReplacement(wds, o.wds, "the weight decay");
  checkReplacement(mms, o.mms, "the momentum");
  checkReplacement(dps, o.dps, "the dampening");
  checkReplacement(vss, o.vss, "the velocity scaling");
  checkReplacement(nts, o.nts, "nesterov");
  if (sgdAccMm != o.sgdAccMm || accumType != o.accumType ||
      accl1Type != o.accl1Type)
    throw error("New optimizer is not a valid replacement: its accumulator "
                "and momentum settings differ from the compiled one's");
}

std::size_t SGD::hash() const {
  std::size_t h = Optimizer::hash();
  for (const auto *m : {&lrs, &wds, &mms, &dps, &vss, &nts})
    h = h * 31 + hashValues(*m);
  return h * 31 + static_cast<std::size_t>(sgdAccMm);
}

ConstSGD::ConstSGD(float lr, float wd, float ls,
                   const std::vector<ClipNormSettings> &clip)
    : SGD({lr, true}, {wd, true}, getUnsetMomentum(), getUnsetDampening(),
          getUnsetVelocityScaling(), {ls, true}, clip) {}

} // namespace popart
