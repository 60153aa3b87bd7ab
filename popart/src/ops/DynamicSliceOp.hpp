#ifndef POPART_SRC_OPS_DYNAMICSLICEOP_HPP
#define POPART_SRC_OPS_DYNAMICSLICEOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// The ai.graphcore ops on a slice chosen at run time: the slice of
/// `tensor` of sizes[i] elements along axes[i] from offset[i] (input 1, one
/// integer per axis, wrapping around the dimension).
///   DynamicSlice  [tensor, offset]        -> the slice
///   DynamicUpdate [tensor, offset, slice] -> tensor with the slice replaced
///   DynamicZero   [tensor, offset]        -> tensor with the slice zeroed
///   DynamicAdd    [tensor, offset, slice] -> tensor with slice added to it
/// noOverlap (DynamicSlice, DynamicUpdate) only tells the original's
/// planner that the slices of a loop do not overlap; the result is the same.
class DynamicSliceOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DynamicSliceOp>(*this);
  }
  DynamicSliceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  void setup() override;
  /// The tensor's gradient (none for the offset), and the slice's.
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  /// The shape of the slice taken from a tensor of shape `in`.
  Shape sliceShape(const Shape &in) const;
  std::vector<int64_t> axes, sizes;
  bool noOverlap = false;
};

/// A gradient of a DynamicSliceOp, itself a dynamic op on the output's
/// gradient (input 0) at the forward offset (input 1):
///   "Pad"   zeros of the forward tensor's shape with the gradient at the
///           offset (DynamicSlice's)
///   "Zero"  the gradient with the slice zeroed (DynamicUpdate's and
///           DynamicZero's for the tensor)
///   "Slice" the slice of the gradient (the slice input's)
///   "Pass"  the gradient itself (DynamicAdd's for the tensor)
class DynamicSliceGradOp : public GradOp {
public:
  DynamicSliceGradOp(const DynamicSliceOp &fwd, const std::string &kind,
                     int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DynamicSliceGradOp>(*this);
  }
  std::string kind;
  std::vector<int64_t> axes, sizes;
};

} // namespace popart

#endif
