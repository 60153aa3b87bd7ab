#ifndef POPART_SRC_OPS_MATMULOP_HPP
#define POPART_SRC_OPS_MATMULOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>
#include "ops/PoplibsOptions.hpp"

namespace popart {

/// MatMul: numpy matmul (1-D operands promoted, batch dimensions broadcast).
class MatMulOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MatMulOp>(*this);
  }
  MatMulOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), poplibsOptions(readPoplibsAnnotations(a, settings.name)) {}
  void setup() override;
  /// The node's own matmul options, laid over the session's.
  PoplibsOptions poplibsOptions;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of argument `arg` (0: G B', 1: A' G), summed over the
/// batch dimensions the argument was broadcast along. Inputs: the output's
/// gradient, A and B.
class MatMulGradOp : public GradOp {
public:
  MatMulGradOp(const MatMulOp &fwd, int arg)
      : GradOp(fwd, arg == 0 ? "MatMulLhsGrad" : "MatMulRhsGrad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 1, GradOpInType::In}},
               {{0, arg}}),
        arg(arg), poplibsOptions(fwd.poplibsOptions) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MatMulGradOp>(*this);
  }
  int arg;
  PoplibsOptions poplibsOptions;
};

} // namespace popart

#endif
