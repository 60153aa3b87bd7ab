#ifndef POPART_SRC_OPS_MATMULOP_HPP
#define POPART_SRC_OPS_MATMULOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"
#include "ops/PoplibsOptions.hpp"

namespace popart {

/// MatMul: numpy matmul (1-D operands promoted, batch dimensions broadcast).
class MatMulOp : public Op {
public:
  MatMulOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a)
      : Op(id, name), poplibsOptions(readPoplibsAnnotations(a, name)) {}
  void setup() override;
  /// The node's own matmul options, laid over the session's.
  PoplibsOptions poplibsOptions;
};

} // namespace popart

#endif
