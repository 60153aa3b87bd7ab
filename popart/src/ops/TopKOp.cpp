#include "ops/TopKOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

TopKOp::TopKOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : Op(id, settings), axis(a.getInt("axis", isArg() ? 0 : -1)) {
  if (isArg()) {
    largest = id.type == "ArgMax";
    keepdims = a.getInt("keepdims", 1) != 0;
    selectLastIndex = a.getInt("select_last_index", 0) != 0;
  } else {
    if (id.version < 10)
      k = a.getInt("k");
    largest = a.getInt("largest", 1) != 0;
    sorted = a.getInt("sorted", 1) != 0;
  }
}

void TopKOp::setup() {
  Shape shape = inShape(0);
  axis = normaliseAxis(axis, static_cast<int64_t>(shape.size()), *this);
  if (!isArg() && opid.version >= 10) {
    auto ks = constInputInts(1, "k");
    if (ks.size() != 1)
      throw error("{}: k must have one element", str());
    k = ks[0];
  }
  if (k < 0 || k > shape[axis])
    throw error("{}: k = {} for a dimension of size {}", str(), k, shape[axis]);
  if (isArg()) {
    if (keepdims)
      shape[axis] = 1;
    else
      shape.erase(shape.begin() + axis);
    outInfo(0) = TensorInfo(DataType::INT64, shape);
    return;
  }
  shape[axis] = k;
  outInfo(0) = TensorInfo(inInfo(0).dataType(), shape);
  if (outputs.size() > 1 && outputs[1])
    outInfo(1) = TensorInfo(DataType::INT64, shape);
}


std::vector<std::unique_ptr<Op>> TopKOp::getGradOps() {
  if (isArg() || !hasOutput(1))
    return {};
  return gradOps<TopKGradOp>(*this);
}

SortOp::SortOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a)
    : TopKOp(id, settings, a.getInt("axis", -1)),
      stable(a.getInt("stable", 0) != 0) {
  largest = a.getInt("descending", 0) != 0;
  sorted = true;
}

void SortOp::setup() {
  axis = normaliseAxis(axis, inRank(0), *this);
  k = inShape(0)[axis];
  TopKOp::setup();
}

} // namespace popart
