#ifndef POPART_SRC_OPS_SOFTMAXOP_HPP
#define POPART_SRC_OPS_SOFTMAXOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Softmax and LogSoftmax.
class SoftmaxOp : public Op {
public:
  SoftmaxOp(const OperatorIdentifier &id, const std::string &name,
            const Attributes &a);
  void setup() override;
  /// Before opset 13 the input is seen as 2-D [outer, inner] split at
  /// axis; from 13 the softmax is along axis alone.
  bool coerceTo2D() const { return opid.version < 13; }
  int64_t axis;
};

} // namespace popart

#endif
