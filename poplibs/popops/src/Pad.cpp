// Padding builds a view: the tensor concatenated with constants (or with
// its own edge elements); only constant padding adds data to the graph.
#include <popops/Pad.hpp>

#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using poplar::Tensor;

void checkAmounts(const Tensor &t, const std::vector<std::ptrdiff_t> &lower,
                  const std::vector<std::ptrdiff_t> &upper) {
  if (lower.size() != t.rank() || upper.size() != t.rank())
    throw poputil::poplibs_error(
        "pad: tensor '" + t.getDebugStr() + "' has " +
        std::to_string(t.rank()) + " dimensions but " +
        std::to_string(lower.size()) + " lower and " +
        std::to_string(upper.size()) + " upper amounts were given");
}

// Negative amounts truncate.
Tensor truncate(const Tensor &t, std::ptrdiff_t lower, std::ptrdiff_t upper,
                unsigned dim) {
  const auto n = static_cast<std::ptrdiff_t>(t.dim(dim));
  const std::ptrdiff_t begin = lower < 0 ? -lower : 0;
  const std::ptrdiff_t end = upper < 0 ? n + upper : n;
  if (begin > end)
    throw poputil::poplibs_error("pad: truncating dimension " +
                                 std::to_string(dim) + " of '" +
                                 t.getDebugStr() + "' by more than its size");
  return t.slice(begin, end, dim);
}

// The constant padding of one side: val broadcast to the side's shape.
Tensor constantSide(const Tensor &t, const Tensor &val, std::size_t amount,
                    unsigned dim) {
  auto shape = t.shape();
  shape[dim] = amount;
  std::size_t n = 1;
  for (auto s : shape)
    n *= s;
  return val.reshape({1}).broadcast(static_cast<unsigned>(n), 0).reshape(shape);
}

Tensor padWith(const Tensor &t, const std::vector<std::ptrdiff_t> &lower,
               const std::vector<std::ptrdiff_t> &upper, const Tensor &val) {
  checkAmounts(t, lower, upper);
  if (val.numElements() != 1 || val.elementType() != t.elementType())
    throw poputil::poplibs_error("pad: the padding value '" +
                                 val.getDebugStr() +
                                 "' must be one element of the type of '" +
                                 t.getDebugStr() + "'");
  Tensor out = t;
  for (unsigned d = 0; d != t.rank(); ++d) {
    out = truncate(out, lower[d], upper[d], d);
    if (lower[d] > 0)
      out = poplar::concat(constantSide(out, val, std::size_t(lower[d]), d),
                           out, d);
    if (upper[d] > 0)
      out = poplar::concat(out, constantSide(out, val, std::size_t(upper[d]), d),
                           d);
  }
  return out;
}

Tensor constant(poplar::Graph &graph, const Tensor &t, double value,
                padding::MappingMethod method) {
  Tensor c = graph.addConstant(t.elementType(), {}, value, {"pad/value"});
  // The padding value: one constant, on tile 0 unless NONE leaves its
// mapping to the caller.
  if (method != padding::MappingMethod::NONE)
    graph.setTileMapping(c, 0);
  return c;
}

} // namespace

Tensor pad(poplar::Graph &graph, const Tensor &t,
           const std::vector<std::ptrdiff_t> &lower,
           const std::vector<std::ptrdiff_t> &upper, float val,
           padding::MappingMethod method) {
  return padWith(t, lower, upper, constant(graph, t, val, method));
}

Tensor pad(poplar::Graph &graph, const Tensor &t,
           const std::vector<std::ptrdiff_t> &lower,
           const std::vector<std::ptrdiff_t> &upper, int val,
           padding::MappingMethod method) {
  return padWith(t, lower, upper, constant(graph, t, val, method));
}

Tensor pad(poplar::Graph &graph, const Tensor &t,
           const std::vector<std::ptrdiff_t> &lower,
           const std::vector<std::ptrdiff_t> &upper, const Tensor &val,
           padding::MappingMethod) {
  return padWith(t, lower, upper, val);
}

Tensor pad(poplar::Graph &graph, const Tensor &t, std::ptrdiff_t lower,
           std::ptrdiff_t upper, unsigned dim, float val,
           padding::MappingMethod method) {
  if (dim >= t.rank())
    throw poputil::poplibs_error("pad: tensor '" + t.getDebugStr() +
                                 "' has no dimension " + std::to_string(dim));
  std::vector<std::ptrdiff_t> lo(t.rank(), 0), hi(t.rank(), 0);
  lo[dim] = lower;
  hi[dim] = upper;
  return pad(graph, t, lo, hi, val, method);
}

Tensor pad(const Tensor &t, const std::vector<std::ptrdiff_t> &lower,
           const std::vector<std::ptrdiff_t> &upper, padding::Type type) {
  checkAmounts(t, lower, upper);
  Tensor out = t;
  for (unsigned d = 0; d != t.rank(); ++d) {
    out = truncate(out, lower[d], upper[d], d);
    const std::size_t n = out.dim(d);
    auto side = [&](std::ptrdiff_t amount, bool before) {
      std::vector<Tensor> parts;
      for (std::ptrdiff_t i = 0; i < amount; ++i) {
        std::size_t index;
        if (type == padding::Type::EDGE) {
          index = before ? 0 : n - 1;
        } else {
          // Mirror without the edge: element amount - i (before) or
          // n - 2 - i (after).
          const std::ptrdiff_t m =
              before ? amount - i : std::ptrdiff_t(n) - 2 - i;
          if (m < 0 || m >= std::ptrdiff_t(n))
            throw poputil::poplibs_error(
                "pad: reflecting " + std::to_string(amount) +
                " elements of dimension " + std::to_string(d) + " of '" +
                t.getDebugStr() + "', which has " + std::to_string(n));
          index = std::size_t(m);
        }
        parts.push_back(out.slice(index, index + 1, d));
      }
      return parts;
    };
    if ((lower[d] > 0 || upper[d] > 0) && n == 0)
      throw poputil::poplibs_error("pad: dimension " + std::to_string(d) +
                                   " of '" + t.getDebugStr() +
                                   "' is empty, so it has no edge to repeat");
    auto before = side(lower[d], true), after = side(upper[d], false);
    std::vector<Tensor> all(before);
    all.push_back(out);
    all.insert(all.end(), after.begin(), after.end());
    out = poplar::concat(all, d);
  }
  return out;
}

} // namespace popops
