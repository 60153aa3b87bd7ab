#include "ops/GemmOp.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

GemmOp::GemmOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings), alpha(a.getFloat("alpha", 1.0f)),
      beta(a.getFloat("beta", 1.0f)), transA(a.getInt("transA", 0) != 0),
      transB(a.getInt("transB", 0) != 0) {
  if (id.version < 7)
    a.getInt("broadcast", 0);
}

void GemmOp::setup() {
  Shape a = inShape(0), b = inShape(1);
  if (a.size() != 2 || b.size() != 2)
    throw error("{}: A and B must be matrices, not {} and {}", str(), a, b);
  if (transA)
    std::swap(a[0], a[1]);
  if (transB)
    std::swap(b[0], b[1]);
  if (a[1] != b[0])
    throw error("{}: cannot multiply {} by {}", str(), a, b);
  Shape out{a[0], b[1]};
  if (hasInput(2))
    npOut(inShape(2), out); // C must broadcast to the result
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> GemmOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  for (int arg = 0; arg < inTensorCount(); ++arg)
    if (hasInput(arg))
      ops.push_back(std::make_unique<GemmGradOp>(*this, arg));
  return ops;
}

} // namespace popart
