#ifndef POPART_SRC_OPS_WHEREOP_HPP
#define POPART_SRC_OPS_WHEREOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Where: X where the condition is true, else Y, broadcast.
class WhereOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<WhereOp>(*this);
  }
  WhereOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of X (arg 1) or Y (arg 2): the output's gradient where
/// the condition picks that input, summed back to its shape.
class WhereGradOp : public GradOp {
public:
  WhereGradOp(const WhereOp &fwd, int arg)
      : GradOp(fwd, arg == 1 ? "WhereXGrad" : "WhereYGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 0, GradOpInType::In}},
               {{0, arg}}),
        arg(arg) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<WhereGradOp>(*this);
  }
  int arg;
};

inline std::vector<std::unique_ptr<Op>> WhereOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<WhereGradOp>(*this, 1));
  ops.push_back(std::make_unique<WhereGradOp>(*this, 2));
  return ops;
}

} // namespace popart

#endif
