#ifndef POPART_SRC_OPS_GATHEROP_HPP
#define POPART_SRC_OPS_GATHEROP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Gather: slices of the data along an axis at the indices (numpy.take).
class GatherOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherOp>(*this);
  }
  GatherOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 0)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

} // namespace popart

#endif
