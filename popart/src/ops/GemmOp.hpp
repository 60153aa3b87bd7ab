#ifndef POPART_SRC_OPS_GEMMOP_HPP
#define POPART_SRC_OPS_GEMMOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Gemm: alpha * op(A) op(B) + beta * C, op a transpose or not.
class GemmOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GemmOp>(*this);
  }
  GemmOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  float alpha, beta;
  bool transA, transB;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of A (arg 0), B (1) or C (2). Inputs: the output's
/// gradient, A and B.
class GemmGradOp : public GradOp {
public:
  GemmGradOp(const GemmOp &fwd, int arg)
      : GradOp(fwd, "GemmGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In}},
               {{0, arg}}),
        arg(arg), alpha(fwd.alpha), beta(fwd.beta), transA(fwd.transA),
        transB(fwd.transB) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GemmGradOp>(*this);
  }
  int arg;
  float alpha, beta;
  bool transA, transB;
};

} // namespace popart

#endif
