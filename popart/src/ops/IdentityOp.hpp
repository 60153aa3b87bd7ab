#ifndef POPART_SRC_OPS_IDENTITYOP_HPP
#define POPART_SRC_OPS_IDENTITYOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Identity, and ops that are identities in inference (Dropout, Detach).
class IdentityOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IdentityOp>(*this);
  }
  IdentityOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a);
  void setup() override;
  bool isIdentityLike() const override { return true; }
  bool canFold() const override { return true; }
  std::vector<char> fold() const override { return inTensor(0)->data; }
};

} // namespace popart

#endif
