#ifndef POPART_SRC_OPS_SIZEOP_HPP
#define POPART_SRC_OPS_SIZEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Size: the input's number of elements as an INT64 scalar, always folded
/// into a constant.
class SizeOp : public Op {
public:
  SizeOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &)
      : Op(id, name) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool foldsFromShapesOnly() const override { return true; }
};

} // namespace popart

#endif
