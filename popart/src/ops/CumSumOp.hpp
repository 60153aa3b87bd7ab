#ifndef POPART_SRC_OPS_CUMSUMOP_HPP
#define POPART_SRC_OPS_CUMSUMOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// CumSum: running sums along the axis (a constant input), from the end
/// when `reverse`, each without its own element when `exclusive`.
class CumSumOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CumSumOp>(*this);
  }
  CumSumOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), exclusive(a.getInt("exclusive", 0) != 0),
        reverse(a.getInt("reverse", 0) != 0) {}
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  bool exclusive, reverse;
  int64_t axis = 0;
};

/// The gradient of CumSum: the running sums of the output's gradient in
/// the other direction.
class CumSumGradOp : public GradOp {
public:
  explicit CumSumGradOp(const CumSumOp &fwd)
      : GradOp(fwd, "CumSumGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        exclusive(fwd.exclusive), reverse(!fwd.reverse), axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CumSumGradOp>(*this);
  }
  bool exclusive, reverse;
  int64_t axis;
};

} // namespace popart

#endif
