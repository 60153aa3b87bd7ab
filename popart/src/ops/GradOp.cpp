#include "ops/GradOp.hpp"

#include <popart/error.hpp>

namespace popart {

GradOp::GradOp(const Op &fwd, const std::string &gradType,
               std::vector<GradInOutMapper> inInfo_, std::map<int, int> outToIn_)
    : Op(OperatorIdentifier(Domain::ai_graphcore, gradType, 1), fwd.settings),
      inInfo(std::move(inInfo_)), outToIn(std::move(outToIn_)) {
  for (int i = 0; i < fwd.inTensorCount(); ++i)
    fwdInInfos.push_back(fwd.hasInput(i) ? fwd.inInfo(i) : TensorInfo());
  for (int i = 0; i < fwd.outTensorCount(); ++i)
    fwdOutInfos.push_back(fwd.hasOutput(i) ? fwd.outInfo(i) : TensorInfo());
}

void GradOp::setup() {
  for (const auto &p : outToIn)
    if (hasOutput(p.first)) {
      if (p.second >= static_cast<int>(fwdInInfos.size()))
        throw internal_error("{}: no forward input {}", str(), p.second);
      outInfo(p.first) = fwdInInfos[p.second];
    }
}

} // namespace popart
