#include "ops/InplaceVariant.hpp"

#include <popart/error.hpp>

namespace popart {

std::vector<std::tuple<OperatorIdentifier, float>>
inplaceVariantIds(const Op &op, const std::vector<InplaceForm> &forms) {
  std::vector<std::tuple<OperatorIdentifier, float>> ids;
  for (const auto &f : forms)
    if (op.hasInput(f.input) && op.hasOutput(0) &&
        op.inInfo(f.input) == op.outInfo(0))
      ids.emplace_back(OperatorIdentifier(Domain::ai_graphcore,
                                          op.opid.type + f.suffix, 1),
                       f.priority);
  return ids;
}

InIndex inplaceVariantInput(const Op &op, const OperatorIdentifier &id,
                            const std::vector<InplaceForm> &forms) {
  for (const auto &f : forms)
    if (id.type == op.opid.type + f.suffix)
      return f.input;
  throw error("{} has no in-place variant {}", op.str(), id.type);
}

} // namespace popart
