#include "ops/CastOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>

namespace popart {

CastOp::CastOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings) {
  if (id.version < 6)
    throw error("Cast '{}': version {} (type as a string) is not supported",
                name(), id.version);
  if (id.type != "CastLike")
    to = onnxToPopartType(static_cast<int>(a.getInt("to")));
}

void CastOp::setup() {
  if (opid.type == "CastLike")
    to = inInfo(1).dataType();
  outInfo(0) = TensorInfo(to, inShape(0));
}

std::vector<char> CastOp::fold() const {
  auto v = toDoubles(inTensor(0)->data, inInfo(0).dataType());
  if (to == DataType::BOOL)
    for (auto &x : v)
      x = x != 0.0;
  else if (getDataTypeInfo(to).isFixedPoint())
    for (auto &x : v)
      x = std::trunc(x);
  return fromDoubles(v, to);
}


std::vector<std::unique_ptr<Op>> CastOp::getGradOps() {
  const DataType in = inInfo(0).dataType();
  if (in != DataType::FLOAT && in != DataType::FLOAT16)
    return {};
  return gradOps<CastGradOp>(*this);
}

} // namespace popart
