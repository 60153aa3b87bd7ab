#ifndef POPART_SRC_OPS_IDENTITYOP_HPP
#define POPART_SRC_OPS_IDENTITYOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Identity; ai.graphcore Nop (an identity never optimised away) and
/// Detach (an identity through which no gradient flows).
class IdentityOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IdentityOp>(*this);
  }
  IdentityOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a);
  void setup() override;
  bool isIdentityLike() const override;
  bool canFold() const override { return opid.type != "Nop"; }
  std::vector<char> fold() const override { return inTensor(0)->data; }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of Identity and Nop: the incoming gradient.
class IdentityGradOp : public GradOp {
public:
  explicit IdentityGradOp(const Op &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IdentityGradOp>(*this);
  }
};

} // namespace popart

#endif
