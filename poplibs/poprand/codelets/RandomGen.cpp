// poprand's vertices. Each generator fills a list of regions of its
// output; firstIndex[r] is the index (in the output's row-major order) of
// region r's first element, so every element's numbers depend only on the
// generator state and that index (Philox.hpp), never on which tile or
// worker computes it. All are MultiVertexes whose workers each take a
// consecutive slice of every region.
#include "Philox.hpp"

#include <poplar/Vertex.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace poprand {
namespace {

using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// The state from the 4 words of a state tensor.
philox::State readState(const Input<Vector<unsigned>> &s) {
  return philox::State{s[0], s[1], s[2], s[3]};
}

/// Calls f(index, element) for the elements worker `wid` owns.
template <class T, class F>
void forEachElement(Vector<Output<Vector<T>>> &out,
                    const Vector<unsigned> &firstIndex, unsigned wid,
                    unsigned numWorkers, F f) {
  for (unsigned r = 0; r != out.size(); ++r) {
    const std::uint64_t n = out[r].size();
    const auto begin = static_cast<unsigned>(n * wid / numWorkers);
    const auto end = static_cast<unsigned>(n * (wid + 1) / numWorkers);
    // Counting from 0 over a rebased pointer lets the compiler vectorise
    // the generator across elements.
    T *y = out[r].data() + begin;
    const unsigned first = firstIndex[r] + begin, count = end - begin;
    for (unsigned i = 0; i != count; ++i)
      f(first + i, y[i]);
  }
}

} // namespace

/// minVal + scale * u, u uniform in [0, 1) (24-bit resolution).
template <class T> class Uniform : public poplar::MultiVertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  float minVal;
  float scale;

  void compute(unsigned wid) {
    // Fields copied to locals: a store to the output could alias them.
    const philox::State s = readState(state);
    const float lo = minVal, width = scale;
    forEachElement(out, firstIndex, wid, numWorkers(), [=](unsigned i, T &y) {
      const float u = philox::uniform01(philox::draw(s, i, 0).w[0]);
      y = T(lo + width * u);
    });
  }
};
template class Uniform<float>;
template class Uniform<half>;

/// minVal + floor(w * range / 2^32) for a 32-bit word w: [minVal, minVal +
/// range), uniform when range is a power of 2.
class UniformInt : public poplar::MultiVertex {
public:
  Vector<Output<Vector<int>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  int minVal;
  unsigned long long range; // 1 to 2^32

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    const auto lo = static_cast<std::uint32_t>(minVal);
    const std::uint64_t n = range;
    forEachElement(out, firstIndex, wid, numWorkers(), [=](unsigned i, int &y) {
      const std::uint64_t w = philox::draw(s, i, 0).w[0];
      y = static_cast<int>(lo + static_cast<std::uint32_t>((w * n) >> 32));
    });
  }
};

/// 1 with probability threshold / 2^32, else 0.
template <class T> class Bernoulli : public poplar::MultiVertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  unsigned long long threshold; // 0 to 2^32

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    const std::uint64_t t = threshold;
    forEachElement(out, firstIndex, wid, numWorkers(), [=](unsigned i, T &y) {
      const std::uint64_t w = philox::draw(s, i, 0).w[0];
      y = w < t ? T(1) : T(0);
    });
  }
};
template class Bernoulli<float>;
template class Bernoulli<half>;
template class Bernoulli<int>;

/// mean + stdDev * z, z standard normal (Box-Muller on two words).
template <class T> class Normal : public poplar::MultiVertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  float mean;
  float stdDev;

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    const double mu = double(mean), sigma = double(stdDev);
    forEachElement(out, firstIndex, wid, numWorkers(), [=](unsigned i, T &y) {
      const philox::Block b = philox::draw(s, i, 0);
      double z0, z1;
      philox::boxMuller(b.w[0], b.w[1], z0, z1);
      y = T(static_cast<float>(mu + sigma * z0));
    });
  }
};
template class Normal<float>;
template class Normal<half>;

