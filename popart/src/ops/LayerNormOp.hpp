#ifndef POPART_SRC_OPS_LAYERNORMOP_HPP
#define POPART_SRC_OPS_LAYERNORMOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// LayerNormalization (opset 17): X normalised over its dimensions from
/// `axis` on, then scaled and shifted by Scale and B (of those
/// dimensions' shape); the optional outputs Mean and InvStdDev keep the
/// normalised dimensions as 1. Statistics in FLOAT (stash_type 1).
class LayerNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LayerNormOp>(*this);
  }
  LayerNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  int64_t axis; // normalised by setup()
  float epsilon;
  /// Elements per normalised row, and rows.
  int64_t inner = 1, outer = 1;
};

} // namespace popart

#endif
