#include "ops/IpuCopyOp.hpp"

#include <popart/operatoridentifier.hpp>

namespace popart {

IpuCopyOp::IpuCopyOp(const Op::Settings &settings, VGraphId sourceIpu)
    : Op(OperatorIdentifier(Domain::ai_graphcore, "IpuCopy", 1), settings),
      sourceIpu(sourceIpu) {}

} // namespace popart
