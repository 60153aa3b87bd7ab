#include "ops/ClipOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <limits>

namespace popart {

ClipOp::ClipOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings), min(std::numeric_limits<float>::lowest()),
      max(std::numeric_limits<float>::max()) {
  if (id.version < 11) {
    min = a.getFloat("min", min);
    max = a.getFloat("max", max);
  }
}

void ClipOp::setup() {
  // From opset 11 the bounds are inputs, which must be constants.
  auto bound = [&](int i, float &value) {
    if (!hasInput(i))
      return;
    value = static_cast<float>(
        constInputValues(i, i == 1 ? "min bound" : "max bound").at(0));
  };
  bound(1, min);
  bound(2, max);
  outInfo(0) = inInfo(0);
}

} // namespace popart
