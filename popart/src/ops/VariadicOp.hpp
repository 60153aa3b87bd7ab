#ifndef POPART_SRC_OPS_VARIADICOP_HPP
#define POPART_SRC_OPS_VARIADICOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Max, Min, Sum, Mean of one or more inputs, broadcast.
class VariadicOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<VariadicOp>(*this);
  }
  VariadicOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a);
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of input `arg` of Sum, Mean, Max or Min: inputs the
/// output's gradient, that input and the output.
class VariadicGradOp : public GradOp {
public:
  VariadicGradOp(const VariadicOp &fwd, int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<VariadicGradOp>(*this);
  }
  std::string fwdType;
  int numInputs;
};

} // namespace popart

#endif
