// Random chains of tensor views for tests: every operation is applied both
// to a real Tensor and to its element model (TensorModel.hpp), so the two
// can be compared after each step.
#ifndef POPLAR_TESTS_GRAPH_RANDOMVIEWCHAINS_HPP
#define POPLAR_TESTS_GRAPH_RANDOMVIEWCHAINS_HPP

#include "TensorModel.hpp"

#include "graph/TensorImpl.hpp"

#include <poplar/Tensor.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace viewtest {

using poplar::Interval;
using poplar::Tensor;

constexpr std::uint64_t graphId = 3;

// A tensor under test and the model of what it should be.
struct Pair {
  Tensor real;
  model::Tensor expected;
};

inline Pair variable(std::size_t id, const model::Shape &shape) {
  return {poplar::layout::makeVariable(graphId, id, poplar::FLOAT, shape, false,
                                       "v" + std::to_string(id)),
          model::variable(id, shape)};
}

class ChainBuilder {
public:
  explicit ChainBuilder(unsigned seed) : rng(seed) {}

  std::size_t pick(std::size_t lo, std::size_t hi) { // inclusive
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  }

  model::Shape randomShape(std::size_t minRank, std::size_t maxRank) {
    model::Shape shape(pick(minRank, maxRank));
    for (std::size_t &d : shape)
      d = pick(0, 19) == 0 ? 0 : pick(1, 4);
    return shape;
  }

  // A shape of rank 1-4 with exactly n elements.
  model::Shape shapeWithCount(std::size_t n) {
    model::Shape shape(pick(1, 4), 1);
    if (n == 0) {
      for (std::size_t &d : shape)
        d = pick(0, 3);
      shape[pick(0, shape.size() - 1)] = 0;
      return shape;
    }
    for (std::size_t f = 2; n > 1; ++f)
      for (; n % f == 0; n /= f)
        shape[pick(0, shape.size() - 1)] *= f;
    return shape;
  }

  Pair freshVariable(const model::Shape &shape) {
    return variable(nextVar++, shape);
  }

  // Another operand for concat/append: a new variable, or a part of `t`
  // (perhaps reversed along some dimension) so that the result aliases.
  Pair partner(const Pair &t, std::size_t dim) {
    const model::Shape &shape = t.expected.shape;
    const std::size_t choice = pick(0, 2);
    if (choice != 0 && shape[dim] > 0) {
      Pair source = t;
      if (choice == 2) {
        const std::size_t r = pick(0, shape.size() - 1);
        source = {t.real.reverse(unsigned(r)), model::reverse(t.expected, r)};
      }
      const std::size_t b = pick(0, shape[dim] - 1),
                        e = pick(b + 1, shape[dim]);
      return {source.real.slice(b, e, unsigned(dim)),
              model::slice(source.expected, b, e, dim)};
    }
    model::Shape fresh = shape;
    fresh[dim] = pick(0, 4);
    Pair result = freshVariable(fresh);
    result.real = result.real.reinterpret(t.real.elementType());
    return result;
  }

  // An operation number, reshapes and concatenations being the likeliest
  // because they make the most varied layouts.
  std::size_t pickOperation() {
    static const std::vector<double> weights{2, 2, 2, 2, 1, 6, 1, 3, 1, 1, 1,
                                             2, 2, 1, 5, 2, 1, 1, 1, 3, 1, 2};
    return std::discrete_distribution<std::size_t>(weights.begin(),
                                                   weights.end())(rng);
  }

