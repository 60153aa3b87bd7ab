// Gradient clipping by global norm: the gradients of a group of weights
// are scaled by maxNorm / max(maxNorm, globalNorm), where globalNorm is the
// 2-norm of all their elements together.
#ifndef POPART_CLIPNORMSETTINGS_HPP
#define POPART_CLIPNORMSETTINGS_HPP

#include <popart/names.hpp>
#include <popart/popart_export.hpp>

#include <vector>

namespace popart {

class POPART_API ClipNormSettings {
public:
  enum class Mode { ClipSpecifiedWeights, ClipAllWeights };

  /// The weights named (a group clipped together).
  ClipNormSettings(const std::vector<TensorId> &weightIds, float maxNorm);

  static ClipNormSettings clipWeights(const std::vector<TensorId> &weightIds,
                                      float maxNorm);
  /// Every weight of the model as one group.
  static ClipNormSettings clipAllWeights(float maxNorm);

  const std::vector<TensorId> &getWeightIds() const { return weightIds; }
  float getMaxNorm() const { return maxNorm; }
  Mode getMode() const { return mode; }
  bool operator==(const ClipNormSettings &other) const;
  bool operator!=(const ClipNormSettings &other) const {
    return !(*this == other);
  }

  std::vector<TensorId> weightIds;
  float maxNorm;

private:
  ClipNormSettings(const std::vector<TensorId> &weightIds, float maxNorm,
                   Mode mode);
  Mode mode;
};

} // namespace popart

#endif
