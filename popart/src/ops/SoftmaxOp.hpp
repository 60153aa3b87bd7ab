#ifndef POPART_SRC_OPS_SOFTMAXOP_HPP
#define POPART_SRC_OPS_SOFTMAXOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Softmax, LogSoftmax and Hardmax (1 at the first maximum, else 0).
class SoftmaxOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SoftmaxOp>(*this);
  }
  SoftmaxOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a);
  void setup() override;
  /// Before opset 13 the input is seen as 2-D [outer, inner] split at
  /// axis; from 13 the softmax is along axis alone.
  bool coerceTo2D() const { return opid.version < 13; }
  int64_t axis;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of Softmax, y (g - sum(g y)), or of LogSoftmax,
/// g - exp(y) sum(g), along the softmax's dimensions. Inputs: the
/// output's gradient and the output.
class SoftmaxGradOp : public GradOp {
public:
  explicit SoftmaxGradOp(const SoftmaxOp &fwd)
      : GradOp(fwd, fwd.opid.type + "Grad",
               {{0, 0, GradOpInType::GradOut}, {1, 0, GradOpInType::Out}},
               {{0, 0}}),
        log(fwd.opid.type == "LogSoftmax"), coerce(fwd.coerceTo2D()),
        axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SoftmaxGradOp>(*this);
  }
  bool log, coerce;
  int64_t axis;
};

} // namespace popart

#endif
