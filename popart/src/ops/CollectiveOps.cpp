#include "ops/CollectiveOps.hpp"
#include "core/Describe.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/names.hpp>
#include <popart/opserialiser.hpp>

#include <ostream>

namespace popart {

namespace {

CollectiveOperator collectiveOperator(const Attributes &a,
                                      const std::string &opName) {
  const int64_t v = a.getInt(sCollectiveOperator,
                             static_cast<int64_t>(CollectiveOperator::Add));
  if (v < 0 || v >= static_cast<int64_t>(CollectiveOperator::N))
    throw error("{}: {} is not a CollectiveOperator", opName, v);
  return static_cast<CollectiveOperator>(v);
}

CommGroup commGroup(const Attributes &a, const std::string &opName) {
  const auto v = a.getInts(sCollectiveCommGroup, {});
  if (v.empty())
    return {};
  if (v.size() != 2)
    throw error("{}: the attribute {} is [type, group size], not {} values",
                opName, sCollectiveCommGroup, v.size());
  if (v[0] < 0 || v[0] > static_cast<int64_t>(CommGroupType::Orthogonal))
    throw error("{}: {} is not a CommGroupType (All 0, Consecutive 1, "
                "Orthogonal 2)",
                opName, v[0]);
  if (v[1] < 0 || v[1] > 0xffffffffll)
    throw error("{}: the replica group size {} is out of range", opName, v[1]);
  return CommGroup(static_cast<CommGroupType>(v[0]),
                   static_cast<unsigned>(v[1]));
}

} // namespace

std::ostream &operator<<(std::ostream &os, CommGroupType type) {
  switch (type) {
  case CommGroupType::All:
    return os << "All";
  case CommGroupType::Consecutive:
    return os << "Consecutive";
  case CommGroupType::Orthogonal:
    return os << "Orthogonal";
  case CommGroupType::None:
    return os << "None";
  default:
    return os << "Invalid CommGroup " << static_cast<int>(type);
  }
}

std::ostream &operator<<(std::ostream &os, const CommGroup &group) {
  return os << "CommGroup(type=" << group.type
            << ", replicaGroupSize=" << group.replicaGroupSize << ")";
}

std::ostream &operator<<(std::ostream &os, const CollectiveOperator &op) {
  static const char *const names[] = {"Add", "Mean",       "Mul",
                                      "Min", "Max",        "LogicalAnd",
                                      "LogicalOr", "SquareAdd", "Local"};
  const auto i = static_cast<int>(op);
  if (i < 0 || i >= static_cast<int>(CollectiveOperator::N))
    return os << "Invalid CollectiveOperator " << i;
  return os << names[i];
}

CollectiveOp::CollectiveOp(const OperatorIdentifier &id,
                           const Op::Settings &settings, const Attributes &a)
    : Op(id, settings),
      collectiveOp(collectiveOperator(a, id.type + " '" + settings.name + "'")),
      group(commGroup(a, id.type + " '" + settings.name + "'")) {}

CollectiveOp::CollectiveOp(const OperatorIdentifier &id,
                           const Op::Settings &settings, CollectiveOperator op,
                           CommGroup group_)
    : Op(id, settings), collectiveOp(op), group(group_) {}

ReplicaGroupLayout CollectiveOp::groupLayout() const {
  const auto replicas =
      static_cast<unsigned>(getGraph().getIr().getReplicationFactor());
  const unsigned size = group.replicaGroupSize;
  switch (group.type) {
  case CommGroupType::All:
    return {replicas, 1};
  case CommGroupType::None:
    return {1, 1};
  case CommGroupType::Consecutive:
  case CommGroupType::Orthogonal:
    if (size == 0 || replicas % size != 0)
      throw error("{}: {} does not divide the {} replicas of the graph", str(),
                  group, replicas);
    if (group.type == CommGroupType::Consecutive)
      return {size, 1};
    return {size, replicas / size};
  default:
    throw error("{}: {} is not a valid group", str(), group);
  }
}

void CollectiveOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute(sCollectiveOperator, static_cast<int64_t>(collectiveOp));
  os.appendAttribute(sCollectiveCommGroup,
                     std::vector<int64_t>{static_cast<int64_t>(group.type),
                                          group.replicaGroupSize});
}

void CollectiveOp::checkInputType() const {
  const DataType t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::INT32 &&
      t != DataType::UINT32)
    throw error("{}: input '{}' is {}; the collectives take FLOAT, FLOAT16, "
                "INT32 or UINT32",
                str(), inId(0), describe(inInfo(0)));
  groupLayout();
}

ReplicatedAllReduceOp::ReplicatedAllReduceOp(const Op::Settings &settings)
    : CollectiveOp(Onnx::CustomOperators::ReplicatedAllReduce, settings,
                   CollectiveOperator::Add, CommGroup()) {
  this->settings.optimizerOp = true;
}

void ReplicatedAllReduceOp::setup() {
  checkInputType();
  outInfo(0) = inInfo(0);
}

ReplicatedReduceScatterOp::ReplicatedReduceScatterOp(
    const Op::Settings &settings, CollectiveOperator op)
    : CollectiveOp(Onnx::CustomOperators::ReplicatedReduceScatter, settings,
                   op, CommGroup()) {
  this->settings.optimizerOp = true;
}

void ReplicatedReduceScatterOp::setup() {
  checkInputType();
  const int64_t n = inInfo(0).nelms();
  const int64_t size = groupLayout().size;
  outInfo(0) = TensorInfo(inInfo(0).dataType(), Shape{(n + size - 1) / size},
                          inInfo(0).shape());
}

std::vector<std::unique_ptr<Op>> ReplicatedReduceScatterOp::getGradOps() {
  if (getCollectiveOp() != CollectiveOperator::Local)
    throw error("{}: its gradient is only implemented for "
                "CollectiveOperator::Local, not {}",
                str(), getCollectiveOp());
  return gradOps<ReplicatedAllGatherGradOp>(*this);
}

ReplicatedAllGatherGradOp::ReplicatedAllGatherGradOp(
    const ReplicatedReduceScatterOp &fwd)
    : GradOp(fwd, "ReplicatedAllGather", {{0, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      layout(fwd.groupLayout()) {}

ReplicatedAllGatherOp::ReplicatedAllGatherOp(const Op::Settings &settings)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "ReplicatedAllGather", 1),
         settings) {
  this->settings.optimizerOp = true;
}

void ReplicatedAllGatherOp::setup() {
  const TensorInfo &in = inInfo(0);
  if (in.metaShape().empty())
    throw error("{}: the input '{}' is not a replica's shard of a tensor (it "
                "has no meta shape)",
                str(), inTensor(0)->id);
  outInfo(0) = TensorInfo(in.dataType(), in.metaShape());
}

} // namespace popart
