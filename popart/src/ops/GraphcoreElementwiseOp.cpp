#include "ops/GraphcoreElementwiseOp.hpp"

#include <popart/error.hpp>

namespace popart {

GraphcoreElementwiseOp::GraphcoreElementwiseOp(const OperatorIdentifier &id,
                                               const Op::Settings &settings,
                                               const Attributes &a)
    : Op(id, settings) {
  if (id.type == "IncrementMod") {
    increment = a.getFloat("increment");
    modulus = a.getFloat("modulus");
    if (modulus == 0.0f)
      throw error("IncrementMod '{}': the modulus is 0", name());
  }
  if (id.type == "Bucketize") {
    const int64_t r = a.getInt("right", 0);
    if (r != 0 && r != 1)
      throw error("Bucketize '{}': right is {}, not 0 or 1", name(), r);
    right = r == 1;
  }
}

bool GraphcoreElementwiseOp::isUnary() const {
  return opid.type == "BitwiseNot" || opid.type == "NearbyInt" ||
         opid.type == "IncrementMod";
}

bool GraphcoreElementwiseOp::isBitwise() const {
  return opid.type.rfind("Bitwise", 0) == 0;
}

void GraphcoreElementwiseOp::setup() {
  const DataType t = inInfo(0).dataType();
  const bool floating = t == DataType::FLOAT || t == DataType::FLOAT16;
  // The types of the original's definitions of each op.
  if (isBitwise() && t != DataType::INT32 && t != DataType::UINT32)
    throw error("{}: takes INT32 or UINT32 tensors, not {}", str(),
                inInfo(0).data_type());
  if ((opid.type == "Atan2" || opid.type == "NearbyInt") && !floating)
    throw error("{}: takes FLOAT or FLOAT16 tensors, not {}", str(),
                inInfo(0).data_type());
  if ((opid.type == "IncrementMod" || opid.type == "Bucketize") && !floating &&
      t != DataType::INT32 && t != DataType::UINT32)
    throw error("{}: takes FLOAT, FLOAT16, INT32 or UINT32 tensors, not {}",
                str(), inInfo(0).data_type());
  if ((opid.type == "Fmod" || opid.type == "Remainder") &&
      (t == DataType::BOOL || t == DataType::INT64 || t == DataType::UINT64 ||
       t == DataType::DOUBLE))
    throw error("{}: does not take {} tensors", str(), inInfo(0).data_type());
  if (isUnary()) {
    outInfo(0) = inInfo(0);
    return;
  }
  if (inInfo(1).dataType() != t)
    throw error("{}: inputs of types {} and {} differ", str(),
                inInfo(0).data_type(), inInfo(1).data_type());
  if (opid.type == "Bucketize") {
    if (inRank(1) != 1)
      throw error("{}: the boundaries have rank {}, not 1", str(), inRank(1));
    outInfo(0) = TensorInfo(DataType::INT32, inShape(0));
    return;
  }
  outInfo(0) = TensorInfo(t, npOut(inShape(0), inShape(1)));
}

std::vector<std::unique_ptr<Op>> GraphcoreElementwiseOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  const DataType t = inInfo(0).dataType();
  if (isBitwise() || opid.type == "IncrementMod" ||
      opid.type == "Bucketize" ||
      (t != DataType::FLOAT && t != DataType::FLOAT16))
    return ops;
  ops.push_back(std::make_unique<GraphcoreElementwiseGradOp>(*this, 0));
  if (opid.type == "Atan2")
    ops.push_back(std::make_unique<GraphcoreElementwiseGradOp>(*this, 1));
  return ops;
}

namespace {
std::vector<GradInOutMapper> gradInputs(const GraphcoreElementwiseOp &fwd) {
  std::vector<GradInOutMapper> in = {{0, 0, GradOpInType::GradOut},
                                     {1, 0, GradOpInType::In}};
  if (!fwd.isUnary())
    in.push_back({2, 1, GradOpInType::In});
  return in;
}
} // namespace

GraphcoreElementwiseGradOp::GraphcoreElementwiseGradOp(
    const GraphcoreElementwiseOp &fwd, int arg_)
    : GradOp(fwd,
             fwd.opid.type + (fwd.isUnary() ? "" : "Arg" + std::to_string(arg_)) +
                 "Grad",
             gradInputs(fwd), {{0, arg_}}),
      fwdType(fwd.opid.type), arg(arg_) {}

} // namespace popart
