// Random sequences of tensor-view calls (slice, reshape, dimShuffle,
// broadcast, concat, ...) with random arguments, each checked against the
// plain host model of poplar's tests (poplar/tests/graph/TensorModel.hpp):
// a view is its shape and the (variable, index) of each of its elements in
// row-major order. A call the model finds invalid
// must throw a poplar_error; a valid one must give the model's shape and
// elements, and the queries (aliases, contiguity, intersection, equality)
// must agree with the model.
#include <poplar/Graph.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

#include "TensorModel.hpp" // the tests' host model of views

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using Shape = model::Shape;
using Model = model::Tensor;
using Element = model::Element;

// Views larger than this are not made: the model lists every element.
constexpr std::size_t maxElements = 1 << 12;
constexpr std::size_t maxRank = 5;

[[noreturn]] void mismatch(const std::string &what) {
  std::fprintf(stderr, "tensor view mismatch: %s\n", what.c_str());
  std::abort();
}

// The element count of a shape; nullopt when the shape cannot be indexed:
// views index elements with signed 64-bit numbers, so the product of the
// non-zero dimensions must fit in one, even when a zero makes it empty.
std::optional<std::size_t> count(const Shape &shape) {
  std::size_t nonZero = 1;
  bool empty = false;
  for (std::size_t d : shape) {
    empty = empty || d == 0;
    if (d != 0 && (__builtin_mul_overflow(nonZero, d, &nonZero) ||
                   nonZero > std::size_t(INT64_MAX)))
      return std::nullopt;
  }
  return empty ? 0 : nonZero;
}

struct View {
  poplar::Tensor tensor;
  Model model;
};

class Session {
public:
  explicit Session(FuzzedDataProvider &in)
      : in(in), graph(poplar::Target::createCPUTarget()) {}

  void run() {
    addVariable();
    while (in.remaining_bytes() && views.size() < 64) {
      unsigned op = in.ConsumeIntegralInRange<unsigned>(0, 22);
      step(op);
    }
  }

private:
  FuzzedDataProvider &in;
  poplar::Graph graph;
  std::vector<View> views;
  std::map<std::size_t, std::size_t> varIds; // VariableRef id -> model var

  std::size_t smallDim() { return in.ConsumeIntegralInRange<std::size_t>(0, 6); }
  // Mostly in range, sometimes anything.
  std::size_t anyIndex(std::size_t bound) {
    if (in.ConsumeIntegralInRange<unsigned>(0, 7) == 0)
      return in.ConsumeIntegral<std::size_t>();
    return in.ConsumeIntegralInRange<std::size_t>(0, bound + 1);
  }
  unsigned anyDim(std::size_t rank) { return unsigned(anyIndex(rank)); }
  // A count or stride: mostly small, sometimes anything.
  unsigned anyFactor() {
    if (in.ConsumeIntegralInRange<unsigned>(0, 7) == 0)
      return in.ConsumeIntegral<unsigned>();
    return in.ConsumeIntegralInRange<unsigned>(0, 4);
  }
  View &pick() {
    return views[in.ConsumeIntegralInRange<std::size_t>(0, views.size() - 1)];
  }

  void addVariable() {
    Shape shape(in.ConsumeIntegralInRange<std::size_t>(0, 3));
    for (auto &d : shape)
      d = smallDim();
    poplar::Tensor t = graph.addVariable(poplar::FLOAT, shape, "v");
    const std::size_t var = varIds.size();
    const Model m = model::variable(var, shape);
    auto regions = t.getVarRegions();
    if (!regions.empty())
      varIds[regions[0].var.getId()] = var;
    else
      varIds[std::size_t(-1) - var] = var; // an empty variable: no storage
    check(t, m);
    views.push_back({t, m});
  }

  // Runs `call`; `expected` is the model's result, or nullopt when the
  // call is invalid and must throw.
  template <class Call>
  void attempt(const char *name, Call call, const std::optional<Model> &expected) {
    if (expected && expected->elements.size() > maxElements)
      return;
    std::optional<poplar::Tensor> got;
    try {
      got = call();
    } catch (const poplar::poplar_error &e) {
      if (expected)
        mismatch(std::string(name) + " threw for a valid call: " + e.what());
      return;
    }
    if (!expected)
      mismatch(std::string(name) + " accepted an invalid call, giving " +
               got->shapeToString());
    check(*got, *expected);
    views.push_back({*got, *expected});
  }

