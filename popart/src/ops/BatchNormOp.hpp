#ifndef POPART_SRC_OPS_BATCHNORMOP_HPP
#define POPART_SRC_OPS_BATCHNORMOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// BatchNormalization in inference: X [N, C, ...] normalised per channel
/// with the running mean and variance, then scaled and shifted. Only the
/// first output (Y); the training outputs are rejected.
class BatchNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<BatchNormOp>(*this);
  }
  BatchNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  float epsilon;
};

} // namespace popart

#endif
