#include "ops/WhereOp.hpp"

#include <popart/error.hpp>

namespace popart {

void WhereOp::setup() {
  if (inInfo(0).dataType() != DataType::BOOL)
    throw error("{}: the condition must be BOOL, not {}", str(),
                inInfo(0).data_type());
  TensorInfo xy = npOut(inInfo(1), inInfo(2));
  outInfo(0) = TensorInfo(xy.dataType(), npOut(inShape(0), xy.shape()));
}

} // namespace popart
