#include "ops/AbortOp.hpp"

#include <popart/error.hpp>

namespace popart {

void AbortOp::setup() {
  if (hasInput(0) && inInfo(0).nelms() != 1)
    throw error("{}: a conditional abort tests a scalar; '{}' has shape {}",
                str(), inTensor(0)->id, inShape(0));
}

} // namespace popart
