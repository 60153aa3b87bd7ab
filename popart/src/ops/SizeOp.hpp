#ifndef POPART_SRC_OPS_SIZEOP_HPP
#define POPART_SRC_OPS_SIZEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Size: the input's number of elements as an INT64 scalar, always folded
/// into a constant.
class SizeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SizeOp>(*this);
  }
  SizeOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool foldsFromShapesOnly() const override { return true; }
};

} // namespace popart

#endif
