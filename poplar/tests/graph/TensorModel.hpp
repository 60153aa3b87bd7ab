// A deliberately naive model of tensor views for tests: an explicit shape
// and, for every element in row-major order, the variable element it refers
// to. Every view is computed by plain loops over the elements, so it shares
// nothing with the strided-box algebra it checks.
#ifndef POPLAR_TESTS_GRAPH_TENSORMODEL_HPP
#define POPLAR_TESTS_GRAPH_TENSORMODEL_HPP

#include <poplar/Interval.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <set>
#include <utility>
#include <vector>

namespace model {

using Shape = std::vector<std::size_t>;
using Coords = std::vector<std::size_t>;

struct Element {
  std::size_t var = 0;
  std::size_t index = 0;
  friend bool operator==(const Element &a, const Element &b) {
    return a.var == b.var && a.index == b.index;
  }
  friend bool operator<(const Element &a, const Element &b) {
    return a.var < b.var || (a.var == b.var && a.index < b.index);
  }
};

struct Tensor {
  Shape shape;
  std::vector<Element> elements;
};

inline std::size_t count(const Shape &shape) {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

inline Coords coordsOf(std::size_t flat, const Shape &shape) {
  Coords c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = flat % shape[d];
    flat /= shape[d];
  }
  return c;
}

inline std::size_t flatOf(const Coords &c, const Shape &shape) {
  std::size_t flat = 0;
  for (std::size_t d = 0; d != shape.size(); ++d)
    flat = flat * shape[d] + c[d];
  return flat;
}

inline Tensor variable(std::size_t var, const Shape &shape) {
  Tensor t{shape, {}};
  for (std::size_t i = 0; i != count(shape); ++i)
    t.elements.push_back(Element{var, i});
  return t;
}

// A view of shape `shape` whose element at c is source element source(c).
inline Tensor gather(const Tensor &in, const Shape &shape,
                     const std::function<Coords(const Coords &)> &source) {
  Tensor out{shape, {}};
  for (std::size_t i = 0; i != count(shape); ++i)
    out.elements.push_back(
        in.elements[flatOf(source(coordsOf(i, shape)), in.shape)]);
  return out;
}

inline Tensor reshape(const Tensor &in, const Shape &shape) {
  return Tensor{shape, in.elements};
}

inline Tensor slice(const Tensor &in, const Shape &begin, const Shape &end) {
  Shape shape(in.shape.size());
  for (std::size_t d = 0; d != shape.size(); ++d)
    shape[d] = end[d] - begin[d];
  return gather(in, shape, [&](Coords c) {
    for (std::size_t d = 0; d != c.size(); ++d)
      c[d] += begin[d];
    return c;
  });
}

inline Tensor slice(const Tensor &in, std::size_t begin, std::size_t end,
                    std::size_t dim) {
  Shape lo(in.shape.size(), 0), hi = in.shape;
  lo[dim] = begin;
  hi[dim] = end;
  return slice(in, lo, hi);
}

inline Tensor index(const Tensor &in, std::size_t i) {
  Tensor row = slice(in, i, i + 1, 0);
  return reshape(row, Shape(in.shape.begin() + 1, in.shape.end()));
}

inline Tensor dimShuffle(const Tensor &in, const std::vector<unsigned> &perm) {
  Shape shape(perm.size());
  for (std::size_t i = 0; i != perm.size(); ++i)
    shape[i] = in.shape[perm[i]];
  return gather(in, shape, [&](const Coords &c) {
    Coords old(c.size());
    for (std::size_t i = 0; i != perm.size(); ++i)
      old[perm[i]] = c[i];
    return old;
  });
}

inline Tensor concat(const std::vector<Tensor> &parts, std::size_t dim) {
  Shape shape = parts[0].shape;
  shape[dim] = 0;
  for (const Tensor &p : parts)
    shape[dim] += p.shape[dim];
  Tensor out{shape, {}};
  for (std::size_t i = 0; i != count(shape); ++i) {
    Coords c = coordsOf(i, shape);
    std::size_t p = 0;
    while (c[dim] >= parts[p].shape[dim]) {
      c[dim] -= parts[p].shape[dim];
      ++p;
    }
    out.elements.push_back(parts[p].elements[flatOf(c, parts[p].shape)]);
  }
  return out;
}

inline Tensor broadcast(const Tensor &in, std::size_t n, std::size_t dim) {
  Shape shape = in.shape;
  shape[dim] *= n;
  return gather(in, shape, [&](Coords c) {
    c[dim] %= in.shape[dim];
    return c;
  });
}

inline Tensor reverse(const Tensor &in, std::size_t dim) {
  return gather(in, in.shape, [&](Coords c) {
    c[dim] = in.shape[dim] - 1 - c[dim];
    return c;
  });
}

inline Tensor subSample(const Tensor &in, std::size_t stride, std::size_t dim) {
  Shape shape = in.shape;
  shape[dim] = (shape[dim] + stride - 1) / stride;
  return gather(in, shape, [&](Coords c) {
    c[dim] *= stride;
    return c;
  });
}

inline Tensor upsample(const Tensor &in, std::size_t scale, std::size_t dim) {
  Shape shape = in.shape;
  shape[dim] *= scale;
  return gather(in, shape, [&](Coords c) {
    c[dim] /= scale;
    return c;
  });
}

// Maximal pieces of consecutive elements with consecutive storage.
struct Piece {
  std::size_t flatBegin, var, storageBegin, length;
};

inline std::vector<Piece> contiguousPieces(const Tensor &t) {
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i != t.elements.size(); ++i) {
    const Element &e = t.elements[i];
    if (!pieces.empty() && pieces.back().var == e.var &&
        pieces.back().storageBegin + pieces.back().length == e.index)
      ++pieces.back().length;
    else
      pieces.push_back(Piece{i, e.var, e.index, 1});
  }
  return pieces;
}

inline bool containsAliases(const Tensor &t) {
  std::set<Element> seen(t.elements.begin(), t.elements.end());
  return seen.size() != t.elements.size();
}

inline bool intersects(const Tensor &a, const Tensor &b) {
  std::set<Element> seen(a.elements.begin(), a.elements.end());
  return std::any_of(b.elements.begin(), b.elements.end(),
                     [&](const Element &e) { return seen.count(e) != 0; });
}

} // namespace model

#endif // POPLAR_TESTS_GRAPH_TENSORMODEL_HPP
