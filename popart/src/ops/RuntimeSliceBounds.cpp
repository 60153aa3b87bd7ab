#include "ops/RuntimeSliceBounds.hpp"
#include "ir/HostData.hpp"
#include "ops/Axis.hpp"
#include "ops/SliceOp.hpp"

#include <popart/error.hpp>
#include <popart/tensor.hpp>

#include <set>
#include <string>

namespace popart {

namespace {

bool isConstant(const Tensor &t) {
  return t.type == TensorType::Const && !t.producer;
}

// a + b, element by element, a one-element side broadcast.
std::vector<double> plus(const std::vector<double> &a,
                         const std::vector<double> &b, double sign) {
  const std::size_t n = std::max(a.size(), b.size());
  if (a.size() != n && a.size() != 1)
    return {};
  if (b.size() != n && b.size() != 1)
    return {};
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = a[a.size() == 1 ? 0 : i] + sign * b[b.size() == 1 ? 0 : i];
  return out;
}

// A value as base + offset: base is the tensor the value was computed from
// by adding constants and reshaping (nullptr for a constant value).
struct Affine {
  const Tensor *base = nullptr;
  std::vector<double> offset;
  bool valid = true;
};

Affine trace(const Tensor *t) {
  static const std::set<std::string> sameValues = {
      "Unsqueeze", "Squeeze", "Reshape", "Flatten", "Identity"};
  Affine a{nullptr, {0.0}};
  while (true) {
    if (isConstant(*t)) {
      a.offset = plus(a.offset, toDoubles(t->data, t->info.dataType()), 1);
      a.valid = !a.offset.empty();
      return a;
    }
    const Op *p = t->producer;
    if (!p) {
      a.base = t;
      return a;
    }
    const std::string &type = p->opid.type;
    if (sameValues.count(type) ||
        (type == "Cast" && isIntegerType(p->inInfo(0).dataType()) &&
         isIntegerType(t->info.dataType()))) {
      t = p->inTensor(0);
      continue;
    }
    if ((type == "Add" || type == "Sub") && p->inTensorCount() == 2) {
      const Tensor *x = p->inTensor(0), *y = p->inTensor(1);
      if (isConstant(*y)) {
        a.offset = plus(a.offset, toDoubles(y->data, y->info.dataType()),
                        type == "Add" ? 1 : -1);
        t = x;
      } else if (type == "Add" && isConstant(*x)) {
        a.offset = plus(a.offset, toDoubles(x->data, x->info.dataType()), 1);
        t = y;
      } else {
        a.base = t;
        return a;
      }
      if (a.offset.empty()) {
        a.valid = false;
        return a;
      }
      continue;
    }
    a.base = t;
    return a;
  }
}

} // namespace

void setupRuntimeSlice(SliceOp &op) {
  if (!op.hasInput(1) || !op.hasInput(2))
    throw error("{}: the starts and ends inputs must be given", op.str());
  const Shape in = op.inShape(0);
  const auto rank = static_cast<int64_t>(in.size());
  const int64_t count = op.inInfo(1).nelms();
  if (op.inInfo(2).nelms() != count)
    throw error("{}: {} starts but {} ends", op.str(), count,
                op.inInfo(2).nelms());
  std::vector<int64_t> axes;
  if (op.hasInput(3))
    axes = op.constInputInts(3, "axes");
  else
    for (int64_t i = 0; i < count; ++i)
      axes.push_back(i);
  if (static_cast<int64_t>(axes.size()) != count)
    throw error("{}: {} axes for {} starts", op.str(), axes.size(), count);
  if (op.hasInput(4))
    for (int64_t step : op.constInputInts(4, "steps"))
      if (step != 1)
        throw error("{}: with starts read at run time ('{}') the steps must "
                    "be 1, not {}",
                    op.str(), op.inId(1), step);
  const Affine starts = trace(op.inTensor(1)), ends = trace(op.inTensor(2));
  if (!starts.valid || !ends.valid || starts.base != ends.base)
    throw error("{}: its starts ('{}') and ends ('{}') are read at run time "
                "and do not differ by constants, so the length of the slice "
                "(the output's shape) is not known",
                op.str(), op.inId(1), op.inId(2));
  const std::vector<double> lengths = plus(ends.offset, starts.offset, -1);
  if (lengths.empty())
    throw error("{}: the starts and ends have different element counts",
                op.str());
  Shape out = in;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t axis = normaliseAxis(axes[i], rank, op);
    const auto length = static_cast<int64_t>(
        lengths[lengths.size() == 1 ? 0 : static_cast<std::size_t>(i)]);
    if (length < 0 || length > in[axis])
      throw error("{}: the slice of axis {} has {} elements, which the axis "
                  "({} long) cannot hold",
                  op.str(), axis, length, in[axis]);
    op.runtimeAxes.push_back(axis);
    op.runtimeLengths.push_back(length);
    out[axis] = length;
  }
  op.outInfo(0) = TensorInfo(op.inInfo(0).dataType(), out);
}

} // namespace popart
