#ifndef POPART_SRC_OPS_MEANVARIANCENORMOP_HPP
#define POPART_SRC_OPS_MEANVARIANCENORMOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// MeanVarianceNormalization: (x - mean) / (sqrt(mean(x^2) - mean^2) +
/// 1e-9), the means over `axes` (0, 2, 3 by default).
class MeanVarianceNormOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MeanVarianceNormOp>(*this);
  }
  MeanVarianceNormOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
      : Op(id, settings), axes(a.getInts("axes", {0, 2, 3})) {}
  void setup() override;
  bool isNorm() const override { return true; }
  std::vector<int64_t> axes;
};

} // namespace popart

#endif
