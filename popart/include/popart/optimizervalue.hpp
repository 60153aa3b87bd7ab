// A hyper-parameter of an optimiser: a value, and whether it is constant.
// A constant is compiled into the program; a non-constant one lives in a
// tensor that TrainingSession::updateOptimizerFromHost can change between
// steps without recompiling.
#ifndef POPART_OPTIMIZERVALUE_HPP
#define POPART_OPTIMIZERVALUE_HPP

#include <popart/popart_export.hpp>

#include <cstddef>
#include <utility>

namespace popart {

class POPART_API OptimizerValue final {
public:
  OptimizerValue() = default;
  /// A constant.
  OptimizerValue(float v) : val_(v), isConst_(true) {}
  OptimizerValue(float v, bool c) : val_(v), isConst_(c) {}
  OptimizerValue(std::pair<float, bool> x) : OptimizerValue(x.first, x.second) {}

  float val() const { return val_; }
  bool isConst() const { return isConst_; }
  /// popart::error unless rhs can replace this value in a compiled
  /// session: the same constness, and the same value if constant.
  void validReplacement(const OptimizerValue &rhs) const;
  bool operator==(const OptimizerValue &rhs) const {
    return val_ == rhs.val_ && isConst_ == rhs.isConst_;
  }
  bool operator!=(const OptimizerValue &rhs) const { return !(*this == rhs); }

private:
  float val_ = 0.0f;
  bool isConst_ = true;
};

} // namespace popart

#endif
