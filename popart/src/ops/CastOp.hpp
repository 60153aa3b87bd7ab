#ifndef POPART_SRC_OPS_CASTOP_HPP
#define POPART_SRC_OPS_CASTOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Cast: the input converted to the type of the "to" attribute.
class CastOp : public Op {
public:
  CastOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  DataType to;
};

} // namespace popart

#endif
