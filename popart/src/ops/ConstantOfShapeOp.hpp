#ifndef POPART_SRC_OPS_CONSTANTOFSHAPEOP_HPP
#define POPART_SRC_OPS_CONSTANTOFSHAPEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ConstantOfShape: a tensor of the (constant) shape given, filled with the
/// value attribute (FLOAT 0 by default); always folded into a constant.
class ConstantOfShapeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConstantOfShapeOp>(*this);
  }
  ConstantOfShapeOp(const OperatorIdentifier &id, const Op::Settings &settings,
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
