#include "ops/OptimizerOps.hpp"

namespace popart {

InPlaceUpdateOp::InPlaceUpdateOp(const std::string &type,
                                 const Op::Settings &settings,
                                 std::set<InIndex> modified_)
    : Op(OperatorIdentifier(Domain::ai_graphcore, type, 1), settings),
      modified(std::move(modified_)) {
  this->settings.optimizerOp = true;
}

HostReduceOp::HostReduceOp(const Op::Settings &settings)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "HostReduce", 1), settings) {
  this->settings.optimizerOp = true;
}

} // namespace popart
