// Stochastic gradient descent, with PyTorch's update:
//   g = gradient / lossScaling (/ accumulationFactor for mean accumulation)
//   v = v * momentum + (1 - dampening) * (g + weightDecay * w)
//   w = w - learningRate * v          (w - lr * (g + mm * v) with nesterov)
// kept by velocityScaling times larger for numerical range. With no
// momentum (and no accumulation) no velocity is kept (SGD0); otherwise the
// velocity is one tensor with the gradient accumulator (Combined, SGD1)
// or a tensor of its own (Separate, SGD2).
#ifndef POPART_SGD_HPP
#define POPART_SGD_HPP

#include <popart/datatype.hpp>
#include <popart/optimizer.hpp>

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {

enum class SGDAccumulatorAndMomentum { Combined = 0, Separate };

POPART_API std::ostream &operator<<(std::ostream &os,
                                    const SGDAccumulatorAndMomentum &s);

class POPART_API SGD : public Optimizer {
public:
  static OptimizerValue getUnsetLearningRate() { return {0.1f, true}; }
  static OptimizerValue getUnsetWeightDecay() { return {0.0f, true}; }
  static OptimizerValue getUnsetMomentum() { return {0.0f, true}; }
  static OptimizerValue getUnsetDampening() { return {0.0f, true}; }
  static OptimizerValue getUnsetVelocityScaling() { return {1.0f, true}; }
  static OptimizerValue getUnsetLossScaling() { return {1.0f, true}; }
  static OptimizerValue getUnsetNesterov() { return {0.0f, true}; }

  SGD(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
      OptimizerValue defaultMomentum, OptimizerValue defaultDampening,
      OptimizerValue defaultVelocityScaling, OptimizerValue lossScaling,
      OptimizerValue nesterov,
      const std::vector<ClipNormSettings> &clipNormSettings = {},
      SGDAccumulatorAndMomentum sgdAccMm = SGDAccumulatorAndMomentum::Combined,
      DataType accumType = DataType::UNDEFINED,
      DataType accl1Type = DataType::UNDEFINED,
      const DebugContext &debugContext = {});
  SGD(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
      OptimizerValue defaultMomentum, OptimizerValue defaultDampening,
      OptimizerValue defaultVelocityScaling, OptimizerValue lossScaling,
      const std::vector<ClipNormSettings> &clipNormSettings = {},
      SGDAccumulatorAndMomentum sgdAccMm = SGDAccumulatorAndMomentum::Combined,
      DataType accumType = DataType::UNDEFINED,
      DataType accl1Type = DataType::UNDEFINED,
      const DebugContext &debugContext = {});
  /// From {"defaultLearningRate": {0.1, false}, ...}: the keys are
  /// defaultLearningRate, defaultWeightDecay, defaultMomentum,
  /// defaultDampening, defaultVelocityScaling, lossScaling and nesterov;
  /// those absent take the getUnset* values.
  SGD(const std::map<std::string, std::pair<float, bool>> &params,
      const std::vector<ClipNormSettings> &clipNormSettings = {},
      SGDAccumulatorAndMomentum sgdAccMm = SGDAccumulatorAndMomentum::Combined,
      DataType accumType = DataType::UNDEFINED,
      DataType accl1Type = DataType::UNDEFINED,
      const DebugContext &debugContext = {});
  SGD() : SGD(std::map<std::string, std::pair<float, bool>>{}) {}
  SGD(const SGD &) = default;
  ~SGD() override;

  static SGD fromDefaultMap(const std::map<std::string, OptimizerValue> &,
                            const DebugContext &debugContext = {});

  OptimizerType type() const override { return OptimizerType::SGD; }
  std::string type_s() const override { return "SGD"; }
  std::unique_ptr<Optimizer> clone() const override;
  void validReplacement(const Optimizer &other) const override;
  bool hasSpecific(const TensorId &w) const override;
  bool hasSpecific() const override;
  std::size_t hash() const override;

  /// Values of weight `weight` other than the defaults.
  void insertSpecific(const TensorId &weight, OptimizerValue learningRate,
                      OptimizerValue weightDecay, OptimizerValue momentum,
                      OptimizerValue dampening, OptimizerValue velocityScaling,
                      OptimizerValue nesterov = getUnsetNesterov());
  /// From {"learningRate": {v, const}, "weightDecay": ..., "momentum",
  /// "dampening", "velocityScaling", "nesterov"}.
  void insertSpecific(const TensorId &weight,
                      const std::map<std::string, std::pair<float, bool>> &params);

  const OptimizerValueMap &learningRates() const { return lrs; }
  const OptimizerValueMap &weightDecays() const { return wds; }
  const OptimizerValueMap &momentums() const { return mms; }
  const OptimizerValueMap &dampenings() const { return dps; }
  const OptimizerValueMap &velocityScalings() const { return vss; }
  const OptimizerValueMap &nesterov() const { return nts; }
  SGDAccumulatorAndMomentum getSGDAccumulatorAndMomentum() const {
    return sgdAccMm;
  }
  DataType getAccumType() const { return accumType; }
  DataType getAccl1Type() const { return accl1Type; }
  /// Whether weight `w` keeps a velocity (a momentum that is not a
  /// constant zero).
  bool hasMomentum(const TensorId &w) const;

private:
  void check(const OptimizerValue &lr, const OptimizerValue &wd,
             const OptimizerValue &mm, const OptimizerValue &dp,
             const OptimizerValue &vs, const OptimizerValue &nt) const;
  OptimizerValueMap lrs, wds, mms, dps, vss, nts;
  SGDAccumulatorAndMomentum sgdAccMm;
  DataType accumType, accl1Type;
};

/// SGD whose learning rate, weight decay and loss scaling are constants.
class POPART_API ConstSGD : public SGD {
public:
  ConstSGD(float learningRate, float weightDecay = 0, float lossScaling = 1,
           const std::vector<ClipNormSettings> &clipNormSettings = {});
};

} // namespace popart

#endif
