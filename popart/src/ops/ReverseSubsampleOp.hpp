#ifndef POPART_SRC_OPS_REVERSESUBSAMPLEOP_HPP
#define POPART_SRC_OPS_REVERSESUBSAMPLEOP_HPP

#include "ops/SliceOp.hpp"

namespace popart {

/// ai.graphcore Reverse: the input flipped along `dimensions` (none: the
/// input itself). A slice of the whole input, backwards along those
/// dimensions: lowered, folded and differentiated as one.
class ReverseOp : public SliceOp {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReverseOp>(*this);
  }
  ReverseOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a);
  void setup() override;
  std::vector<int64_t> dimensions;
};

/// ai.graphcore Subsample: every strides[d]-th element along dimension d
/// from the first ((n + stride - 1) / stride of them); one stride per
/// dimension of the input.
class SubsampleOp : public SliceOp {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SubsampleOp>(*this);
  }
  SubsampleOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  std::vector<int64_t> strides;
};

} // namespace popart

#endif
