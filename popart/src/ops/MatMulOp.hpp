#ifndef POPART_SRC_OPS_MATMULOP_HPP
#define POPART_SRC_OPS_MATMULOP_HPP

#include <popart/attributes.hpp>
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
};

} // namespace popart

#endif
