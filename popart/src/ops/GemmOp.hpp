#ifndef POPART_SRC_OPS_GEMMOP_HPP
#define POPART_SRC_OPS_GEMMOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Gemm: alpha * op(A) op(B) + beta * C, op a transpose or not.
class GemmOp : public Op {
public:
  GemmOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  float alpha, beta;
  bool transA, transB;
};

} // namespace popart

#endif
