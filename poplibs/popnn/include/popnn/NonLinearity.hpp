// Non-linearities and their gradients.
//
// The element-wise types work on tensors of any shape; the softmax types
// work over the innermost dimension, the outer ones being independent.
// FLOAT and HALF only.
#ifndef POPNN_NONLINEARITY_HPP
#define POPNN_NONLINEARITY_HPP

#include <popnn/NonLinearityDef.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// t = f(t). The ComputeSet form adds the vertices to cs (not for the
/// softmax types, which need several compute sets).
POPNN_API void nonLinearityInPlace(poplar::Graph &graph,
                                   NonLinearityType nonLinearityType,
                                   poplar::Tensor t,
                                   poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {});
POPNN_API void nonLinearityInPlace(poplar::Graph &graph,
                                   NonLinearityType nonLinearityType,
                                   poplar::Tensor t, poplar::ComputeSet &cs,
                                   const poplar::DebugContext &debugContext = {});
/// As above; nonLinearityScaling is set to the factor the outputs carry
/// (SOFTMAX_SCALED's scale, 1 for every other type).
POPNN_API void nonLinearityInPlace(poplar::Graph &graph,
                                   NonLinearityType nonLinearityType,
                                   poplar::Tensor t, float &nonLinearityScaling,
                                   poplar::program::Sequence &prog,
                                   const poplar::DebugContext &debugContext = {});
POPNN_API void nonLinearityInPlace(poplar::Graph &graph,
                                   NonLinearityType nonLinearityType,
                                   poplar::Tensor t, poplar::ComputeSet &cs,
                                   float &nonLinearityScaling,
                                   const poplar::DebugContext &debugContext = {});

/// f(t) as a new tensor mapped like t.
POPNN_API poplar::Tensor nonLinearity(poplar::Graph &graph,
                                      NonLinearityType nonLinearityType,
                                      poplar::Tensor t,
                                      poplar::program::Sequence &prog,
                                      const poplar::DebugContext &debugContext = {});
POPNN_API poplar::Tensor nonLinearity(poplar::Graph &graph,
                                      NonLinearityType nonLinearityType,
                                      poplar::Tensor t, float &nonLinearityScaling,
                                      poplar::program::Sequence &prog,
                                      const poplar::DebugContext &debugContext = {});

/// The gradient with respect to the input of the non-linearity, given the
/// gradient with respect to its output. `act` is the non-linearity's
/// output for SIGMOID, RELU, TANH and the softmax types, and its input for
/// HARD_SIGMOID, GELU, GELU_ERF and SWISH (whose derivatives are functions
/// of the input). The ComputeSet form is not available for softmax.
POPNN_API poplar::Tensor
nonLinearityInputGradient(poplar::Graph &graph,
                          NonLinearityType nonLinearityType, poplar::Tensor act,
                          poplar::Tensor outGradient, poplar::ComputeSet &cs,
                          const poplar::DebugContext &debugContext = {});
POPNN_API poplar::Tensor
nonLinearityInputGradient(poplar::Graph &graph,
                          NonLinearityType nonLinearityType, poplar::Tensor act,
                          poplar::Tensor outGradient,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

// Shorthands for each type.
#define POPNN_NONLINEARITY_SHORTHAND(fn, type)                                 \
  inline void fn##InPlace(poplar::Graph &graph, poplar::Tensor t,              \
                          poplar::program::Sequence &prog,                     \
                          const poplar::DebugContext &debugContext = {}) {     \
    nonLinearityInPlace(graph, type, t, prog, debugContext);                   \
  }                                                                            \
  inline poplar::Tensor fn(poplar::Graph &graph, poplar::Tensor t,             \
                           poplar::program::Sequence &prog,                    \
                           const poplar::DebugContext &debugContext = {}) {    \
    return nonLinearity(graph, type, t, prog, debugContext);                   \
  }
POPNN_NONLINEARITY_SHORTHAND(sigmoid, NonLinearityType::SIGMOID)
POPNN_NONLINEARITY_SHORTHAND(hardSigmoid, NonLinearityType::HARD_SIGMOID)
POPNN_NONLINEARITY_SHORTHAND(relu, NonLinearityType::RELU)
POPNN_NONLINEARITY_SHORTHAND(tanh, NonLinearityType::TANH)
POPNN_NONLINEARITY_SHORTHAND(gelu, NonLinearityType::GELU)
POPNN_NONLINEARITY_SHORTHAND(geluErf, NonLinearityType::GELU_ERF)
POPNN_NONLINEARITY_SHORTHAND(swish, NonLinearityType::SWISH)
POPNN_NONLINEARITY_SHORTHAND(softmax, NonLinearityType::SOFTMAX)
POPNN_NONLINEARITY_SHORTHAND(softmaxStable, NonLinearityType::SOFTMAX_STABLE)
POPNN_NONLINEARITY_SHORTHAND(scaledSoftmaxStable,
                             NonLinearityType::SOFTMAX_SCALED)
#undef POPNN_NONLINEARITY_SHORTHAND

} // namespace popnn

#endif // POPNN_NONLINEARITY_HPP
