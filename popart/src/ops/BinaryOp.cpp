#include "ops/BinaryOp.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <cmath>

namespace popart {

BinaryOp::BinaryOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
    : InplaceCapableOp(id, settings) {
  if (id.type == "Mod")
    fmod = a.getInt("fmod", 0) != 0;
  if (id.type == "BitShift") {
    const std::string direction = a.getString("direction", "");
    if (direction != "LEFT" && direction != "RIGHT")
      throw error("BitShift '{}': direction '{}' is not LEFT or RIGHT", name(),
                  direction);
    shiftLeft = direction == "LEFT";
  }
  // Opset 6 binary ops broadcast only with broadcast=1 (and an axis); the
  // numpy rule applies from opset 7.
  if (id.version < 7 && id.type != "PRelu") {
    if (a.getInt("broadcast", 0) != 0 && a.has("axis"))
      legacyAxis = a.getInt("axis", 0);
    a.getInt("axis", 0);
  }
}

bool BinaryOp::isComparison() const {
  return opid.type == "Equal" || opid.type == "Less" ||
         opid.type == "Greater" || opid.type == "LessOrEqual" ||
         opid.type == "GreaterOrEqual" || opid.type == "And" ||
         opid.type == "Or" || opid.type == "Xor";
}

void BinaryOp::setup() {
  const auto &a = inInfo(0), &b = inInfo(1);
  const bool pow = opid.type == "Pow";
  if (!pow && a.dataType() != b.dataType())
    throw error("{}: inputs of types {} and {} differ", str(), a.data_type(),
                b.data_type());
  if (opid.type == "BitShift" && a.dataType() != DataType::UINT8 &&
      a.dataType() != DataType::UINT16 && a.dataType() != DataType::UINT32 &&
      a.dataType() != DataType::UINT64)
    throw error("{}: BitShift takes unsigned integers, not {}", str(),
                a.data_type());
  rhsView.clear();
  if (opid.type == "PRelu" && opid.version < 7 && b.rank() == 1 &&
      a.rank() >= 2 && b.shape()[0] != 1 && b.shape()[0] == a.shape()[1])
    legacyAxis = 1;
  if (legacyAxis) {
    int64_t axis = *legacyAxis;
    if (axis < 0)
      axis += a.rank();
    if (axis < 0 || axis + b.rank() > a.rank())
      throw error("{}: axis {} does not fit inputs of shapes {} and {}", str(),
                  *legacyAxis, a.shape(), b.shape());
    rhsView = b.shape();
    rhsView.resize(static_cast<std::size_t>(a.rank() - axis), 1);
  }
  Shape shape = npOut(a.shape(), rhsView.empty() ? b.shape() : rhsView);
  outInfo(0) = TensorInfo(isComparison() ? DataType::BOOL : a.dataType(), shape);
}

const std::vector<InplaceForm> &BinaryOp::inplaceForms() {
  static const std::vector<InplaceForm> forms = {{"LhsInplace", 0, 10.0f},
                                                 {"RhsInplace", 1, 9.0f}};
  return forms;
}

bool BinaryOp::canRunInPlace() const {
  // Comparisons change the type; 8- and 16-bit integers and Pow of
  // integers are computed in another type (BinaryLowering.cpp).
  const DataType t = inInfo(0).dataType();
  const bool computedAsIs = t == DataType::FLOAT || t == DataType::FLOAT16 ||
                            (t == DataType::INT32 && opid.type != "Pow");
  return !isComparison() && computedAsIs && opid.type != "Mod" &&
         inInfo(0).dataType() == inInfo(1).dataType();
}

std::vector<char> BinaryOp::fold() const {
  const Shape out = outInfo(0).shape();
  auto a = broadcastTo(toDoubles(inTensor(0)->data, inInfo(0).dataType()),
                       inShape(0), out);
  const Shape bShape = rhsView.empty() ? inShape(1) : rhsView;
  auto b = broadcastTo(toDoubles(inTensor(1)->data, inInfo(1).dataType()),
                       bShape, out);
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
    else if (t == "Xor") r[i] = (x != 0) != (y != 0);
    else if (t == "PRelu") r[i] = x > 0 ? x : x * y;
    else if (t == "BitShift")
      r[i] = static_cast<double>(
          shiftLeft ? static_cast<uint64_t>(x) << static_cast<uint64_t>(y)
                    : static_cast<uint64_t>(x) >> static_cast<uint64_t>(y));
    else if (t == "Mod") {
      r[i] = std::fmod(x, y);
      if (!fmod && r[i] != 0 && ((r[i] < 0) != (y < 0)))
        r[i] += y;
    }
    else throw internal_error("No host rule for {}", t);
  }
  return fromDoubles(r, outInfo(0).dataType());
}


std::vector<std::unique_ptr<Op>> BinaryOp::getGradOps() {
  const auto &t = opid.type;
  const bool floatMod =
      t == "Mod" && (inInfo(0).dataType() == DataType::FLOAT ||
                     inInfo(0).dataType() == DataType::FLOAT16);
  if (t != "Add" && t != "Sub" && t != "Mul" && t != "Div" && t != "Pow" &&
      t != "PRelu" && !floatMod)
    return {};
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<BinaryGradOp>(*this, 0));
  ops.push_back(std::make_unique<BinaryGradOp>(*this, 1));
  return ops;
}

BinaryGradOp::BinaryGradOp(const BinaryOp &fwd, int arg_)
    : GradOp(fwd, fwd.opid.type + "Arg" + std::to_string(arg_) + "Grad",
             {{0, 0, GradOpInType::GradOut},
              {1, 0, GradOpInType::In},
              {2, 1, GradOpInType::In},
              {3, 0, GradOpInType::Out}},
             {{0, arg_}}),
      fwdType(fwd.opid.type), arg(arg_), fmod(fwd.fmod),
      rhsView(fwd.rhsView) {}

} // namespace popart
