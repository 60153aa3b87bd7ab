#ifndef POPART_SRC_OPS_RESIZEOP_HPP
#define POPART_SRC_OPS_RESIZEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

/// Resize (10, 11, 13) and Upsample (9): every output coordinate of a
/// dimension mapped to an input coordinate (the coordinate transformation
/// mode, from constant scales or sizes and roi), interpolated from its
/// nearest, 2 (linear) or 4 (cubic) neighbours. Each dimension's
/// interpolation is a constant [out, in] matrix of weights.
class ResizeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ResizeOp>(*this);
  }
  ResizeOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a);
  void setup() override;

  /// The weights [out, in] (row-major) of dimension d, and whether each
  /// output coordinate lies outside the roi (tf_crop_and_resize).
  std::vector<float> weights(std::size_t d, std::vector<bool> &outside) const;

  std::string mode, transform, nearestMode;
  float cubicA, extrapolation;
  bool excludeOutside;
  /// Per dimension: the scale (output over input size) and the roi.
  std::vector<double> scales, roiStart, roiEnd;
};

} // namespace popart

#endif
