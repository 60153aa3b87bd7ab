// Numpy broadcasting of tensor views: dimensions are matched from the
// last, a dimension of size 1 stretches to any size.
#include <poputil/Broadcast.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace poputil {
namespace {

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::string s = "{";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

bool broadcastShape(const std::vector<std::size_t> &a,
                    const std::vector<std::size_t> &b,
                    std::vector<std::size_t> &out) {
  const std::size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (std::size_t i = 0; i != rank; ++i) {
    const std::size_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const std::size_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return false;
    out[rank - 1 - i] = da == 1 ? db : da;
  }
  return true;
}

poplar::Tensor withLeadingOnes(const poplar::Tensor &t, std::size_t rank) {
  std::vector<std::size_t> shape(rank - t.rank(), 1);
  const auto own = t.shape();
  shape.insert(shape.end(), own.begin(), own.end());
  return t.reshape(shape);
}

} // namespace

void expandToMatchRanks(poplar::Tensor &a, poplar::Tensor &b) {
  if (a.rank() < b.rank())
    a = withLeadingOnes(a, b.rank());
  else if (b.rank() < a.rank())
    b = withLeadingOnes(b, a.rank());
}

void broadcastToMatch(poplar::Tensor &a, const std::vector<std::size_t> &shape) {
  if (a.rank() > shape.size())
    throw poplibs_error("broadcastToMatch: tensor '" + a.getDebugStr() +
                        "' of shape " + shapeString(a.shape()) +
                        " has more dimensions than " + shapeString(shape));
  poplar::Tensor t = withLeadingOnes(a, shape.size());
  for (unsigned d = 0; d != shape.size(); ++d) {
    if (t.dim(d) == shape[d])
      continue;
    if (t.dim(d) != 1)
      throw poplibs_error("broadcastToMatch: tensor '" + a.getDebugStr() +
                          "' of shape " + shapeString(a.shape()) +
                          " cannot be broadcast to " + shapeString(shape));
    t = t.broadcast(static_cast<unsigned>(shape[d]), d);
  }
  a = t;
}

void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b) {
  std::vector<std::size_t> shape;
  if (!broadcastShape(a.shape(), b.shape(), shape))
    throw poplibs_error("broadcastToMatch: tensors '" + a.getDebugStr() +
                        "' " + shapeString(a.shape()) + " and '" +
                        b.getDebugStr() + "' " + shapeString(b.shape()) +
                        " cannot be broadcast to one shape");
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
}

void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b, poplar::Tensor &c) {
  std::vector<std::size_t> ab, abc;
  if (!broadcastShape(a.shape(), b.shape(), ab) ||
      !broadcastShape(ab, c.shape(), abc))
    throw poplibs_error("broadcastToMatch: tensors '" + a.getDebugStr() +
                        "' " + shapeString(a.shape()) + ", '" +
                        b.getDebugStr() + "' " + shapeString(b.shape()) +
                        " and '" + c.getDebugStr() + "' " +
                        shapeString(c.shape()) +
                        " cannot be broadcast to one shape");
  broadcastToMatch(a, abc);
  broadcastToMatch(b, abc);
  broadcastToMatch(c, abc);
}

bool canBroadcastToMatch(const poplar::Tensor &a, const poplar::Tensor &b) {
  std::vector<std::size_t> shape;
  return broadcastShape(a.shape(), b.shape(), shape);
}

} // namespace poputil
