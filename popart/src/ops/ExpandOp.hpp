#ifndef POPART_SRC_OPS_EXPANDOP_HPP
#define POPART_SRC_OPS_EXPANDOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Expand: the input broadcast (numpy rule) with a constant shape.
class ExpandOp : public Op {
public:
  ExpandOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &)
      : Op(id, name) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
};

} // namespace popart

#endif
