#ifndef POPART_SRC_OPS_REDUCEMEDIANOP_HPP
#define POPART_SRC_OPS_REDUCEMEDIANOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ai.graphcore ReduceMedian: the median over `axes` (all when absent; of
/// an even count the lower one), and its INT32 index among the reduced
/// elements flattened in order (numpy's `flat`); reduced dimensions kept
/// as 1 when keepdims.
class ReduceMedianOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReduceMedianOp>(*this);
  }
  ReduceMedianOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  /// The input's dimensions: the kept ones, then the reduced ones.
  std::vector<unsigned> order() const;
  std::vector<int64_t> axes; // normalised and sorted by setup
  bool keepdims = true;

private:
  bool allAxes = false;
};

/// The median's gradient: the output's gradient at the median's index,
/// zeros elsewhere. Inputs: that gradient and the indices.
class ReduceMedianGradOp : public GradOp {
public:
  explicit ReduceMedianGradOp(const ReduceMedianOp &fwd)
      : GradOp(fwd, "ReduceMedianGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::Out}},
               {{0, 0}}),
        order(fwd.order()) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReduceMedianGradOp>(*this);
  }
  std::vector<unsigned> order;
};

} // namespace popart

#endif
