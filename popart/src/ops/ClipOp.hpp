#ifndef POPART_SRC_OPS_CLIPOP_HPP
#define POPART_SRC_OPS_CLIPOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Clip-6 (min, max attributes) and Clip-11/12/13 (optional inputs).
class ClipOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ClipOp>(*this);
  }
  ClipOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  float min, max;
};

} // namespace popart

#endif
