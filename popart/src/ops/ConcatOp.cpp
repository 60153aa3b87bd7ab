#include "ops/ConcatOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <algorithm>

namespace popart {

void ConcatOp::setup() {
  Shape out = inShape(0);
  const int64_t r = static_cast<int64_t>(out.size());
  axis = normaliseAxis(axis, r, *this);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const Shape s = inShape(static_cast<int>(i));
    if (static_cast<int64_t>(s.size()) != r)
      throw error("{}: inputs of different ranks", str());
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && s[d] != out[d])
        throw error("{}: input {} has shape {}, not matching {}", str(), i, s,
                    out);
    out[axis] += s[axis];
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

std::vector<char> ConcatOp::fold() const {
  const int bytes = getDataTypeInfo(inInfo(0).dataType()).nbytes();
  const Shape out = outInfo(0).shape();
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= out[d];
  std::vector<char> result;
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor *t : inputs) {
      const int64_t chunk = t->info.nelms() / std::max<int64_t>(outer, 1) * bytes;
      result.insert(result.end(), t->data.begin() + o * chunk,
                    t->data.begin() + (o + 1) * chunk);
    }
  return result;
}


std::vector<std::unique_ptr<Op>> ConcatOp::getGradOps() {
  std::vector<std::unique_ptr<Op>> ops;
  int64_t begin = 0;
  for (int i = 0; i < inTensorCount(); ++i) {
    ops.push_back(std::make_unique<ConcatGradOp>(*this, i, begin));
    begin += inShape(i).at(static_cast<std::size_t>(axis));
  }
  return ops;
}

} // namespace popart
