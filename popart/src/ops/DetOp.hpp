#ifndef POPART_SRC_OPS_DETOP_HPP
#define POPART_SRC_OPS_DETOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Det: the determinants of the square matrices in the last two
/// dimensions, of shape input.shape[:-2].
class DetOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DetOp>(*this);
  }
  DetOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &)
      : Op(id, settings) {}
  void setup() override;
};

} // namespace popart

#endif
