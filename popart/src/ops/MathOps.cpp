#include "ops/MathOps.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

void MatMulOp::setup() {
  Shape a = inShape(0), b = inShape(1);
  if (a.empty() || b.empty())
    throw error("{}: inputs must have rank at least 1", str());
  if (inInfo(0).dataType() != inInfo(1).dataType())
    throw error("{}: inputs of types {} and {} differ", str(),
                inInfo(0).data_type(), inInfo(1).data_type());
  const bool vecA = a.size() == 1, vecB = b.size() == 1;
  if (vecA)
    a.insert(a.begin(), 1);
  if (vecB)
    b.push_back(1);
  const int64_t k = a.back();
  if (b[b.size() - 2] != k)
    throw error("{}: cannot multiply {} by {}", str(), inShape(0), inShape(1));
  Shape batch = npOut(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
  Shape out = batch;
  if (!vecA)
    out.push_back(a[a.size() - 2]);
  if (!vecB)
    out.push_back(b.back());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

GemmOp::GemmOp(const OperatorIdentifier &id, const std::string &name,
               const Attributes &a)
    : Op(id, name), alpha(a.getFloat("alpha", 1.0f)),
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

SoftmaxOp::SoftmaxOp(const OperatorIdentifier &id, const std::string &name,
                     const Attributes &a)
    : Op(id, name), axis(a.getInt("axis", id.version < 13 ? 1 : -1)) {}

void SoftmaxOp::setup() {
  const int64_t r = inInfo(0).rank();
  if (axis < -r || axis >= std::max<int64_t>(r, 1))
    throw error("{}: axis {} out of range for rank {}", str(), axis, r);
  if (axis < 0)
    axis += r;
  outInfo(0) = inInfo(0);
}

ReduceOp::ReduceOp(const OperatorIdentifier &id, const std::string &name,
                   const Attributes &a)
    : Op(id, name), keepdims(a.getInt("keepdims", 1) != 0) {
  // ReduceSum takes its axes as an input from opset 13.
  const bool axesInput = id.type == "ReduceSum" && id.version >= 13;
  if (!axesInput && a.has("axes")) {
    attrAxes = a.getInts("axes");
    axesAttr = true;
  }
  if (axesInput)
    noopWithEmptyAxes = a.getInt("noop_with_empty_axes", 0) != 0;
}

void ReduceOp::setup() {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes = attrAxes;
  if (!axesAttr && hasInput(1))
    axes = constInputInts(1, "axes");
  reducedAxes.clear();
  if (axes.empty() && !noopWithEmptyAxes)
    for (int64_t d = 0; d < r; ++d)
      reducedAxes.push_back(d);
  for (auto a : axes) {
    if (a < -r || a >= r)
      throw error("{}: axis {} out of range for rank {}", str(), a, r);
    reducedAxes.push_back(a < 0 ? a + r : a);
  }
  std::sort(reducedAxes.begin(), reducedAxes.end());
  reducedAxes.erase(std::unique(reducedAxes.begin(), reducedAxes.end()),
                    reducedAxes.end());
  Shape out;
  for (int64_t d = 0; d < r; ++d) {
    bool reduced = std::binary_search(reducedAxes.begin(), reducedAxes.end(), d);
    if (!reduced)
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

} // namespace popart
