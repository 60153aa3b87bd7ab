#include "ops/ExpandOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

namespace popart {

void ExpandOp::setup() {
  outInfo(0) = TensorInfo(inInfo(0).dataType(),
                          npOut(inShape(0), constInputInts(1, "shape")));
}

std::vector<char> ExpandOp::fold() const {
  const DataType type = inInfo(0).dataType();
  return fromDoubles(broadcastTo(toDoubles(inTensor(0)->data, type), inShape(0),
                                 outInfo(0).shape()),
                     type);
}


std::vector<std::unique_ptr<Op>> ExpandOp::getGradOps() {
  return gradOps<ExpandGradOp>(*this);
}

} // namespace popart
