#ifndef POPART_SRC_OPS_TENSORREMAPOP_HPP
#define POPART_SRC_OPS_TENSORREMAPOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>
#include <popart/op/tensorremap.hpp>

#include <memory>

namespace popart {

/// TensorRemap (ai.graphcore): the input's values in a new tensor laid out
/// over the tiles afresh (the original lays it out for its consumers; here
/// linearly, which is what the IPU Model's consumers get from a new tensor
/// anyway). The gradient is re-laid out the same way for FwdBwdReverse and
/// FwdBwd, and passed through for Fwd; the values never change.
class TensorRemapOp : public Op {
public:
  TensorRemapOp(const OperatorIdentifier &id, const Op::Settings &settings,
                const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TensorRemapOp>(*this);
  }
  void setup() override { outInfo(0) = inInfo(0); }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  TensorRemapType remapType;
};

class TensorRemapGradOp : public GradOp {
public:
  explicit TensorRemapGradOp(const TensorRemapOp &fwd)
      : GradOp(fwd, "TensorRemapGrad", {{0, 0, GradOpInType::GradOut}},
               {{0, 0}}),
        remapType(fwd.remapType) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TensorRemapGradOp>(*this);
  }
  TensorRemapType remapType;
};

} // namespace popart

#endif
