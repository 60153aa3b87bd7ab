#ifndef POPART_SRC_OPS_LRNOP_HPP
#define POPART_SRC_OPS_LRNOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// LRN: x / (bias + alpha / size * (sum of x^2 over `size` neighbouring
/// channels))^beta, the window floor((size - 1) / 2) channels before and
/// ceil((size - 1) / 2) after.
class LRNOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LRNOp>(*this);
  }
  LRNOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &a);
  void setup() override;
  float alpha, beta, bias;
  int64_t size;
  bool isNorm() const override { return true; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of LRN. Inputs: Y's gradient and X.
class LRNGradOp : public GradOp {
public:
  explicit LRNGradOp(const LRNOp &fwd)
      : GradOp(fwd, "LRNGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 0, GradOpInType::In}},
               {{0, 0}}),
        alpha(fwd.alpha), beta(fwd.beta), bias(fwd.bias), size(fwd.size) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LRNGradOp>(*this);
  }
  float alpha, beta, bias;
  int64_t size;
};

} // namespace popart

#endif