  void check(const poplar::Tensor &t, const Model &m) {
    if (t.shape() != m.shape)
      mismatch("shape " + t.shapeToString());
    if (t.numElements() != m.elements.size())
      mismatch("numElements");
    std::vector<Element> got;
    for (const auto &r : t.getVarRegions()) {
      auto var = varIds.find(r.var.getId());
      if (var == varIds.end())
        mismatch("a region of an unknown variable");
      for (std::size_t i = r.interval.begin(); i != r.interval.end(); ++i)
        got.push_back({var->second, i});
    }
    if (got != m.elements)
      mismatch("elements of " + t.shapeToString());
    if (t.containsAliases() != model::containsAliases(m))
      mismatch("containsAliases");
    bool contiguous = true;
    for (std::size_t i = 1; i < m.elements.size(); ++i)
      contiguous = contiguous && m.elements[i].var == m.elements[0].var &&
                   m.elements[i].index == m.elements[i - 1].index + 1;
    if (!m.elements.empty() && t.isContiguous() != contiguous)
      mismatch("isContiguous");
    std::size_t next = 0;
    for (const auto &r : t.getContiguousRegions()) {
      if (r.begin() != next || r.end() <= r.begin())
        mismatch("getContiguousRegions do not cover the tensor in order");
      for (std::size_t i = r.begin() + 1; i != r.end(); ++i)
        if (!(m.elements[i].var == m.elements[i - 1].var &&
              m.elements[i].index == m.elements[i - 1].index + 1))
          mismatch("a region of getContiguousRegions is not contiguous");
      next = r.end();
    }
    if (next != m.elements.size())
      mismatch("getContiguousRegions do not cover the tensor");
  }

  void compare(const View &a, const View &b) {
    if (a.tensor.intersectsWith(b.tensor) != model::intersects(a.model, b.model))
      mismatch("intersectsWith");
    bool same = a.model.shape == b.model.shape && a.model.elements == b.model.elements;
    if ((a.tensor == b.tensor) != same)
      mismatch("operator==");
  }

  std::vector<unsigned> permutation(std::size_t rank) {
    std::vector<unsigned> p(rank);
    for (unsigned i = 0; i != rank; ++i)
      p[i] = i;
    for (std::size_t i = rank; i > 1; --i)
      std::swap(p[i - 1], p[in.ConsumeIntegralInRange<std::size_t>(0, i - 1)]);
    if (rank && in.ConsumeIntegralInRange<unsigned>(0, 7) == 0)
      p[in.ConsumeIntegralInRange<std::size_t>(0, rank - 1)] = anyDim(rank);
    return p;
  }

  // A shape with as many elements as n, or (sometimes) any shape.
  Shape reshapeTarget(std::size_t n) {
    Shape s;
    std::size_t rest = n;
    std::size_t rank = in.ConsumeIntegralInRange<std::size_t>(0, maxRank);
    for (std::size_t d = 0; d + 1 < rank; ++d) {
      std::size_t f = in.ConsumeIntegralInRange<std::size_t>(1, 4);
      if (rest % f == 0) {
        s.push_back(f);
        rest /= f;
      } else {
        s.push_back(1);
      }
    }
    if (rank)
      s.push_back(rest);
    else if (n != 1)
      s.push_back(n);
    if (in.ConsumeIntegralInRange<unsigned>(0, 7) == 0 && !s.empty())
      s[0] = anyIndex(8);
    return s;
  }

