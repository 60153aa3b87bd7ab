#include "ops/ReshapeOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

namespace popart {

ReshapeOp::ReshapeOp(const OperatorIdentifier &id, const Op::Settings &settings,
                     const Attributes &a)
    : Op(id, settings) {
  if (id.type == "Reshape" && (id.version < 5 || id.domain == Domain::ai_graphcore))
    attrShape = a.getInts("shape");
  if (id.type == "Reshape" && id.version >= 14 && id.domain == Domain::ai_onnx)
    allowZero = a.getInt("allowzero", 0) != 0;
  if (id.type == "Flatten")
    axis = a.getInt("axis", 1);
  if ((id.type == "Squeeze" || id.type == "Unsqueeze") && id.version < 13 &&
      a.has("axes")) {
    axes = a.getInts("axes");
    axesGiven = true;
  }
}

void ReshapeOp::setup() {
  const Shape in = inShape(0);
  const int64_t n = inInfo(0).nelms();
  Shape out;
  const auto &t = opid.type;
  if (t == "Reshape") {
    std::vector<int64_t> shape =
        attrShape.empty() && hasInput(1) ? constInputInts(1, "shape") : attrShape;
    int64_t known = 1, inferred = -1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      int64_t d = shape[i];
      if (d == 0 && !allowZero) {
        if (i >= in.size())
          throw error("{}: shape entry 0 at {} has no input dimension", str(), i);
        d = in[i];
      }
      if (d == -1) {
        if (inferred >= 0)
          throw error("{}: more than one -1 in the shape", str());
        inferred = static_cast<int64_t>(i);
      } else if (d < -1 || __builtin_mul_overflow(known, d, &known)) {
        throw error("{}: cannot reshape {} elements to {}", str(), n, shape);
      }
      out.push_back(d);
    }
    if (inferred >= 0) {
      if (allowZero && known == 0)
        throw error("{}: with allowzero=1 the shape {} may not hold both 0 "
                    "and -1",
                    str(), shape);
      if (known == 0 || n % known)
        throw error("{}: cannot reshape {} elements to {}", str(), n, shape);
      out[inferred] = n / known;
    }
  } else if (t == "Flatten") {
    const int64_t r = static_cast<int64_t>(in.size());
    int64_t ax = axis < 0 ? axis + r : axis;
    if (ax < 0 || ax > r)
      throw error("{}: axis {} out of range for rank {}", str(), axis, r);
    int64_t outer = 1;
    for (int64_t i = 0; i < ax; ++i)
      outer *= in[i];
    out = {outer, outer ? n / outer : 0};
  } else if (t == "Squeeze") {
    std::vector<int64_t> ax =
        axesGiven ? axes
                  : (hasInput(1) ? constInputInts(1, "axes") : std::vector<int64_t>());
    std::vector<bool> drop(in.size(), false);
    if (ax.empty())
      for (std::size_t i = 0; i < in.size(); ++i)
        drop[i] = in[i] == 1;
    for (auto a : ax) {
      auto d = normaliseAxis(a, static_cast<int64_t>(in.size()), *this);
      if (in[d] != 1)
        throw error("{}: dimension {} has size {}, not 1", str(), d, in[d]);
      drop[d] = true;
    }
    for (std::size_t i = 0; i < in.size(); ++i)
      if (!drop[i])
        out.push_back(in[i]);
  } else if (t == "Unsqueeze") {
    std::vector<int64_t> ax = axesGiven ? axes : constInputInts(1, "axes");
    const int64_t r = static_cast<int64_t>(in.size() + ax.size());
    std::vector<bool> inserted(r, false);
    for (auto a : ax)
      inserted[normaliseAxis(a, r, *this)] = true;
    std::size_t next = 0;
    for (int64_t i = 0; i < r; ++i)
      out.push_back(inserted[i] ? 1 : in.at(next++));
  }
  int64_t m = 1;
  for (auto d : out)
    m *= d;
  if (m != n)
    throw error("{}: cannot reshape {} ({} elements) to {}", str(), in, n, out);
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}


std::vector<std::unique_ptr<Op>> ReshapeOp::getGradOps() {
  return gradOps<ReshapeGradOp>(*this);
}

} // namespace popart
