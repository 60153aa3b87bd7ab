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
    const Tensor &t = *inTensor(i);
    if (t.type != TensorType::Const)
      throw error("{}: the {} bound ('{}') must be a constant", str(),
                  i == 1 ? "min" : "max", t.id);
    value = static_cast<float>(toDoubles(t.data, t.info.dataType()).at(0));
  };
  bound(1, min);
  bound(2, max);
  outInfo(0) = inInfo(0);
}

} // namespace popart
