#include "ops/MatMulOp.hpp"

#include <popart/error.hpp>

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


std::vector<std::unique_ptr<Op>> MatMulOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  ops.push_back(std::make_unique<MatMulGradOp>(*this, 0));
  ops.push_back(std::make_unique<MatMulGradOp>(*this, 1));
  return ops;
}

} // namespace popart
