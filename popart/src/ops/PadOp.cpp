#include "ops/PadOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

namespace popart {

PadOp::PadOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a)
    : Op(id, settings), mode(a.getString("mode", "constant")) {
  if (id.version < 11) {
    attrPads = a.getInts("pads");
    value = a.getFloat("value", 0.0f);
  }
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    throw error("Pad '{}': mode '{}' is not constant, edge or reflect", name(),
                mode);
}

void PadOp::setup() {
  const Shape in = inShape(0);
  std::vector<int64_t> pads = attrPads;
  if (opid.version >= 11) {
    pads = constInputInts(1, "pads");
    valueIsTensor = hasInput(2) && !hasConstInput(2);
    if (hasInput(2) && inInfo(2).nelms() != 1)
      throw error("{}: the constant value has {} elements, not 1", str(),
                  inInfo(2).nelms());
    if (hasConstInput(2))
      value = static_cast<float>(constInputValues(2, "constant value").at(0));
  }
  if (pads.size() != 2 * in.size())
    throw error("{}: {} pads for an input of rank {}", str(), pads.size(),
                in.size());
  lower.assign(pads.begin(), pads.begin() + in.size());
  upper.assign(pads.begin() + in.size(), pads.end());
  Shape out = in;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (lower[d] < 0 || upper[d] < 0)
      throw error("{}: negative pads are not supported", str());
    if (mode == "reflect" && (lower[d] >= in[d] || upper[d] >= in[d]))
      throw error("{}: reflect pads must be smaller than the dimension", str());
    out[d] += lower[d] + upper[d];
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> PadOp::getGradOps() {
  if (mode != "constant")
    return {};
  return gradOps<PadGradOp>(*this);
}

} // namespace popart
