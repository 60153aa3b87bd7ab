#ifndef POPART_SRC_OPS_IDENTITYOP_HPP
#define POPART_SRC_OPS_IDENTITYOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Identity, and ops that are identities in inference (Dropout, Detach).
class IdentityOp : public Op {
public:
  IdentityOp(const OperatorIdentifier &id, const std::string &name,
             const Attributes &a);
  void setup() override;
  bool isIdentityLike() const override { return true; }
  bool canFold() const override { return true; }
  std::vector<char> fold() const override { return inTensor(0).data; }
};

} // namespace popart

#endif
