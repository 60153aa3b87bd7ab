#ifndef POPART_SRC_OPS_WHEREOP_HPP
#define POPART_SRC_OPS_WHEREOP_HPP

#include <popart/attributes.hpp>
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
};

} // namespace popart

#endif
