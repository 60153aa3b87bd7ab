#include "ops/ElementwiseOps.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>
#include <limits>

namespace popart {
namespace {
bool isType(const Op &op, const char *t) { return op.opid.type == t; }
} // namespace

UnaryOp::UnaryOp(const OperatorIdentifier &id, const std::string &name,
                 const Attributes &a)
    : Op(id, name) {
  if (id.type == "LeakyRelu")
    alpha = a.getFloat("alpha", 0.01f);
}

void UnaryOp::setup() {
  outInfo(0) = inInfo(0);
  if (isType(*this, "Not") && inInfo(0).dataType() != DataType::BOOL)
    throw error("Not takes a BOOL input, not {}", inInfo(0).data_type());
}

bool UnaryOp::canFold() const {
  return isType(*this, "Neg") || isType(*this, "Abs") || isType(*this, "Floor") ||
         isType(*this, "Ceil") || isType(*this, "Sqrt") || isType(*this, "Not");
}

std::vector<char> UnaryOp::fold() const {
  auto v = toDoubles(inTensor(0).data, inInfo(0).dataType());
  for (auto &x : v) {
    if (isType(*this, "Neg"))
      x = -x;
    else if (isType(*this, "Abs"))
      x = std::fabs(x);
    else if (isType(*this, "Floor"))
      x = std::floor(x);
    else if (isType(*this, "Ceil"))
      x = std::ceil(x);
    else if (isType(*this, "Sqrt"))
      x = std::sqrt(x);
    else if (isType(*this, "Not"))
      x = x == 0.0 ? 1.0 : 0.0;
  }
  return fromDoubles(v, outInfo(0).dataType());
}

BinaryOp::BinaryOp(const OperatorIdentifier &id, const std::string &name,
                   const Attributes &a)
    : Op(id, name) {
  // Opset 6 binary ops broadcast only with broadcast=1 (and an axis); the
  // numpy rule applies from opset 7.
  if (id.version < 7 && id.type != "Pow") {
    if (a.getInt("broadcast", 0) != 0 && a.has("axis"))
      throw error("{} '{}': broadcasting with an axis is not supported",
                  id.type, name);
    a.getInt("axis", 0);
    a.getInt("broadcast", 0);
  }
}

bool BinaryOp::isComparison() const {
  return isType(*this, "Equal") || isType(*this, "Less") ||
         isType(*this, "Greater") || isType(*this, "LessOrEqual") ||
         isType(*this, "GreaterOrEqual") || isType(*this, "And") ||
         isType(*this, "Or");
}

void BinaryOp::setup() {
  const auto &a = inInfo(0), &b = inInfo(1);
  const bool pow = isType(*this, "Pow");
  if (!pow && a.dataType() != b.dataType())
    throw error("{}: inputs of types {} and {} differ", str(), a.data_type(),
                b.data_type());
  Shape shape = npOut(a.shape(), b.shape());
  outInfo(0) = TensorInfo(isComparison() ? DataType::BOOL : a.dataType(), shape);
}

std::vector<char> BinaryOp::fold() const {
  const Shape out = outInfo(0).shape();
  auto a = broadcastTo(toDoubles(inTensor(0).data, inInfo(0).dataType()),
                       inShape(0), out);
  auto b = broadcastTo(toDoubles(inTensor(1).data, inInfo(1).dataType()),
                       inShape(1), out);
  const bool integral = getDataTypeInfo(inInfo(0).dataType()).isFixedPoint();
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    const auto &t = opid.type;
    if (t == "Add") r[i] = x + y;
    else if (t == "Sub") r[i] = x - y;
    else if (t == "Mul") r[i] = x * y;
    else if (t == "Div") r[i] = integral ? std::trunc(x / y) : x / y;
    else if (t == "Pow") r[i] = std::pow(x, y);
    else if (t == "Equal") r[i] = x == y;
    else if (t == "Less") r[i] = x < y;
    else if (t == "Greater") r[i] = x > y;
    else if (t == "LessOrEqual") r[i] = x <= y;
    else if (t == "GreaterOrEqual") r[i] = x >= y;
    else if (t == "And") r[i] = (x != 0) && (y != 0);
    else if (t == "Or") r[i] = (x != 0) || (y != 0);
    else if (t == "Mod") r[i] = std::fmod(x, y);
    else throw internal_error("No host rule for {}", t);
  }
  return fromDoubles(r, outInfo(0).dataType());
}

VariadicOp::VariadicOp(const OperatorIdentifier &id, const std::string &name,
                       const Attributes &)
    : Op(id, name) {}

void VariadicOp::setup() {
  if (inputs.empty())
    throw error("{} needs at least one input", str());
  TensorInfo info = inInfo(0);
  for (std::size_t i = 1; i < inputs.size(); ++i)
    info = npOut(info, inInfo(static_cast<int>(i)));
  outInfo(0) = info;
}

void WhereOp::setup() {
  if (inInfo(0).dataType() != DataType::BOOL)
    throw error("{}: the condition must be BOOL, not {}", str(),
                inInfo(0).data_type());
  TensorInfo xy = npOut(inInfo(1), inInfo(2));
  outInfo(0) = TensorInfo(xy.dataType(), npOut(inShape(0), xy.shape()));
}

ClipOp::ClipOp(const OperatorIdentifier &id, const std::string &name,
               const Attributes &a)
    : Op(id, name), min(std::numeric_limits<float>::lowest()),
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
    const Tensor &t = inTensor(i);
    if (t.type != TensorType::Const)
      throw error("{}: the {} bound ('{}') must be a constant", str(),
                  i == 1 ? "min" : "max", t.id);
    value = static_cast<float>(toDoubles(t.data, t.info.dataType()).at(0));
  };
  bound(1, min);
  bound(2, max);
  outInfo(0) = inInfo(0);
}

IdentityOp::IdentityOp(const OperatorIdentifier &id, const std::string &name,
                       const Attributes &a)
    : Op(id, name) {
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
  if (outputs.size() > 1 && outputs[1]) {
    // Dropout's mask: all kept in inference.
    throw error("{}: the mask output of Dropout is not supported in inference",
                str());
  }
  if (opid.type == "Dropout" && hasInput(2)) {
    const Tensor &training = inTensor(2);
    if (training.type != TensorType::Const ||
        toDoubles(training.data, training.info.dataType()).at(0) != 0.0)
      throw error("{}: Dropout in training mode is not supported in inference",
                  str());
  }
}

} // namespace popart
