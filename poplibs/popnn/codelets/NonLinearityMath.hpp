// What each element-wise non-linearity and its derivative compute for one
// element, in float (HALF elements are computed in float and rounded
// once), and how a MultiVertex shares a region between its workers.
#ifndef POPNN_CODELETS_NONLINEARITYMATH_HPP
#define POPNN_CODELETS_NONLINEARITYMATH_HPP

#include <popnn/NonLinearityDef.hpp>

#include <cmath>
#include <cstdint>

namespace popnn {
namespace codelet {

/// Elements [begin, end) of a region of n elements that worker `wid` of
/// `numWorkers` processes: consecutive pieces, as even as possible. The
/// cycle estimators (src/CycleEstimates.cpp) assume this split.
struct Range {
  unsigned begin;
  unsigned end;
};
inline Range workerRange(unsigned n, unsigned wid, unsigned numWorkers) {
  return {static_cast<unsigned>(std::uint64_t(n) * wid / numWorkers),
          static_cast<unsigned>(std::uint64_t(n) * (wid + 1) / numWorkers)};
}

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// The tanh approximation of the normal distribution's CDF GELU uses:
// Phi(x) ~ 0.5 * (1 + tanh(alpha * (x + beta * x^3))).
constexpr float geluAlpha = 0.7978845608f; // sqrt(2 / pi)
constexpr float geluBeta = 0.044715f;
constexpr float invSqrt2 = 0.70710678118654752f;
constexpr float invSqrt2Pi = 0.39894228040143268f;

template <NonLinearityType nl> float apply(float x) {
  if constexpr (nl == NonLinearityType::SIGMOID) {
    return sigmoid(x);
  } else if constexpr (nl == NonLinearityType::HARD_SIGMOID) {
    return std::fmin(1.0f, std::fmax(0.0f, 0.2f * x + 0.5f));
  } else if constexpr (nl == NonLinearityType::RELU) {
    return x > 0.0f ? x : 0.0f;
  } else if constexpr (nl == NonLinearityType::TANH) {
    return std::tanh(x);
  } else if constexpr (nl == NonLinearityType::GELU) {
    return 0.5f * x *
           (1.0f + std::tanh(geluAlpha * x * (1.0f + geluBeta * x * x)));
  } else if constexpr (nl == NonLinearityType::GELU_ERF) {
    return 0.5f * x * (1.0f + std::erf(x * invSqrt2));
  } else {
    static_assert(nl == NonLinearityType::SWISH, "no element-wise form");
    return x * sigmoid(x);
  }
}

/// d f / d x, from the output y = f(x) for SIGMOID, RELU and TANH and
/// from the input x for the others.
template <NonLinearityType nl> float derivative(float a) {
  if constexpr (nl == NonLinearityType::SIGMOID) {
    return a * (1.0f - a);
  } else if constexpr (nl == NonLinearityType::HARD_SIGMOID) {
    return (a > -2.5f && a < 2.5f) ? 0.2f : 0.0f;
  } else if constexpr (nl == NonLinearityType::RELU) {
    return a > 0.0f ? 1.0f : 0.0f;
  } else if constexpr (nl == NonLinearityType::TANH) {
    return 1.0f - a * a;
  } else if constexpr (nl == NonLinearityType::GELU) {
    const float t = std::tanh(geluAlpha * a * (1.0f + geluBeta * a * a));
    return 0.5f * (1.0f + t) + 0.5f * a * (1.0f - t * t) * geluAlpha *
                                   (1.0f + 3.0f * geluBeta * a * a);
  } else if constexpr (nl == NonLinearityType::GELU_ERF) {
    return 0.5f * (1.0f + std::erf(a * invSqrt2)) +
           a * invSqrt2Pi * std::exp(-0.5f * a * a);
  } else {
    static_assert(nl == NonLinearityType::SWISH, "no element-wise form");
    const float s = sigmoid(a);
    return s * (1.0f + a * (1.0f - s));
  }
}

} // namespace codelet
} // namespace popnn

#endif // POPNN_CODELETS_NONLINEARITYMATH_HPP
