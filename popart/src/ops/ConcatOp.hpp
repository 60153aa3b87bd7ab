#ifndef POPART_SRC_OPS_CONCATOP_HPP
#define POPART_SRC_OPS_CONCATOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Concat: the inputs joined along an axis.
class ConcatOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConcatOp>(*this);
  }
  ConcatOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 1)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

} // namespace popart

#endif
