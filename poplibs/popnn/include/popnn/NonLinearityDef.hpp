// The non-linearities popnn applies (popnn/NonLinearity.hpp). This header
// is also compiled into popnn's codelets, whose vertices take the type as
// a template argument, so it includes nothing.
#ifndef POPNN_NONLINEARITYDEF_HPP
#define POPNN_NONLINEARITYDEF_HPP

namespace popnn {

enum class NonLinearityType {
  /// y = 1 / (1 + exp(-x))
  SIGMOID,
  /// y = max(0, min(1, 0.2 * x + 0.5))
  HARD_SIGMOID,
  /// y = max(x, 0)
  RELU,
  /// y = tanh(x)
  TANH,
  /// y = x * Phi(x), Phi(x) approximated by
  /// 0.5 * (1 + tanh(0.7978845608 * (x + 0.044715 * x^3)))
  GELU,
  /// y = x * Phi(x), Phi(x) = 0.5 * (1 + erf(x / sqrt(2)))
  GELU_ERF,
  /// y = x * sigmoid(x)
  SWISH,
  /// softmax over the innermost dimension
  SOFTMAX,
  /// softmax over the innermost dimension, the maximum subtracted first
  SOFTMAX_STABLE,
  /// SOFTMAX_STABLE with the outputs scaled by a constant, for a greater
  /// dynamic range in HALF (nonLinearity's nonLinearityScaling gives it)
  SOFTMAX_SCALED
};

} // namespace popnn

#endif // POPNN_NONLINEARITYDEF_HPP