/// mean + stdDev * z, z standard normal truncated to [-alpha, alpha].
template <class T> class TruncatedNormal : public poplar::MultiVertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  float mean;
  float stdDev;
  float alpha;

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    const double mu = double(mean), sigma = double(stdDev), a = double(alpha);
    forEachElement(out, firstIndex, wid, numWorkers(), [=](unsigned i, T &y) {
      const double z = philox::truncatedStandardNormal(s, i, a);
      y = T(static_cast<float>(mu + sigma * z));
    });
  }
};
template class TruncatedNormal<float>;
template class TruncatedNormal<half>;

/// exp(logMin + (logMax - logMin) * u), clamped to [lo, hi] (the interval's
/// ends representable in T); integers round to nearest first.
template <class T> class LogUniform : public poplar::MultiVertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  float logMin;
  float logMax;
  float lo;
  float hi;

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    forEachElement(out, firstIndex, wid, numWorkers(), [&](unsigned i, T &y) {
      const double u =
          static_cast<double>(philox::draw(s, i, 0).w[0]) / 4294967296.0;
      double x =
          std::exp(double(logMin) + (double(logMax) - double(logMin)) * u);
      if constexpr (std::is_integral_v<T>) {
        x = std::fmin(std::fmax(std::nearbyint(x), double(lo)), double(hi));
        y = T(x);
      } else {
        y = T(std::fmin(std::fmax(static_cast<float>(x), lo), hi));
      }
    });
  }
};
template class LogUniform<float>;
template class LogUniform<half>;
template class LogUniform<int>;

/// out = in * scale where the element is kept (probability threshold /
/// 2^32), 0 elsewhere. `in` has the same regions as `out`.
template <class T> class Dropout : public poplar::MultiVertex {
public:
  Vector<Input<Vector<T>>> in;
  Vector<Output<Vector<T>>> out;
  Vector<unsigned> firstIndex;
  Input<Vector<unsigned>> state;
  unsigned long long threshold;
  float scale;

  void compute(unsigned wid) {
    const philox::State s = readState(state);
    const std::uint64_t t = threshold;
    const float factor = scale;
    for (unsigned r = 0; r != out.size(); ++r) {
      const std::uint64_t n = out[r].size();
      const auto begin = static_cast<unsigned>(n * wid / numWorkers());
      const auto end = static_cast<unsigned>(n * (wid + 1) / numWorkers());
      const T *x = in[r].data() + begin;
      T *y = out[r].data() + begin;
      const unsigned first = firstIndex[r] + begin, count = end - begin;
      for (unsigned i = 0; i != count; ++i) {
        const std::uint64_t w = philox::draw(s, first + i, 0).w[0];
        y[i] = w < t ? T(float(x[i]) * factor) : T(0);
      }
    }
  }
};
template class Dropout<float>;
template class Dropout<half>;

/// The state a seed (2 words) and a seed modifier select.
class SetSeed : public poplar::Vertex {
public:
  Input<Vector<unsigned>> seed;
  Output<Vector<unsigned>> state;
  unsigned seedModifier;

  void compute() {
    const philox::State s =
        philox::stateFromSeed(seed[0], seed[1], seedModifier);
    state[0] = s.key0;
    state[1] = s.key1;
    state[2] = s.counterLo;
    state[3] = s.counterHi;
  }
};

/// The state after a generation call: the same key, the 64-bit counter
/// plus one.
class NextState : public poplar::Vertex {
public:
  Input<Vector<unsigned>> state;
  Output<Vector<unsigned>> next;

  void compute() {
    const std::uint64_t counter =
        ((std::uint64_t(state[3]) << 32) | state[2]) + 1;
    next[0] = state[0];
    next[1] = state[1];
    next[2] = static_cast<std::uint32_t>(counter);
    next[3] = static_cast<std::uint32_t>(counter >> 32);
  }
};

} // namespace poprand