  void step(unsigned op) {
    View &v = pick();
    const poplar::Tensor t = v.tensor;
    const Model m = v.model;
    const std::size_t rank = m.shape.size();
    auto dimOk = [&](std::size_t d) { return d < rank; };
    switch (op) {
    case 0: { // slice(begin, end, dim)
      unsigned d = anyDim(rank);
      std::size_t size = dimOk(d) ? m.shape[d] : 4;
      std::size_t b = anyIndex(size), e = anyIndex(size);
      std::optional<Model> r;
      if (dimOk(d) && b <= e && e <= size) {
        Shape lo(rank, 0), hi = m.shape;
        lo[d] = b;
        hi[d] = e;
        r = model::slice(m, lo, hi);
      }
      attempt("slice", [&] { return t.slice(b, e, d); }, r);
      break;
    }
    case 1: { // slice in every dimension
      std::size_t n = in.ConsumeIntegralInRange<unsigned>(0, 7)
                          ? rank
                          : in.ConsumeIntegralInRange<std::size_t>(0, rank + 2);
      Shape lo(n), hi(n);
      bool ok = n == rank;
      for (std::size_t d = 0; d != n; ++d) {
        std::size_t size = d < rank ? m.shape[d] : 2;
        lo[d] = anyIndex(size);
        hi[d] = anyIndex(size);
        ok = ok && lo[d] <= hi[d] && hi[d] <= size;
      }
      std::optional<Model> r;
      if (ok)
        r = model::slice(m, lo, hi);
      attempt("slice(begin, end)", [&] { return t.slice(lo, hi); }, r);
      break;
    }
    case 2: { // operator[]
      std::size_t i = anyIndex(rank ? m.shape[0] : 1);
      std::optional<Model> r;
      if (rank && i < m.shape[0]) {
        Shape lo(rank, 0), hi = m.shape;
        lo[0] = i;
        hi[0] = i + 1;
        r = model::slice(m, lo, hi);
        r->shape.erase(r->shape.begin());
      }
      attempt("operator[]", [&] { return t[i]; }, r);
      break;
    }
    case 3: { // reshape
      Shape s = reshapeTarget(m.elements.size());
      auto n = count(s);
      std::optional<Model> r;
      if (n && *n == m.elements.size())
        r = model::reshape(m, s);
      attempt("reshape", [&] { return t.reshape(s); }, r);
      break;
    }
    case 4: { // flatten(begin, end)
      unsigned b = anyDim(rank), e = anyDim(rank);
      std::optional<Model> r;
      if (b < e && e <= rank) {
        Shape s(m.shape.begin(), m.shape.begin() + b);
        std::size_t merged = 1;
        for (unsigned d = b; d != e; ++d)
          merged *= m.shape[d];
        s.push_back(merged);
        s.insert(s.end(), m.shape.begin() + e, m.shape.end());
        r = model::reshape(m, s);
      }
      attempt("flatten", [&] { return t.flatten(b, e); }, r);
      break;
    }
    case 5: { // expand
      std::vector<std::size_t> idx(in.ConsumeIntegralInRange<std::size_t>(0, 2));
      for (auto &i : idx)
        i = anyIndex(rank);
      std::optional<Model> r;
      auto sorted = idx;
      std::sort(sorted.begin(), sorted.end());
      if (sorted.empty() || sorted.back() <= rank) {
        Shape s;
        auto next = sorted.begin();
        for (std::size_t d = 0; d <= rank; ++d) {
          for (; next != sorted.end() && *next == d; ++next)
            s.push_back(1);
          if (d != rank)
            s.push_back(m.shape[d]);
        }
        if (s.size() > maxRank + 2)
          break;
        r = model::reshape(m, s);
      }
      attempt("expand", [&] { return t.expand(idx); }, r);
      break;
    }
    case 6: { // squeeze
      std::vector<std::size_t> idx;
      for (std::size_t d = 0; d != rank; ++d)
        if (m.shape[d] == 1 && in.ConsumeBool())
          idx.push_back(d);
      if (in.ConsumeIntegralInRange<unsigned>(0, 5) == 0)
        idx.push_back(anyIndex(rank));
      std::vector<bool> drop(rank, false);
      bool ok = true;
      for (auto d : idx) {
        ok = ok && d < rank && m.shape[d] == 1 && !drop[d];
        if (ok)
          drop[d] = true;
      }
      std::optional<Model> r;
      if (ok) {
        Shape s;
        for (std::size_t d = 0; d != rank; ++d)
          if (!drop[d])
            s.push_back(m.shape[d]);
        r = model::reshape(m, s);
      }
      attempt("squeeze", [&] { return t.squeeze(idx); }, r);
      break;
    }
    case 7: { // dimShuffle
      auto p = permutation(rank);
      std::vector<bool> seen(rank, false);
      bool ok = true;
      for (unsigned d : p) {
        ok = ok && d < rank && !seen[d];
        if (ok)
          seen[d] = true;
      }
      std::optional<Model> r;
      if (ok)
        r = model::dimShuffle(m, p);
      attempt("dimShuffle", [&] { return t.dimShuffle(p); }, r);
      break;
    }
    case 8: { // dimRoll
      unsigned a = anyDim(rank), b = anyDim(rank);
      std::optional<Model> r;
      if (a < rank && b < rank) {
        std::vector<unsigned> rest;
        for (unsigned d = 0; d != rank; ++d)
          if (d != a)
            rest.push_back(d);
        rest.insert(rest.begin() + b, a);
        r = model::dimShuffle(m, rest);
      }
      attempt("dimRoll", [&] { return t.dimRoll(a, b); }, r);
      break;
    }
    case 9: { // transpose
      std::optional<Model> r;
      if (rank == 2)
        r = model::dimShuffle(m, {1, 0});
      attempt("transpose", [&] { return t.transpose(); }, r);
      break;
    }
    case 10: { // broadcast
      unsigned n = anyFactor();
      unsigned d = anyDim(rank);
      std::optional<Model> r;
      if (d < rank) {
        const std::size_t size = m.shape[d];
        Shape s = m.shape;
        if (__builtin_mul_overflow(size, std::size_t(n), &s[d]) || !count(s)) {
          // Too many elements: an error, but only the library knows where
          // its limit is, so the call is not made.
          break;
        }
        if (*count(s) > maxElements)
          break;
        r = model::broadcast(m, n, d);
      }
      attempt("broadcast", [&] { return t.broadcast(n, d); }, r);
      break;
    }
    case 11: { // reverse
      unsigned d = anyDim(rank);
      std::optional<Model> r;
      if (d < rank)
        r = model::reverse(m, d);
      attempt("reverse", [&] { return t.reverse(d); }, r);
      break;
    }
    case 12: { // subSample
      unsigned s = anyFactor();
      unsigned d = anyDim(rank);
      std::optional<Model> r;
      if (d < rank && s != 0)
        r = model::subSample(m, s, d);
      attempt("subSample", [&] { return t.subSample(s, d); }, r);
      break;
    }
    case 13: { // upsample
      unsigned s = in.ConsumeIntegralInRange<unsigned>(0, 4);
      unsigned d = anyDim(rank);
      std::optional<Model> r;
      if (d < rank) {
        if (m.elements.size() * s > maxElements)
          break;
        r = model::upsample(m, s, d);
      }
      attempt("upsample", [&] { return t.upsample(s, d, poplar::UpsampleMethod::REPEAT); }, r);
      break;
    }
    case 14:
    case 15: { // concat of two or three views
      std::vector<const View *> parts{&v, &pick()};
      if (op == 15)
        parts.push_back(&pick());
      unsigned d = anyDim(rank);
      bool ok = d < rank;
      std::vector<poplar::Tensor> ts;
      std::vector<Model> ms;
      for (auto *p : parts) {
        ts.push_back(p->tensor);
        ms.push_back(p->model);
        ok = ok && p->model.shape.size() == rank;
        for (std::size_t k = 0; ok && k != rank; ++k)
          ok = k == d || p->model.shape[k] == m.shape[k];
      }
      if (ok) {
        // A joined shape that cannot be indexed (even an empty one) is an
        // error, as for broadcast.
        Shape joined = m.shape;
        joined[d] = 0;
        for (const Model &part : ms)
          ok = ok && !__builtin_add_overflow(joined[d], part.shape[d], &joined[d]);
        ok = ok && count(joined);
      }
      std::optional<Model> r;
      if (ok)
        r = model::concat(ms, d);
      attempt("concat", [&] { return poplar::concat(ts, d); }, r);
      break;
    }
    case 16: { // slices(intervals) joined
      unsigned d = anyDim(rank);
      std::size_t size = d < rank ? m.shape[d] : 3;
      std::vector<poplar::Interval> regions(in.ConsumeIntegralInRange<std::size_t>(1, 3));
      bool ok = d < rank;
      std::vector<Model> pieces;
      for (auto &region : regions) {
        std::size_t b = anyIndex(size), e = anyIndex(size);
        if (b > e)
          std::swap(b, e);
        region = poplar::Interval(b, e);
        ok = ok && e <= size;
        if (ok) {
          Shape lo(rank, 0), hi = m.shape;
          lo[d] = b;
          hi[d] = e;
          pieces.push_back(model::slice(m, lo, hi));
        }
      }
      std::optional<Model> r;
      if (ok)
        r = model::concat(pieces, d);
      attempt("slices", [&] {
        return t.slices(std::vector<std::vector<poplar::Interval>>{regions}, d)[0];
      }, r);
      break;
    }
    case 17: { // reshapePartial
      unsigned b = anyDim(rank), e = anyDim(rank);
      std::optional<Model> r;
      Shape dims;
      if (b <= e && e <= rank) {
        std::size_t n = 1;
        for (unsigned d = b; d != e; ++d)
          n *= m.shape[d];
        dims = reshapeTarget(n);
        Shape s(m.shape.begin(), m.shape.begin() + b);
        s.insert(s.end(), dims.begin(), dims.end());
        s.insert(s.end(), m.shape.begin() + e, m.shape.end());
        auto c = count(dims);
        if (c && *c == n && count(s))
          r = model::reshape(m, s);
      } else {
        dims = {anyIndex(4)};
      }
      attempt("reshapePartial", [&] { return t.reshapePartial(b, e, dims); }, r);
      break;
    }
    case 18: { // dimShufflePartial
      std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 2);
      std::vector<unsigned> src(n), dst(n);
      for (std::size_t i = 0; i != n; ++i) {
        src[i] = anyDim(rank);
        dst[i] = anyDim(rank);
      }
      bool ok = true;
      std::vector<bool> moved(rank, false), taken(rank, false);
      std::vector<unsigned> perm(rank, ~0u);
      for (std::size_t i = 0; ok && i != n; ++i) {
        ok = src[i] < rank && dst[i] < rank && !moved[src[i]] && !taken[dst[i]];
        if (ok) {
          moved[src[i]] = taken[dst[i]] = true;
          perm[dst[i]] = src[i];
        }
      }
      std::optional<Model> r;
      if (ok) {
        unsigned next = 0;
        for (auto &p : perm) {
          if (p != ~0u)
            continue;
          while (moved[next])
            ++next;
          p = next++;
        }
        r = model::dimShuffle(m, perm);
      }
      attempt("dimShufflePartial", [&] { return t.dimShufflePartial(src, dst); }, r);
      break;
    }
    case 19: // a new variable
      addVariable();
      break;
    case 20: { // append
      View &w = pick();
      unsigned d = anyDim(rank);
      bool ok = d < rank && w.model.shape.size() + 1 == rank;
      std::optional<Model> r;
      if (ok) {
        Model e = w.model;
        e.shape.insert(e.shape.begin() + d, 1);
        for (std::size_t k = 0; ok && k != rank; ++k)
          ok = k == d || e.shape[k] == m.shape[k];
        if (ok)
          r = model::concat({m, e}, d);
      }
      const poplar::Tensor u = w.tensor;
      attempt("append", [&] { return poplar::append(t, u, d); }, r);
      break;
    }
    case 21: { // index({...})
      std::vector<std::size_t> idx(in.ConsumeIntegralInRange<std::size_t>(0, 3));
      for (std::size_t k = 0; k != idx.size(); ++k)
        idx[k] = anyIndex(k < rank ? m.shape[k] : 1);
      std::optional<Model> r;
      bool ok = idx.size() <= rank;
      for (std::size_t k = 0; ok && k != idx.size(); ++k)
        ok = idx[k] < m.shape[k];
      if (ok) {
        Shape lo(rank, 0), hi = m.shape;
        for (std::size_t k = 0; k != idx.size(); ++k) {
          lo[k] = idx[k];
          hi[k] = idx[k] + 1;
        }
        r = model::slice(m, lo, hi);
        r->shape.erase(r->shape.begin(), r->shape.begin() + idx.size());
      }
      attempt("index", [&] { return t.index(idx); }, r);
      break;
    }
    default:
      compare(v, pick());
      break;
    }
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Session(in).run();
  return 0;
}