  Pair applyRandomOp(const Pair &in) {
    const Tensor &t = in.real;
    const model::Tensor &m = in.expected;
    const std::size_t rank = m.shape.size();
    const bool mayGrow = m.elements.size() <= 1500;
    for (;;) {
      const std::size_t dim = rank == 0 ? 0 : pick(0, rank - 1);
      switch (pickOperation()) {
      case 0: {
        if (rank == 0)
          break;
        const std::size_t b = pick(0, m.shape[dim]), e = pick(b, m.shape[dim]);
        return {t.slice(b, e, unsigned(dim)), model::slice(m, b, e, dim)};
      }
      case 1: {
        model::Shape lo(rank), hi(rank);
        for (std::size_t d = 0; d != rank; ++d) {
          lo[d] = pick(0, m.shape[d]);
          hi[d] = pick(lo[d], m.shape[d]);
        }
        return {t.slice(lo, hi), model::slice(m, lo, hi)};
      }
      case 2: {
        if (rank == 0 || m.shape[0] == 0)
          break;
        const std::size_t i = pick(0, m.shape[0] - 1);
        return {t[i], model::index(m, i)};
      }
      case 3: {
        std::vector<unsigned> perm(rank);
        std::iota(perm.begin(), perm.end(), 0u);
        std::shuffle(perm.begin(), perm.end(), rng);
        return {t.dimShuffle(perm), model::dimShuffle(m, perm)};
      }
      case 4:
        if (rank != 2)
          break;
        return {t.transpose(), model::dimShuffle(m, {1, 0})};
      case 5: {
        const model::Shape shape = shapeWithCount(m.elements.size());
        return {t.reshape(shape), model::reshape(m, shape)};
      }
      case 6:
        return {t.flatten(), model::reshape(m, {m.elements.size()})};
      case 7: {
        if (rank == 0)
          break;
        const unsigned b = unsigned(pick(0, rank - 1)),
                       e = unsigned(pick(b + 1, rank));
        model::Shape shape(m.shape.begin(), m.shape.begin() + b);
        shape.push_back(model::count(
            model::Shape(m.shape.begin() + b, m.shape.begin() + e)));
        shape.insert(shape.end(), m.shape.begin() + e, m.shape.end());
        return {t.flatten(b, e), model::reshape(m, shape)};
      }
      case 8: {
        std::vector<std::size_t> indices(pick(1, 2));
        for (std::size_t &i : indices)
          i = pick(0, rank);
        model::Shape shape;
        for (std::size_t d = 0; d <= rank; ++d) {
          shape.insert(shape.end(),
                       std::count(indices.begin(), indices.end(), d), 1);
          if (d != rank)
            shape.push_back(m.shape[d]);
        }
        return {t.expand(indices), model::reshape(m, shape)};
      }
      case 9: {
        std::vector<std::size_t> ones;
        model::Shape shape;
        for (std::size_t d = 0; d != rank; ++d) {
          if (m.shape[d] == 1 && pick(0, 1) == 0)
            ones.push_back(d);
          else
            shape.push_back(m.shape[d]);
        }
        return {t.squeeze(ones), model::reshape(m, shape)};
      }
      case 10: {
        if (rank == 0 || !mayGrow)
          break;
        const unsigned n = unsigned(pick(0, 3));
        return {t.broadcast(n, unsigned(dim)), model::broadcast(m, n, dim)};
      }
      case 11:
        if (rank == 0)
          break;
        return {t.reverse(unsigned(dim)), model::reverse(m, dim)};
      case 12: {
        if (rank == 0)
          break;
        const unsigned s = unsigned(pick(1, 3));
        return {t.subSample(s, unsigned(dim)), model::subSample(m, s, dim)};
      }
      case 13: {
        if (rank == 0 || !mayGrow)
          break;
        const unsigned s = unsigned(pick(0, 3));
        return {t.upsample(s, unsigned(dim)), model::upsample(m, s, dim)};
      }
      case 14: {
        if (rank == 0 || !mayGrow)
          break;
        std::vector<Pair> parts{in, partner(in, dim)};
        if (pick(0, 1) == 0)
          parts.push_back(partner(in, dim));
        std::shuffle(parts.begin(), parts.end(), rng);
        std::vector<Tensor> reals;
        std::vector<model::Tensor> models;
        for (const Pair &p : parts) {
          reals.push_back(p.real);
          models.push_back(p.expected);
        }
        return {concat(reals, unsigned(dim)), model::concat(models, dim)};
      }
      case 15: {
        if (rank == 0 || !mayGrow)
          break;
        Pair extra = partner(in, dim);
        if (extra.expected.shape[dim] > 1)
          extra = {extra.real.slice(0, 1, unsigned(dim)),
                   model::slice(extra.expected, 0, 1, dim)};
        if (extra.expected.shape[dim] != 1) {
          model::Shape shape = m.shape;
          shape[dim] = 1;
          extra = freshVariable(shape);
          extra.real = extra.real.reinterpret(t.elementType());
        }
        const Tensor row = extra.real.squeeze({dim});
        return {append(t, row, unsigned(dim)),
                model::concat({m, extra.expected}, dim)};
      }
      case 16:
        return {t.reinterpret(t.elementType() == poplar::FLOAT ? poplar::INT
                                                               : poplar::FLOAT),
                m};
      case 17: {
        if (rank == 0)
          break;
        const unsigned to = unsigned(pick(0, rank - 1));
        std::vector<unsigned> perm;
        for (unsigned d = 0; d != rank; ++d)
          if (d != dim)
            perm.push_back(d);
        perm.insert(perm.begin() + to, unsigned(dim));
        return {t.dimRoll(unsigned(dim), to), model::dimShuffle(m, perm)};
      }
      case 18: {
        if (rank < 2)
          break;
        std::vector<unsigned> dims(rank);
        std::iota(dims.begin(), dims.end(), 0u);
        std::shuffle(dims.begin(), dims.end(), rng);
        std::vector<unsigned> src(dims.begin(), dims.begin() + 2);
        std::shuffle(dims.begin(), dims.end(), rng);
        std::vector<unsigned> dst(dims.begin(), dims.begin() + 2);
        std::vector<unsigned> perm(rank, rank);
        for (std::size_t i = 0; i != 2; ++i)
          perm[dst[i]] = src[i];
        unsigned next = 0;
        for (unsigned &p : perm) {
          if (p != rank)
            continue;
          while (std::find(src.begin(), src.end(), next) != src.end())
            ++next;
          p = next++;
        }
        return {t.dimShufflePartial(src, dst), model::dimShuffle(m, perm)};
      }
      case 19: {
        const unsigned b = unsigned(pick(0, rank)), e = unsigned(pick(b, rank));
        const model::Shape part = shapeWithCount(model::count(
            model::Shape(m.shape.begin() + b, m.shape.begin() + e)));
        model::Shape shape(m.shape.begin(), m.shape.begin() + b);
        shape.insert(shape.end(), part.begin(), part.end());
        shape.insert(shape.end(), m.shape.begin() + e, m.shape.end());
        return {t.reshapePartial(b, e, part), model::reshape(m, shape)};
      }
      case 20: {
        if (rank < 2 || m.shape[0] == 0 || m.shape[1] == 0)
          break;
        const std::size_t a = pick(0, m.shape[0] - 1),
                          b = pick(0, m.shape[1] - 1);
        return {t.index({a, b}), model::index(model::index(m, a), b)};
      }
      case 21: {
        if (rank == 0 || m.shape[dim] == 0 || !mayGrow)
          break;
        std::vector<Interval> regions(pick(1, 3));
        std::vector<model::Tensor> parts;
        for (Interval &r : regions) {
          const std::size_t b = pick(0, m.shape[dim]);
          r = Interval(b, pick(b, m.shape[dim]));
          parts.push_back(model::slice(m, r.begin(), r.end(), dim));
        }
        return {t.slices(std::vector<std::vector<Interval>>{regions},
                         unsigned(dim))[0],
                model::concat(parts, dim)};
      }
      }
    }
  }

private:
  std::mt19937 rng;
  std::size_t nextVar = 0;
};

} // namespace viewtest

#endif // POPLAR_TESTS_GRAPH_RANDOMVIEWCHAINS_HPP
