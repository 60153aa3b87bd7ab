// The base of the optimisers (SGD, Adam, Adaptive): the loss scaling, the
// gradient clipping groups, and the check that a new optimiser can replace
// a compiled one (TrainingSession::updateOptimizerFromHost).
#ifndef POPART_OPTIMIZER_HPP
#define POPART_OPTIMIZER_HPP

#include <popart/clipnormsettings.hpp>
#include <popart/debugcontext.hpp>
#include <popart/names.hpp>
#include <popart/optimizervalue.hpp>
#include <popart/optimizervaluemap.hpp>
#include <popart/popart_export.hpp>

#include <cstddef>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {

enum class OptimizerType { SGD = 0, Adam, Adaptive, NTYPES };

/// Decay: the weight is decayed directly (decoupled, as AdamW);
/// L2Regularization: wd * w is added to the gradient.
enum class WeightDecayMode { Decay, L2Regularization };

POPART_API std::ostream &operator<<(std::ostream &os, const WeightDecayMode &m);

/// The map of {name: (value, isConst)} pairs as OptimizerValues.
POPART_API std::map<std::string, OptimizerValue>
getOptMap(const std::map<std::string, std::pair<float, bool>> &m);

class POPART_API Optimizer {
public:
  Optimizer(OptimizerValue lossScaling,
            const std::vector<ClipNormSettings> &clipNormSettings,
            const DebugContext &debugContext = {});
  Optimizer(const Optimizer &) = default;
  virtual ~Optimizer();

  virtual OptimizerType type() const = 0;
  virtual std::string type_s() const = 0;
  virtual std::unique_ptr<Optimizer> clone() const = 0;
  /// popart::error (naming the hyper-parameter) unless `other` can replace
  /// this optimiser in a compiled session: the same type, the same
  /// constness of every value, the same constant values, the same weights
  /// with specific values, and the same clipping.
  virtual void validReplacement(const Optimizer &other) const;
  /// Whether weight `w` has values of its own.
  virtual bool hasSpecific(const TensorId &w) const = 0;
  virtual bool hasSpecific() const = 0;
  virtual std::size_t hash() const;

  const OptimizerValue &lossScaling() const { return ls; }
  float getLossScalingVal() const { return ls.val(); }
  const std::vector<ClipNormSettings> &getClipNormSettings() const {
    return clipNormSettings;
  }
  DebugContext getDebugContext() const { return debugContext; }

protected:
  DebugContext debugContext;

private:
  OptimizerValue ls;
  std::vector<ClipNormSettings> clipNormSettings;
};

} // namespace popart

#endif
