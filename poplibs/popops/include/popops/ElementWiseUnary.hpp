// The named unary element-wise operations (included by
// popops/ElementWise.hpp). Each is map() of one expr::UnaryOpType; see
// codelets/ElementwiseOps.hpp in the sources for what each computes for
// each element type.
#ifndef POPOPS_ELEMENTWISEUNARY_HPP
#define POPOPS_ELEMENTWISEUNARY_HPP

#include <popops/ElementWise.hpp>

namespace popops {

// abs: |a| (UnaryOpType::ABSOLUTE).
POPOPS_API poplar::Tensor abs(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void absInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void absWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// asin: arcsine of a (UnaryOpType::ASIN).
POPOPS_API poplar::Tensor asin(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void asinInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void asinWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

// bitwiseNot: ~a (UnaryOpType::BITWISE_NOT).
POPOPS_API poplar::Tensor
bitwiseNot(poplar::Graph &graph, const poplar::Tensor &A,
           poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
POPOPS_API void bitwiseNotInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
POPOPS_API void
bitwiseNotWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &out, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});

// cbrt: cube root of a (UnaryOpType::CBRT).
POPOPS_API poplar::Tensor cbrt(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void cbrtInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void cbrtWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

// ceil: smallest integral value not less than a (UnaryOpType::CEIL).
POPOPS_API poplar::Tensor ceil(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void ceilInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void ceilWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

// cos: cosine of a (UnaryOpType::COS).
POPOPS_API poplar::Tensor cos(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void cosInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void cosWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// countLeadingZeros: leading zero bits of a (32 for 0)
// (UnaryOpType::COUNT_LEADING_ZEROS).
POPOPS_API poplar::Tensor
countLeadingZeros(poplar::Graph &graph, const poplar::Tensor &A,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {});
POPOPS_API void
countLeadingZerosInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {});
POPOPS_API void
countLeadingZerosWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                            const poplar::Tensor &out,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});

// erf: error function of a (UnaryOpType::ERF).
POPOPS_API poplar::Tensor erf(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void erfInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void erfWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// exp: e^a (UnaryOpType::EXPONENT).
POPOPS_API poplar::Tensor exp(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void expInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void expWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// exp2: 2^a (UnaryOpType::EXPONENT2).
POPOPS_API poplar::Tensor exp2(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void exp2InPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void exp2WithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

// expm1: e^a - 1 (UnaryOpType::EXPONENT_MINUS_ONE).
POPOPS_API poplar::Tensor expm1(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void expm1InPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void expm1WithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});

// floor: largest integral value not greater than a (UnaryOpType::FLOOR).
POPOPS_API poplar::Tensor floor(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void floorInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void floorWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});

// geluErf: a * (1 + erf(a / sqrt(2))) / 2 (UnaryOpType::GELU_ERF).
POPOPS_API poplar::Tensor geluErf(poplar::Graph &graph, const poplar::Tensor &A,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
POPOPS_API void geluErfInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void geluErfWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &out,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});

// inv: 1 / a (UnaryOpType::INVERSE).
POPOPS_API poplar::Tensor inv(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void invInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void invWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// isFinite: whether a is finite (BOOL) (UnaryOpType::IS_FINITE).
POPOPS_API poplar::Tensor
isFinite(poplar::Graph &graph, const poplar::Tensor &A,
         poplar::program::Sequence &prog,
         const poplar::DebugContext &debugContext = {},
         const poplar::OptionFlags &options = {});
POPOPS_API void
isFiniteWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const poplar::Tensor &out, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

// log: natural logarithm of a (UnaryOpType::LOGARITHM).
POPOPS_API poplar::Tensor log(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void logInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void logWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// log1p: log(1 + a) (UnaryOpType::LOGARITHM_ONE_PLUS).
POPOPS_API poplar::Tensor log1p(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void log1pInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void log1pWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});

// logicalNot: !a (BOOL) (UnaryOpType::LOGICAL_NOT).
POPOPS_API poplar::Tensor
logicalNot(poplar::Graph &graph, const poplar::Tensor &A,
           poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
POPOPS_API void logicalNotInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
POPOPS_API void
logicalNotWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &out, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});

// nearbyint: a rounded to the nearest integer, ties to even
// (UnaryOpType::NEARBY_INT).
POPOPS_API poplar::Tensor
nearbyint(poplar::Graph &graph, const poplar::Tensor &A,
          poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          const poplar::OptionFlags &options = {});
POPOPS_API void nearbyintInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API void
nearbyintWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const poplar::Tensor &out, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {});

// neg: -a (UnaryOpType::NEGATE).
POPOPS_API poplar::Tensor neg(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void negInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void negWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// popcount: number of bits set in a (UnaryOpType::POPCOUNT).
POPOPS_API poplar::Tensor
popcount(poplar::Graph &graph, const poplar::Tensor &A,
         poplar::program::Sequence &prog,
         const poplar::DebugContext &debugContext = {},
         const poplar::OptionFlags &options = {});
POPOPS_API void popcountInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void
popcountWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const poplar::Tensor &out, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

// round: a rounded to the nearest integer, ties away from zero
// (UnaryOpType::ROUND).
POPOPS_API poplar::Tensor round(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void roundInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void roundWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});

// rsqrt: 1 / sqrt(a) (UnaryOpType::RSQRT).
POPOPS_API poplar::Tensor rsqrt(poplar::Graph &graph, const poplar::Tensor &A,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void rsqrtInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void rsqrtWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});

// sigmoid: 1 / (1 + e^-a) (UnaryOpType::SIGMOID).
POPOPS_API poplar::Tensor sigmoid(poplar::Graph &graph, const poplar::Tensor &A,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
POPOPS_API void sigmoidInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void sigmoidWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &out,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});

// signum: -1, 0 or 1 as a is negative, zero or positive (UnaryOpType::SIGNUM).
POPOPS_API poplar::Tensor signum(poplar::Graph &graph, const poplar::Tensor &A,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API void signumInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void signumWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &out,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

// sin: sine of a (UnaryOpType::SIN).
POPOPS_API poplar::Tensor sin(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void sinInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void sinWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// sqrt: square root of a (UnaryOpType::SQRT).
POPOPS_API poplar::Tensor sqrt(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void sqrtInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void sqrtWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

// square: a * a (UnaryOpType::SQUARE).
POPOPS_API poplar::Tensor square(poplar::Graph &graph, const poplar::Tensor &A,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API void squareInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void squareWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &out,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

// tan: tangent of a (UnaryOpType::TAN).
POPOPS_API poplar::Tensor tan(poplar::Graph &graph, const poplar::Tensor &A,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void tanInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void tanWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

// tanh: hyperbolic tangent of a (UnaryOpType::TANH).
POPOPS_API poplar::Tensor tanh(poplar::Graph &graph, const poplar::Tensor &A,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
POPOPS_API void tanhInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
POPOPS_API void tanhWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});

} // namespace popops

#endif // POPOPS_ELEMENTWISEUNARY_HPP
