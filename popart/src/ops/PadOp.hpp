#ifndef POPART_SRC_OPS_PADOP_HPP
#define POPART_SRC_OPS_PADOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Pad: "constant" (with a value), "edge" or "reflect" padding; the pads
/// (begins of every dimension, then ends) are an attribute before opset 11
/// and a constant input after (the value an input too, constant or not).
class PadOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PadOp>(*this);
  }
  PadOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &a);
  void setup() override;
  std::string mode;
  std::vector<int64_t> lower, upper;
  float value = 0.0f;
  /// The constant value is input 2, read on the device.
  bool valueIsTensor = false;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

private:
  std::vector<int64_t> attrPads;
};

/// The gradient of constant padding: the output's gradient without the
/// padding (negative padding, a crop, gives zeros where it cropped).
class PadGradOp : public GradOp {
public:
  explicit PadGradOp(const PadOp &fwd)
      : GradOp(fwd, "PadGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        lower(fwd.lower), upper(fwd.upper) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PadGradOp>(*this);
  }
  std::vector<int64_t> lower, upper;
};

} // namespace popart

#endif
