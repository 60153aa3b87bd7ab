#ifndef POPART_SRC_OPS_CONCATOP_HPP
#define POPART_SRC_OPS_CONCATOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Concat: the inputs joined along an axis.
class ConcatOp : public Op {
public:
  ConcatOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a)
      : Op(id, name), axis(a.getInt("axis", 1)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

} // namespace popart

#endif
