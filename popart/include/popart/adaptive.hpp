// AdaGrad, RMSProp, CenteredRMSProp and AdaDelta. With s the gradient /
// lossScaling (/ the accumulation factor for mean accumulation), plus
// wd * w in the L2Regularization weight decay mode, alpha a, momentum m:
//   AdaGrad:  v1 += s^2;                      x = s / (sqrt(v1) + eps)
//   RMSProp:  v1 = a v1 + (1 - a) s^2;        x = s / (sqrt(v1) + eps)
//   Centered: also v2 = a v2 + (1 - a) s;     x = s / (sqrt(v1 - v2^2) + eps)
//   AdaDelta: x = s sqrt(v2 + eps) / sqrt(v1 + eps); v2 = a v2 + (1 - a) x^2
//   (the TensorFlow variant of RMSProp puts eps inside the square root)
//   v3 = m v3 + x (m v3 + lr x for the TensorFlow variant), or x with m = 0
//   w -= lr (v3 + wd w) in Decay mode, w -= lr v3 otherwise (v3 with the
//   TensorFlow variant's momentum).
#ifndef POPART_ADAPTIVE_HPP
#define POPART_ADAPTIVE_HPP

#include <popart/datatype.hpp>
#include <popart/optimizer.hpp>

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {

enum class AdaptiveMode { AdaGrad = 0, RMSProp, CenteredRMSProp, AdaDelta };

POPART_API std::ostream &operator<<(std::ostream &os, const AdaptiveMode &m);

class POPART_API Adaptive : public Optimizer {
public:
  static OptimizerValue getUnsetLearningRate() { return {0.01f, true}; }
  static OptimizerValue getUnsetWeightDecay() { return {0.0f, true}; }
  static OptimizerValue getUnsetAlpha() { return {0.99f, true}; }
  static OptimizerValue getUnsetMomentum() { return {0.0f, true}; }
  static OptimizerValue getUnsetEps() { return {1e-6f, true}; }
  static OptimizerValue getUnsetLossScaling() { return {1.0f, true}; }

  Adaptive(OptimizerValue defaultLearningRate,
           OptimizerValue defaultWeightDecay, OptimizerValue defaultAlpha,
           OptimizerValue defaultMomentum, OptimizerValue defaultEps,
           OptimizerValue lossScaling, AdaptiveMode adaptiveMode,
           WeightDecayMode weightDecayMode, DataType accumType,
           DataType accl1Type, DataType accl2Type, DataType accl3Type,
           bool rmspropTFVariant = false,
           const DebugContext &debugContext = {});
  /// Keys: defaultLearningRate, defaultWeightDecay, defaultAlpha,
  /// defaultMomentum, defaultEps, lossScaling.
  Adaptive(const std::map<std::string, std::pair<float, bool>> &params,
           AdaptiveMode adaptiveMode, WeightDecayMode weightDecayMode,
           DataType accumType, DataType accl1Type, DataType accl2Type,
           DataType accl3Type, bool rmspropTFVariant = false,
           const DebugContext &debugContext = {});
  Adaptive(const Adaptive &) = default;
  ~Adaptive() override;

  static Adaptive fromDefaultMap(const std::map<std::string, OptimizerValue> &,
                                 AdaptiveMode adaptiveMode,
                                 WeightDecayMode decayMode, DataType accumType,
                                 DataType accl1Type, DataType accl2Type,
                                 DataType accl3Type,
                                 const DebugContext &debugContext = {});

  OptimizerType type() const override { return OptimizerType::Adaptive; }
  std::string type_s() const override { return "Adaptive"; }
  std::unique_ptr<Optimizer> clone() const override;
  void validReplacement(const Optimizer &other) const override;
  bool hasSpecific(const TensorId &w) const override;
  bool hasSpecific() const override;
  std::size_t hash() const override;

  void insertSpecific(const TensorId &weight, OptimizerValue learningRate,
                      OptimizerValue weightDecay, OptimizerValue alpha,
                      OptimizerValue momentum, OptimizerValue eps);
  /// Keys: learningRate, weightDecay, alpha, momentum, eps.
  void insertSpecific(const TensorId &weight,
                      const std::map<std::string, std::pair<float, bool>> &params);

  const OptimizerValueMap &learningRates() const { return lrs; }
  const OptimizerValueMap &weightDecays() const { return wds; }
  const OptimizerValueMap &alphas() const { return as; }
  const OptimizerValueMap &momentums() const { return mms; }
  const OptimizerValueMap &epss() const { return epsvs; }
  AdaptiveMode getMode() const { return mode; }
  WeightDecayMode getWeightDecayMode() const { return decayMode; }
  DataType getAccumType() const { return accumType; }
  DataType getAccl1Type() const { return accl1Type; }
  DataType getAccl2Type() const { return accl2Type; }
  DataType getAccl3Type() const { return accl3Type; }
  bool isRmspropTFVariant() const { return rmspropTFVariant; }

private:
  OptimizerValueMap lrs, wds, as, mms, epsvs;
  AdaptiveMode mode;
  WeightDecayMode decayMode;
  DataType accumType, accl1Type, accl2Type, accl3Type;
  bool rmspropTFVariant;
};

} // namespace popart

#endif
