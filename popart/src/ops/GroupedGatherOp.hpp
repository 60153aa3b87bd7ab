#ifndef POPART_SRC_OPS_GROUPEDGATHEROP_HPP
#define POPART_SRC_OPS_GROUPEDGATHEROP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// GroupedGather (ai.graphcore): a Gather in each of group_size groups
/// along dimension 0: data [G, ...] and indices [G, ...]; group g of the
/// output is data[g] gathered along `axis` (counted in data, so at least 1)
/// at indices[g]. The output: data's shape with the axis replaced by the
/// indices' dimensions after the group one. group_size 1 is a plain
/// Gather (no group dimension).
class GroupedGatherOp : public Op {
public:
  GroupedGatherOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 0)),
        groupSize(a.getInt("group_size", 1)) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GroupedGatherOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  int64_t axis; // normalised by setup()
  int64_t groupSize;
};

/// The data's gradient: zeros with the output's gradient added at the
/// gathered indices of each group. Inputs: the output's gradient and the
/// indices.
class GroupedGatherGradOp : public GradOp {
public:
  explicit GroupedGatherGradOp(const GroupedGatherOp &fwd)
      : GradOp(fwd, "GroupedGatherGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::In}},
               {{0, 0}}),
        axis(fwd.axis), groupSize(fwd.groupSize) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GroupedGatherGradOp>(*this);
  }
  int64_t axis, groupSize;
};

} // namespace popart

#endif
