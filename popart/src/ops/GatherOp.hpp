#ifndef POPART_SRC_OPS_GATHEROP_HPP
#define POPART_SRC_OPS_GATHEROP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Gather: slices of the data along an axis at the indices (numpy.take).
class GatherOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherOp>(*this);
  }
  GatherOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 0)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of the gathered data: zeros with the output's gradient
/// added at the gathered indices (repeated indices add up). Inputs: the
/// output's gradient and the indices.
class GatherGradOp : public GradOp {
public:
  explicit GatherGradOp(const GatherOp &fwd)
      : GradOp(fwd, "GatherGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::In}},
               {{0, 0}}),
        axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherGradOp>(*this);
  }
  int64_t axis;
};

} // namespace popart

#endif
