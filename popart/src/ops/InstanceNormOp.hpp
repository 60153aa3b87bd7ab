#ifndef POPART_SRC_OPS_INSTANCENORMOP_HPP
#define POPART_SRC_OPS_INSTANCENORMOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// InstanceNormalization: X [N, C, field...] normalised over the field of
/// each (sample, channel), then scaled and shifted per channel.
class InstanceNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<InstanceNormOp>(*this);
  }
  InstanceNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  void setup() override;
  float epsilon;
};

} // namespace popart

#endif
