#ifndef POPART_SRC_OPS_REDUCEOP_HPP
#define POPART_SRC_OPS_REDUCEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

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
  std::vector<std::unique_ptr<Op>> getGradOps() override;

private:
  std::vector<int64_t> attrAxes;
  bool axesAttr = false;
  bool noopWithEmptyAxes = false;
};

/// The gradient of a reduction: the output's gradient broadcast back over
/// the reduced dimensions, times the derivative of the reduction at each
/// element. Inputs: the output's gradient, the input and the output.
class ReduceGradOp : public GradOp {
public:
  explicit ReduceGradOp(const ReduceOp &fwd)
      : GradOp(fwd, fwd.opid.type + "Grad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 0, GradOpInType::Out}},
               {{0, 0}}),
        fwdType(fwd.opid.type), reducedAxes(fwd.reducedAxes) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReduceGradOp>(*this);
  }
  std::string fwdType;
  std::vector<int64_t> reducedAxes;
};

} // namespace popart

#endif
