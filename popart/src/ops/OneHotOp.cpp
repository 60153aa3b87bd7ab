#include "ops/OneHotOp.hpp"
#include "ops/Axis.hpp"

#include <popart/error.hpp>

#include <cmath>

namespace popart {

void OneHotOp::setup() {
  if (inInfo(1).nelms() != 1)
    throw error("{}: the depth has {} elements, not 1", str(), inInfo(1).nelms());
  const double d = constInputValues(1, "depth").at(0);
  if (d < 1)
    throw error("{}: the depth {} is not positive", str(), d);
  depth = static_cast<int64_t>(std::trunc(d));
  if (inInfo(2).nelms() != 2)
    throw error("{}: the values have {} elements, not 2 (off, on)", str(),
                inInfo(2).nelms());
  Shape out = inShape(0);
  axis = normaliseAxis(axis, static_cast<int64_t>(out.size()) + 1, *this);
  out.insert(out.begin() + axis, depth);
  outInfo(0) = TensorInfo(inInfo(2).dataType(), out);
}

} // namespace popart
