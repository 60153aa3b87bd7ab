#include "ops/TensorRemapOp.hpp"

#include <popart/error.hpp>

namespace popart {

TensorRemapOp::TensorRemapOp(const OperatorIdentifier &id,
                             const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), remapType(TensorRemapType::FwdBwdReverse) {
  const int64_t type = a.getInt("remap_type", 0);
  if (type < 0 || type > int64_t(TensorRemapType::Fwd))
    throw error("TensorRemap '{}': remap_type {} is not FwdBwdReverse (0), "
                "FwdBwd (1) or Fwd (2)",
                name(), type);
  remapType = static_cast<TensorRemapType>(type);
}

std::vector<std::unique_ptr<Op>> TensorRemapOp::getGradOps() {
  return gradOps<TensorRemapGradOp>(*this);
}

} // namespace popart
