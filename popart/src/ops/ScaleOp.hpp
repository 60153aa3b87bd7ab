#ifndef POPART_SRC_OPS_SCALEOP_HPP
#define POPART_SRC_OPS_SCALEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ai.graphcore Scale: the input times a constant.
class ScaleOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScaleOp>(*this);
  }
  ScaleOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a)
      : Op(id, settings), scale(a.getFloat("scale")) {}
  void setup() override { outInfo(0) = inInfo(0); }
  float scale;
};

} // namespace popart

#endif
