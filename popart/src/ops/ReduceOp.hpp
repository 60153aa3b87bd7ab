#ifndef POPART_SRC_OPS_REDUCEOP_HPP
#define POPART_SRC_OPS_REDUCEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare,
/// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp over axes
/// (all when none are given), keeping them as 1 or dropping them.
class ReduceOp : public Op {
public:
  ReduceOp(const OperatorIdentifier &id, const std::string &name,
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
