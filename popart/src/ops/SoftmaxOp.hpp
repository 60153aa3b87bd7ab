#ifndef POPART_SRC_OPS_SOFTMAXOP_HPP
#define POPART_SRC_OPS_SOFTMAXOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Softmax and LogSoftmax.
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
};

} // namespace popart

#endif
