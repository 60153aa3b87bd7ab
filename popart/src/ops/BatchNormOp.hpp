#ifndef POPART_SRC_OPS_BATCHNORMOP_HPP
#define POPART_SRC_OPS_BATCHNORMOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// BatchNormalization in inference: X [N, C, ...] normalised per channel
/// with the running mean and variance, then scaled and shifted. Only the
/// first output (Y); the training outputs are rejected.
class BatchNormOp : public Op {
public:
  BatchNormOp(const OperatorIdentifier &id, const std::string &name,
              const Attributes &a);
  void setup() override;
  float epsilon;
};

} // namespace popart

#endif
