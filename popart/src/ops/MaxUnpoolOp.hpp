#ifndef POPART_SRC_OPS_MAXUNPOOLOP_HPP
#define POPART_SRC_OPS_MAXUNPOOLOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// MaxUnpool (X, I, output_shape): zeros of the unpooled shape (the field
/// MaxPool with kernel_shape, strides and pads reduces to X's) with X's
/// values written at the flat positions I in it (MaxPool's Indices); with
/// output_shape (a constant, at least the unpooled shape), that result
/// followed by zeros up to output_shape in each dimension.
class MaxUnpoolOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MaxUnpoolOp>(*this);
  }
  MaxUnpoolOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a)
      : Op(id, settings), kernelShape(a.getInts("kernel_shape")),
        strides(a.getInts("strides", {})), pads(a.getInts("pads", {})) {}
  void setup() override;
  std::vector<int64_t> kernelShape, strides, pads;
  /// Resolved by setup.
  Shape unpooled;
};

} // namespace popart

#endif
