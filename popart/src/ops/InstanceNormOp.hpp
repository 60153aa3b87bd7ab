#ifndef POPART_SRC_OPS_INSTANCENORMOP_HPP
#define POPART_SRC_OPS_INSTANCENORMOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// InstanceNormalization: X [N, C, field...] normalised over the field of
/// each (sample, channel), then scaled and shifted per channel.
class InstanceNormOp : public Op {
public:
  InstanceNormOp(const OperatorIdentifier &id, const std::string &name,
                 const Attributes &a);
  void setup() override;
  float epsilon;
};

} // namespace popart

#endif
