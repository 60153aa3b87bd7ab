// The collectives between the replicas of a replicated graph
// (replicatedGraphCount > 1): ReplicatedAllReduce, which the weight
// update also uses to sum the replicas' gradients, ReplicatedReduceScatter,
// and ReplicatedAllGather, which with it shards optimiser state over the
// replicas.
#ifndef POPART_SRC_OPS_COLLECTIVEOPS_HPP
#define POPART_SRC_OPS_COLLECTIVEOPS_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/commgroup.hpp>
#include <popart/op.hpp>
#include <popart/op/collectives/collectives.hpp>

#include <memory>

namespace popart {

/// The replicas of one group of a CommGroup: how many, and how far apart.
struct ReplicaGroupLayout {
  unsigned size = 1;
  unsigned stride = 1;
};

/// What the collectives share: the operator (attribute
/// "__collectiveOperator", Add by default) and the group (attribute
/// "__collectiveCommGroup", [type, size], all replicas by default).
class CollectiveOp : public Op {
public:
  CollectiveOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a);
  CollectiveOp(const OperatorIdentifier &id, const Op::Settings &settings,
               CollectiveOperator op, CommGroup group);
  CollectiveOperator getCollectiveOp() const { return collectiveOp; }
  const CommGroup &getCommGroup() const { return group; }
  /// The group of the graph's replicas (popart::error naming the op unless
  /// the group divides them).
  ReplicaGroupLayout groupLayout() const;
  void appendAttributes(OpSerialiserBase &os) const override;

protected:
  /// popart::error naming the op unless the input is FLOAT, FLOAT16, INT32
  /// or UINT32 (the original's types).
  void checkInputType() const;

private:
  CollectiveOperator collectiveOp = CollectiveOperator::Add;
  CommGroup group;
};

/// Each replica gets the combination of its group's inputs.
class ReplicatedAllReduceOp : public CollectiveOp {
public:
  ReplicatedAllReduceOp(const OperatorIdentifier &id,
                        const Op::Settings &settings, const Attributes &a)
      : CollectiveOp(id, settings, a) {}
  /// The sum over every replica of a weight's gradient (an op of the
  /// weight update).
  explicit ReplicatedAllReduceOp(const Op::Settings &settings);
  void setup() override;
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReplicatedAllReduceOp>(*this);
  }
};

/// Replica k of a group of n gets part k (of ceil(elements / n), the last
/// padded with zeros) of the combination of its group's flattened inputs.
class ReplicatedReduceScatterOp : public CollectiveOp {
public:
  ReplicatedReduceScatterOp(const OperatorIdentifier &id,
                            const Op::Settings &settings, const Attributes &a)
      : CollectiveOp(id, settings, a) {}
  /// Over every replica, an op of the weight update with replicated tensor
  /// sharding: Add reduce-scatters a gradient, Local takes the replica's
  /// part of a weight.
  ReplicatedReduceScatterOp(const Op::Settings &settings,
                            CollectiveOperator op);
  /// The output is flat, with the input's shape as its meta shape.
  void setup() override;
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReplicatedReduceScatterOp>(*this);
  }
  /// The original's: for Local only, a ReplicatedAllGatherGradOp.
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a Local reduce-scatter, as the original makes it: the
/// output gradients of the group's replicas gathered in group order,
/// flattened, the first elements (as many as the input has) in the
/// input's shape. It is the gradient of an input every replica holds the
/// same (a tensor sharded over the replicas).
class ReplicatedAllGatherGradOp : public GradOp {
public:
  explicit ReplicatedAllGatherGradOp(const ReplicatedReduceScatterOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReplicatedAllGatherGradOp>(*this);
  }
  ReplicaGroupLayout layout;
};

/// Replicated tensor sharding: the whole tensor from every replica's part
/// (a ReplicatedReduceScatterOp's output), in its meta shape.
class ReplicatedAllGatherOp : public Op {
public:
  explicit ReplicatedAllGatherOp(const Op::Settings &settings);
  void setup() override;
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReplicatedAllGatherOp>(*this);
  }
};

} // namespace popart

#endif
