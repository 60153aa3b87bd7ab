#ifndef POPART_SRC_OPS_CONSTANTOFSHAPEOP_HPP
#define POPART_SRC_OPS_CONSTANTOFSHAPEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// ConstantOfShape: a tensor of the (constant) shape given, filled with the
/// value attribute (FLOAT 0 by default); always folded into a constant.
class ConstantOfShapeOp : public Op {
public:
  ConstantOfShapeOp(const OperatorIdentifier &id, const std::string &name,
                    const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  TensorInfo valueInfo;
  std::vector<char> value; // one element
};

} // namespace popart

#endif
