// ReplicatedAllReduceOp, ReplicatedReduceScatterOp and ReplicatedAllGatherOp
// on gcl's
// cross-replica collectives. The op's group becomes gcl's CONSECUTIVE
// group of its size and stride (an orthogonal group is one whose replicas
// are numReplicas / size apart), as the original maps it.
#include "lowering/Lowering.hpp"
#include "ops/CollectiveOps.hpp"

#include <popart/error.hpp>

#include <gcl/Collectives.hpp>
#include <poputil/exceptions.hpp>

namespace popart {
namespace {

gcl::CollectiveOperator toGcl(const CollectiveOp &op) {
  switch (op.getCollectiveOp()) {
  case CollectiveOperator::Add:
    return gcl::CollectiveOperator::ADD;
  case CollectiveOperator::Mean:
    return gcl::CollectiveOperator::MEAN;
  case CollectiveOperator::Mul:
    return gcl::CollectiveOperator::MUL;
  case CollectiveOperator::Min:
    return gcl::CollectiveOperator::MIN;
  case CollectiveOperator::Max:
    return gcl::CollectiveOperator::MAX;
  case CollectiveOperator::LogicalAnd:
    return gcl::CollectiveOperator::LOGICAL_AND;
  case CollectiveOperator::LogicalOr:
    return gcl::CollectiveOperator::LOGICAL_OR;
  case CollectiveOperator::SquareAdd:
    return gcl::CollectiveOperator::SQUARE_ADD;
  case CollectiveOperator::Local:
    return gcl::CollectiveOperator::LOCAL;
  default:
    throw error("{}: {} is not a collective operator", op.str(),
                op.getCollectiveOp());
  }
}

gcl::CommGroup toGclGroup(const CollectiveOp &op) {
  const ReplicaGroupLayout layout = op.groupLayout();
  return gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, layout.size,
                        layout.stride);
}

// gcl refuses bad SessionOptions::gclOptions with a poplibs_error: the
// message says which options and which op.
template <class Collective>
poplar::Tensor runCollective(const Op &op, Collective &&collective) {
  try {
    return collective();
  } catch (const poputil::poplibs_error &e) {
    throw error("SessionOptions::gclOptions: {} (in {})", e.what(), op.str());
  }
}

// The replicas' parts gathered in order, less the last part's padding, in
// the whole tensor's shape.
poplar::Tensor wholeFromParts(const poplar::Tensor &gathered,
                              const TensorInfo &whole) {
  return gathered.flatten()
      .slice(0, static_cast<std::size_t>(whole.nelms()))
      .reshape(dims(whole.shape()));
}

} // namespace

void growReplicatedAllReduce(const Op &op_, LoweringContext &ctx,
                             poplar::program::Sequence &prog) {
  const auto &op = static_cast<const CollectiveOp &>(op_);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  ctx.set(op.outputs[0], runCollective(op, [&] {
            return gcl::allReduceCrossReplica(ctx.graph, x, toGcl(op), prog,
                                              toGclGroup(op), op.name(),
                                              ctx.gclOptions);
          }));
}

void growReplicatedReduceScatter(const Op &op_, LoweringContext &ctx,
                                 poplar::program::Sequence &prog) {
  const auto &op = static_cast<const CollectiveOp &>(op_);
  const poplar::Tensor x = ctx.get(op.inTensor(0));
  ctx.set(op.outputs[0], runCollective(op, [&] {
            return gcl::reduceScatterCrossReplica(
                ctx.graph, x.flatten(), toGcl(op), prog, toGclGroup(op),
                op.name(), ctx.gclOptions);
          }));
}

void growReplicatedAllGatherGrad(const Op &op_, LoweringContext &ctx,
                                 poplar::program::Sequence &prog) {
  const auto &op = static_cast<const ReplicatedAllGatherGradOp &>(op_);
  const poplar::Tensor g = ctx.get(op.inTensor(0));
  const gcl::CommGroup group(gcl::CommGroupType::CONSECUTIVE, op.layout.size,
                             op.layout.stride);
  const poplar::Tensor gathered = runCollective(op, [&] {
    return gcl::allGatherCrossReplica(ctx.graph, g, prog, group, op.name(),
                                      ctx.gclOptions);
  });
  ctx.set(op.outputs[0],
          copyOf(ctx, wholeFromParts(gathered, op.fwdInInfo(0)), prog,
                 op.outId(0)));
}

void growReplicatedAllGather(const Op &op, LoweringContext &ctx,
                             poplar::program::Sequence &prog) {
  const poplar::Tensor part = ctx.get(op.inTensor(0));
  const poplar::Tensor gathered = runCollective(op, [&] {
    return gcl::allGatherCrossReplica(ctx.graph, part, prog, op.name(),
                                      ctx.gclOptions);
  });
  ctx.set(op.outputs[0], wholeFromParts(gathered, op.outputs[0]->info));
}

} // namespace popart
