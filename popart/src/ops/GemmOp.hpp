#ifndef POPART_SRC_OPS_GEMMOP_HPP
#define POPART_SRC_OPS_GEMMOP_HPP

#include <popart/attributes.hpp>
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
};

} // namespace popart

#endif
