// Adam and its relatives. With s the gradient / lossScaling (/ the
// accumulation factor for mean accumulation), plus wd * w in the
// L2Regularization weight decay mode, and t the step:
//   m = b1 m + (1 - b1) s;  v = b2 v + (1 - b2) s^2   (AdaMax: max(b2 v, |s|))
//   mc = m / (1 - b1^t), vc = v / (1 - b2^t)           (no correction for
//                                                      the NoBias modes;
//                                                      AdaMax corrects m)
//   x = mc / (sqrt(vc) + eps)  (AdaMax: mc / (vc + eps)), + wd * w in Decay mode
//   w -= lr * x, scaled by min(|w|, maxWeightNorm) / |x| for Lamb.
#ifndef POPART_ADAM_HPP
#define POPART_ADAM_HPP

#include <popart/datatype.hpp>
#include <popart/optimizer.hpp>

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {

enum class AdamMode { Adam = 0, AdamNoBias, AdaMax, Lamb, LambNoBias };

POPART_API std::ostream &operator<<(std::ostream &os, const AdamMode &m);

class POPART_API Adam : public Optimizer {
public:
  static OptimizerValue getUnsetLearningRate() { return {0.1f, true}; }
  static OptimizerValue getUnsetWeightDecay() { return {0.0f, true}; }
  static OptimizerValue getUnsetBeta1() { return {0.9f, true}; }
  static OptimizerValue getUnsetBeta2() { return {0.999f, true}; }
  static OptimizerValue getUnsetEps() { return {1e-6f, true}; }
  static OptimizerValue getUnsetLossScaling() { return {1.0f, true}; }
  static OptimizerValue getUnsetMaxWeightNorm() { return {10.0f, true}; }

  Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
       OptimizerValue defaultBeta1, OptimizerValue defaultBeta2,
       OptimizerValue defaultEps, OptimizerValue lossScaling,
       OptimizerValue maxWeightNorm, AdamMode adamMode,
       WeightDecayMode weightDecayMode, DataType accumType, DataType accl1Type,
       DataType accl2Type,
       const std::vector<ClipNormSettings> &clipNormSettings = {},
       bool scaledOptimizerState = false,
       const DebugContext &debugContext = {});
  Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
       OptimizerValue defaultBeta1, OptimizerValue defaultBeta2,
       OptimizerValue defaultEps, OptimizerValue lossScaling,
       AdamMode adamMode, WeightDecayMode weightDecayMode, DataType accumType,
       DataType accl1Type, DataType accl2Type,
       const std::vector<ClipNormSettings> &clipNormSettings = {},
       bool scaledOptimizerState = false,
       const DebugContext &debugContext = {});
  Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
       OptimizerValue defaultBeta1, OptimizerValue defaultBeta2,
       OptimizerValue defaultEps, OptimizerValue lossScaling,
       OptimizerValue maxWeightNorm, AdamMode adamMode, DataType accumType,
       DataType accl1Type, DataType accl2Type,
       const std::vector<ClipNormSettings> &clipNormSettings = {},
       bool scaledOptimizerState = false,
       const DebugContext &debugContext = {});
  Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
       OptimizerValue defaultBeta1, OptimizerValue defaultBeta2,
       OptimizerValue defaultEps, OptimizerValue lossScaling,
       AdamMode adamMode, DataType accumType, DataType accl1Type,
       DataType accl2Type,
       const std::vector<ClipNormSettings> &clipNormSettings = {},
       bool scaledOptimizerState = false,
       const DebugContext &debugContext = {});
  /// Keys: defaultLearningRate, defaultWeightDecay, defaultBeta1,
  /// defaultBeta2, defaultEps, defaultMaxWeightNorm, lossScaling.
  Adam(const std::map<std::string, std::pair<float, bool>> &params,
       AdamMode adamMode, WeightDecayMode weightDecayMode, DataType accumType,
       DataType accl1Type, DataType accl2Type,
       const std::vector<ClipNormSettings> &clipNormSettings = {},
       bool scaledOptimizerState = false,
       const DebugContext &debugContext = {});
  Adam(const Adam &) = default;
  ~Adam() override;

  static Adam fromDefaultMap(const std::map<std::string, OptimizerValue> &,
                             AdamMode adamMode, WeightDecayMode decayMode,
                             DataType accumType, DataType accl1Type,
                             DataType accl2Type,
                             const DebugContext &debugContext = {});

  OptimizerType type() const override { return OptimizerType::Adam; }
  std::string type_s() const override { return "Adam"; }
  std::unique_ptr<Optimizer> clone() const override;
  void validReplacement(const Optimizer &other) const override;
  bool hasSpecific(const TensorId &w) const override;
  bool hasSpecific() const override;
  std::size_t hash() const override;

  void insertSpecific(const TensorId &weight, OptimizerValue learningRate,
                      OptimizerValue weightDecay, OptimizerValue beta1,
                      OptimizerValue beta2, OptimizerValue eps,
                      OptimizerValue maxWeightNorm = getUnsetMaxWeightNorm());
  /// Keys: learningRate, weightDecay, beta1, beta2, eps, maxWeightNorm.
  void insertSpecific(const TensorId &weight,
                      const std::map<std::string, std::pair<float, bool>> &params);

  const OptimizerValueMap &learningRates() const { return lrs; }
  const OptimizerValueMap &weightDecays() const { return wds; }
  const OptimizerValueMap &beta1s() const { return b1s; }
  const OptimizerValueMap &beta2s() const { return b2s; }
  const OptimizerValueMap &epss() const { return epsvs; }
  const OptimizerValueMap &maxWeightNorms() const { return mwns; }
  AdamMode getMode() const { return mode; }
  WeightDecayMode getWeightDecayMode() const { return decayMode; }
  DataType getAccumType() const { return accumType; }
  DataType getAccl1Type() const { return accl1Type; }
  DataType getAccl2Type() const { return accl2Type; }
  bool useScaledOptimizerState() const { return scaledOptimizerState; }

private:
  OptimizerValueMap lrs, wds, b1s, b2s, epsvs, mwns;
  AdamMode mode;
  WeightDecayMode decayMode;
  DataType accumType, accl1Type, accl2Type;
  bool scaledOptimizerState;
};

} // namespace popart

#endif
