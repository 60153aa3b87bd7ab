#ifndef POPART_SRC_OPS_MATMULOP_HPP
#define POPART_SRC_OPS_MATMULOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// MatMul: numpy matmul (1-D operands promoted, batch dimensions broadcast).
class MatMulOp : public Op {
public:
  MatMulOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &)
      : Op(id, name) {}
  void setup() override;
};

} // namespace popart

#endif
