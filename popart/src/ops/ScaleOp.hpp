#ifndef POPART_SRC_OPS_SCALEOP_HPP
#define POPART_SRC_OPS_SCALEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"
#include "ops/InplaceVariant.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ai.graphcore Scale: the input times a constant.
class ScaleOp : public InplaceCapableOp<ScaleOp> {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScaleOp>(*this);
  }
  ScaleOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a)
      : InplaceCapableOp(id, settings), scale(a.getFloat("scale")) {}
  void setup() override { outInfo(0) = inInfo(0); }
  float scale;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  /// In place (ScaleInplace): the result written into the input.
  static const std::vector<InplaceForm> &inplaceForms() {
    static const std::vector<InplaceForm> forms = {{"Inplace", 0, 10.0f}};
    return forms;
  }
  void appendAttributes(OpSerialiserBase &os) const override {
    InplaceCapableOp::appendAttributes(os);
    os.appendAttribute("scale", scale);
  }
};

/// The gradient of Scale (and of an argument of ScaledAdd): the output's
/// gradient times the factor, summed back to the input's shape.
class ScaleGradOp : public GradOp {
public:
  ScaleGradOp(const Op &fwd, int arg, float scale)
      : GradOp(fwd, "ScaleGrad", {{0, 0, GradOpInType::GradOut}}, {{0, arg}}),
        scale(scale) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScaleGradOp>(*this);
  }
  float scale;
};

inline std::vector<std::unique_ptr<Op>> ScaleOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<ScaleGradOp>(*this, 0, scale));
  return ops;
}

} // namespace popart

#endif
