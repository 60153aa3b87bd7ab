#ifndef POPART_SRC_OPS_SLICEOP_HPP
#define POPART_SRC_OPS_SLICEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

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
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  // Per dimension of the input: begin, end (exclusive) and step.
  std::vector<int64_t> begins, ends, steps;
  /// Dimensions sliced backwards (a negative step): reversed first.
  std::vector<bool> reversed;
  /// Starts read at run time (opset 10 on): the axes sliced and the length
  /// of each, known when the ends are the starts plus constants
  /// (ops/RuntimeSliceBounds.hpp). begins, ends and steps then describe
  /// nothing.
  bool hasRuntimeStarts() const { return !runtimeAxes.empty(); }
  std::vector<int64_t> runtimeAxes, runtimeLengths;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

protected:
  /// For ops that set begins, ends, steps and reversed themselves (setup).
  SliceOp(const OperatorIdentifier &id, const Op::Settings &settings)
      : Op(id, settings) {}

private:
  std::vector<int64_t> attrStarts, attrEnds, attrAxes;
};

/// The gradient of a slice: zeros of the input's shape with the output's
/// gradient where the slice was taken.
class SliceGradOp : public GradOp {
public:
  explicit SliceGradOp(const SliceOp &fwd)
      : GradOp(fwd, "SliceGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        begins(fwd.begins), ends(fwd.ends), steps(fwd.steps),
        reversed(fwd.reversed) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SliceGradOp>(*this);
  }
  std::vector<int64_t> begins, ends, steps;
  std::vector<bool> reversed;
};

} // namespace popart

#endif
