#include "ops/OptimizerOps.hpp"

#include <popart/error.hpp>
#include <popart/tensor.hpp>

namespace popart {

InPlaceUpdateOp::InPlaceUpdateOp(const std::string &type,
                                 const Op::Settings &settings,
                                 std::set<InIndex> modified_)
    : Op(OperatorIdentifier(Domain::ai_graphcore, type, 1), settings),
      modified(std::move(modified_)) {
  this->settings.optimizerOp = true;
}

ReplicatedAllReduceOp::ReplicatedAllReduceOp(const Op::Settings &settings)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "ReplicatedAllReduce", 1),
         settings) {
  this->settings.optimizerOp = true;
}

ReplicatedReduceScatterOp::ReplicatedReduceScatterOp(
    const Op::Settings &settings, bool summed_, int64_t replicas_)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "ReplicatedReduceScatter", 1),
         settings),
      summed(summed_), replicas(replicas_) {
  this->settings.optimizerOp = true;
}

void ReplicatedReduceScatterOp::setup() {
  const TensorInfo &in = inInfo(0);
  const int64_t n = in.nelms();
  outInfo(0) = TensorInfo(in.dataType(), {(n + replicas - 1) / replicas},
                          in.shape());
}

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

HostReduceOp::HostReduceOp(const Op::Settings &settings)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "HostReduce", 1), settings) {
  this->settings.optimizerOp = true;
}

} // namespace popart
