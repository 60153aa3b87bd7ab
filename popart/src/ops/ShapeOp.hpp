#ifndef POPART_SRC_OPS_SHAPEOP_HPP
#define POPART_SRC_OPS_SHAPEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Shape: the input's shape as INT64 (always folded into a constant).
class ShapeOp : public Op {
public:
  ShapeOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &)
      : Op(id, name) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool foldsFromShapesOnly() const override { return true; }
};

} // namespace popart

#endif
