#ifndef POPART_SRC_OPS_ABORTOP_HPP
#define POPART_SRC_OPS_ABORTOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Abort (ai.graphcore): no outputs; stops the program when it runs
/// (without an input), or when its one-element condition is non-zero.
class AbortOp : public Op {
public:
  AbortOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &)
      : Op(id, settings) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<AbortOp>(*this);
  }
  void setup() override;
};

} // namespace popart

#endif
