#ifndef POPART_SRC_OPS_VARIADICOP_HPP
#define POPART_SRC_OPS_VARIADICOP_HPP

#include <popart/attributes.hpp>
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
};

} // namespace popart

#endif
