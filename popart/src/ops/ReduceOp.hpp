#ifndef POPART_SRC_OPS_REDUCEOP_HPP
#define POPART_SRC_OPS_REDUCEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare,
/// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp over axes
/// (all when none are given), keeping them as 1 or dropping them.
class ReduceOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReduceOp>(*this);
  }
  ReduceOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a);
  void setup() override;
  /// The dimensions reduced (normalised, sorted).
  std::vector<int64_t> reducedAxes;
  bool keepdims;

private:
  std::vector<int64_t> attrAxes;
  bool axesAttr = false;
  bool noopWithEmptyAxes = false;
};

} // namespace popart

#endif
