#ifndef POPART_SRC_OPS_SCALEDADDOP_HPP
#define POPART_SRC_OPS_SCALEDADDOP_HPP

#include <popart/attributes.hpp>
#include "ops/ScaleOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ai.graphcore ScaledAdd: scale0 * X + scale1 * Y.
class ScaledAddOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScaledAddOp>(*this);
  }
  ScaledAddOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a)
      : Op(id, settings), scale0(a.getFloat("scale0", 1.0f)),
        scale1(a.getFloat("scale1", 1.0f)) {}
  void setup() override { outInfo(0) = npOut(inInfo(0), inInfo(1)); }
  float scale0, scale1;
  std::vector<std::unique_ptr<Op>> getGradOps() override {
    std::vector<std::unique_ptr<Op>> ops;
    ops.push_back(std::make_unique<ScaleGradOp>(*this, 0, scale0));
    ops.push_back(std::make_unique<ScaleGradOp>(*this, 1, scale1));
    return ops;
  }
};

} // namespace popart

#endif
