#include "ops/TensorOps.hpp"
#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace popart {
namespace {
int64_t normaliseAxis(int64_t axis, int64_t rank, const Op &op) {
  if (axis < -rank || axis >= rank)
    throw error("{}: axis {} out of range for rank {}", op.str(), axis, rank);
  return axis < 0 ? axis + rank : axis;
}
} // namespace

ReshapeOp::ReshapeOp(const OperatorIdentifier &id, const std::string &name,
                     const Attributes &a)
    : Op(id, name) {
  if (id.type == "Reshape" && (id.version < 5 || id.domain == Domain::ai_graphcore))
    attrShape = a.getInts("shape");
  if (id.type == "Reshape" && id.version >= 14 && id.domain == Domain::ai_onnx)
    if (a.getInt("allowzero", 0) != 0)
      throw error("Reshape '{}': allowzero=1 is not supported", name);
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
      if (d == 0) {
        if (i >= in.size())
          throw error("{}: shape entry 0 at {} has no input dimension", str(), i);
        d = in[i];
      }
      if (d == -1) {
        if (inferred >= 0)
          throw error("{}: more than one -1 in the shape", str());
        inferred = static_cast<int64_t>(i);
      } else {
        known *= d;
      }
      out.push_back(d);
    }
    if (inferred >= 0) {
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

TransposeOp::TransposeOp(const OperatorIdentifier &id, const std::string &name,
                         const Attributes &a)
    : Op(id, name), perm(a.getInts("perm", {})) {}

void TransposeOp::setup() {
  const Shape in = inShape(0);
  if (perm.empty())
    for (std::size_t i = in.size(); i-- > 0;)
      perm.push_back(static_cast<int64_t>(i));
  if (perm.size() != in.size())
    throw error("{}: perm has {} entries for an input of rank {}", str(),
                perm.size(), in.size());
  Shape out;
  for (auto p : perm)
    out.push_back(in.at(normaliseAxis(p, in.size(), *this)));
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

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

void GatherOp::setup() {
  const Shape data = inShape(0), indices = inShape(1);
  axis = normaliseAxis(axis, static_cast<int64_t>(data.size()), *this);
  const auto it = inInfo(1).dataType();
  if (it != DataType::INT32 && it != DataType::INT64)
    throw error("{}: indices must be INT32 or INT64, not {}", str(),
                inInfo(1).data_type());
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

std::vector<char> GatherOp::fold() const {
  const Shape data = inShape(0);
  const int bytes = getDataTypeInfo(inInfo(0).dataType()).nbytes();
  auto idx = toDoubles(inTensor(1).data, inInfo(1).dataType());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= data[d];
  for (std::size_t d = axis + 1; d < data.size(); ++d)
    inner *= data[d];
  std::vector<char> result;
  const auto &src = inTensor(0).data;
  for (int64_t o = 0; o < outer; ++o)
    for (double v : idx) {
      int64_t i = static_cast<int64_t>(v);
      if (i < 0)
        i += data[axis];
      if (i < 0 || i >= data[axis])
        throw error("{}: index {} out of range", str(), v);
      auto begin = src.begin() + ((o * data[axis] + i) * inner) * bytes;
      result.insert(result.end(), begin, begin + inner * bytes);
    }
  return result;
}

SliceOp::SliceOp(const OperatorIdentifier &id, const std::string &name,
                 const Attributes &a)
    : Op(id, name) {
  if (id.version < 10) {
    attrStarts = a.getInts("starts");
    attrEnds = a.getInts("ends");
    attrAxes = a.getInts("axes", {});
  }
}

void SliceOp::setup() {
  const Shape in = inShape(0);
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<int64_t> starts = attrStarts, ends = attrEnds, axes = attrAxes,
                       stepv;
  if (opid.version >= 10) {
    starts = constInputInts(1, "starts");
    ends = constInputInts(2, "ends");
    if (hasInput(3))
      axes = constInputInts(3, "axes");
    if (hasInput(4))
      stepv = constInputInts(4, "steps");
  }
  if (axes.empty())
    for (std::size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  begins.assign(r, 0);
  steps.assign(r, 1);
  this->ends = in;
  Shape out = in;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int64_t d = normaliseAxis(axes[i], r, *this);
    const int64_t step = stepv.empty() ? 1 : stepv[i];
    if (step <= 0)
      throw error("{}: only positive steps are supported, not {}", str(), step);
    auto clampIndex = [&](int64_t v) {
      if (v < 0)
        v += in[d];
      return std::min(std::max<int64_t>(v, 0), in[d]);
    };
    begins[d] = clampIndex(starts[i]);
    this->ends[d] = std::max(begins[d], clampIndex(ends[i]));
    steps[d] = step;
    out[d] = (this->ends[d] - begins[d] + step - 1) / step;
  }
  outInfo(0) = TensorInfo(inInfo(0).dataType(), out);
}

SplitOp::SplitOp(const OperatorIdentifier &id, const std::string &name,
                 const Attributes &a)
    : Op(id, name), axis(a.getInt("axis", 0)) {
  if (id.version < 13)
    attrSplit = a.getInts("split", {});
}

void SplitOp::setup() {
  const Shape in = inShape(0);
  axis = normaliseAxis(axis, static_cast<int64_t>(in.size()), *this);
  sizes = attrSplit;
  if (sizes.empty() && hasInput(1))
    sizes = constInputInts(1, "split");
  const int64_t n = static_cast<int64_t>(outputs.size());
  if (sizes.empty()) {
    if (in[axis] % n)
      throw error("{}: dimension {} of size {} does not split into {} equal "
                  "parts",
                  str(), axis, in[axis], n);
    sizes.assign(n, in[axis] / n);
  }
  if (static_cast<int64_t>(sizes.size()) != n)
    throw error("{}: {} sizes for {} outputs", str(), sizes.size(), n);
  int64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Shape out = in;
    out[axis] = sizes[i];
    total += sizes[i];
    outInfo(static_cast<int>(i)) = TensorInfo(inInfo(0).dataType(), out);
  }
  if (total != in[axis])
    throw error("{}: the sizes add up to {}, not {}", str(), total, in[axis]);
}

CastOp::CastOp(const OperatorIdentifier &id, const std::string &name,
               const Attributes &a)
    : Op(id, name) {
  if (id.version < 6)
    throw error("Cast '{}': version {} (type as a string) is not supported",
                name, id.version);
  to = onnxToPopartType(static_cast<int>(a.getInt("to")));
}

void CastOp::setup() { outInfo(0) = TensorInfo(to, inShape(0)); }

std::vector<char> CastOp::fold() const {
  auto v = toDoubles(inTensor(0).data, inInfo(0).dataType());
  if (to == DataType::BOOL)
    for (auto &x : v)
      x = x != 0.0;
  else if (getDataTypeInfo(to).isFixedPoint())
    for (auto &x : v)
      x = std::trunc(x);
  return fromDoubles(v, to);
}

void ShapeOp::setup() {
  outInfo(0) = TensorInfo(DataType::INT64, {inInfo(0).rank()});
}

std::vector<char> ShapeOp::fold() const {
  std::vector<double> dims;
  for (auto d : inShape(0))
    dims.push_back(static_cast<double>(d));
  return fromDoubles(dims, DataType::INT64);
}


} // namespace popart
