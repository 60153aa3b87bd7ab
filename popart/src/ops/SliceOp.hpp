#ifndef POPART_SRC_OPS_SLICEOP_HPP
#define POPART_SRC_OPS_SLICEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Slice: ranges of dimensions with any non-zero steps (constant bounds).
class SliceOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SliceOp>(*this);
  }
  SliceOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a);
  void setup() override;
  // Per dimension of the input: begin, end (exclusive) and step.
  std::vector<int64_t> begins, ends, steps;
  /// Dimensions sliced backwards (a negative step): reversed first.
  std::vector<bool> reversed;

private:
  std::vector<int64_t> attrStarts, attrEnds, attrAxes;
};

} // namespace popart

#endif
