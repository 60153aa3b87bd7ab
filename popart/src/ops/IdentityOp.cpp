#include "ops/IdentityOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

namespace popart {

IdentityOp::IdentityOp(const OperatorIdentifier &id, const Op::Settings &settings,
                       const Attributes &a)
    : Op(id, settings) {
  if (id.type == "Dropout") {
    a.getFloat("ratio", 0.5f);
    if (id.version < 7)
      a.getInt("is_test", 0);
    if (a.has("seed"))
      a.getInt("seed");
  }
}

void IdentityOp::setup() {
  outInfo(0) = inInfo(0);
  if (outputs.size() > 1 && outputs[1]) // Dropout's mask: all kept
    outInfo(1) = TensorInfo(DataType::BOOL, inShape(0));
  if (opid.type == "Dropout" && hasInput(2)) {
    const Tensor &training = *inTensor(2);
    if (training.type != TensorType::Const ||
        toDoubles(training.data, training.info.dataType()).at(0) != 0.0)
      throw error("{}: Dropout in training mode is not supported in inference",
                  str());
  }
}

} // namespace popart
