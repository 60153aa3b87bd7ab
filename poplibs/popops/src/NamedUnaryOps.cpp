// The named unary element-wise operations: each is map() of one
// UnaryOpType, named for messages.
#include <popops/ElementWise.hpp>

#include "MapImpl.hpp"

using namespace poplar;
using popops::expr::UnaryOpType;

namespace popops {

Tensor abs(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "abs", UnaryOpType::ABSOLUTE, A, nullptr, prog,
                          debugContext, options);
}
void absInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "absInPlace", UnaryOpType::ABSOLUTE, A, &A, prog,
                   debugContext, options);
}
void absWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "absWithOutput", UnaryOpType::ABSOLUTE, A, &out, prog,
                   debugContext, options);
}

Tensor asin(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "asin", UnaryOpType::ASIN, A, nullptr, prog,
                          debugContext, options);
}
void asinInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "asinInPlace", UnaryOpType::ASIN, A, &A, prog,
                   debugContext, options);
}
void asinWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "asinWithOutput", UnaryOpType::ASIN, A, &out, prog,
                   debugContext, options);
}

Tensor bitwiseNot(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapUnary(graph, "bitwiseNot", UnaryOpType::BITWISE_NOT, A,
                          nullptr, prog, debugContext, options);
}
void bitwiseNotInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapUnary(graph, "bitwiseNotInPlace", UnaryOpType::BITWISE_NOT, A, &A,
                   prog, debugContext, options);
}
void bitwiseNotWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                          program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapUnary(graph, "bitwiseNotWithOutput", UnaryOpType::BITWISE_NOT, A,
                   &out, prog, debugContext, options);
}

Tensor cbrt(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "cbrt", UnaryOpType::CBRT, A, nullptr, prog,
                          debugContext, options);
}
void cbrtInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "cbrtInPlace", UnaryOpType::CBRT, A, &A, prog,
                   debugContext, options);
}
void cbrtWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "cbrtWithOutput", UnaryOpType::CBRT, A, &out, prog,
                   debugContext, options);
}

Tensor ceil(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "ceil", UnaryOpType::CEIL, A, nullptr, prog,
                          debugContext, options);
}
void ceilInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "ceilInPlace", UnaryOpType::CEIL, A, &A, prog,
                   debugContext, options);
}
void ceilWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "ceilWithOutput", UnaryOpType::CEIL, A, &out, prog,
                   debugContext, options);
}

Tensor cos(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "cos", UnaryOpType::COS, A, nullptr, prog,
                          debugContext, options);
}
void cosInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "cosInPlace", UnaryOpType::COS, A, &A, prog,
                   debugContext, options);
}
void cosWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "cosWithOutput", UnaryOpType::COS, A, &out, prog,
                   debugContext, options);
}

Tensor countLeadingZeros(Graph &graph, const Tensor &A, program::Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  return detail::mapUnary(graph, "countLeadingZeros",
                          UnaryOpType::COUNT_LEADING_ZEROS, A, nullptr, prog,
                          debugContext, options);
}
void countLeadingZerosInPlace(Graph &graph, const Tensor &A,
                              program::Sequence &prog,
                              const DebugContext &debugContext,
                              const OptionFlags &options) {
  detail::mapUnary(graph, "countLeadingZerosInPlace",
                   UnaryOpType::COUNT_LEADING_ZEROS, A, &A, prog, debugContext,
                   options);
}
void countLeadingZerosWithOutput(Graph &graph, const Tensor &A,
                                 const Tensor &out, program::Sequence &prog,
                                 const DebugContext &debugContext,
                                 const OptionFlags &options) {
  detail::mapUnary(graph, "countLeadingZerosWithOutput",
                   UnaryOpType::COUNT_LEADING_ZEROS, A, &out, prog,
                   debugContext, options);
}

Tensor erf(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "erf", UnaryOpType::ERF, A, nullptr, prog,
                          debugContext, options);
}
void erfInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "erfInPlace", UnaryOpType::ERF, A, &A, prog,
                   debugContext, options);
}
void erfWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "erfWithOutput", UnaryOpType::ERF, A, &out, prog,
                   debugContext, options);
}

Tensor exp(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "exp", UnaryOpType::EXPONENT, A, nullptr, prog,
                          debugContext, options);
}
void expInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "expInPlace", UnaryOpType::EXPONENT, A, &A, prog,
                   debugContext, options);
}
void expWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "expWithOutput", UnaryOpType::EXPONENT, A, &out, prog,
                   debugContext, options);
}

Tensor exp2(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "exp2", UnaryOpType::EXPONENT2, A, nullptr,
                          prog, debugContext, options);
}
void exp2InPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "exp2InPlace", UnaryOpType::EXPONENT2, A, &A, prog,
                   debugContext, options);
}
void exp2WithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "exp2WithOutput", UnaryOpType::EXPONENT2, A, &out,
                   prog, debugContext, options);
}

Tensor expm1(Graph &graph, const Tensor &A, program::Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "expm1", UnaryOpType::EXPONENT_MINUS_ONE, A,
                          nullptr, prog, debugContext, options);
}
void expm1InPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapUnary(graph, "expm1InPlace", UnaryOpType::EXPONENT_MINUS_ONE, A,
                   &A, prog, debugContext, options);
}
void expm1WithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                     program::Sequence &prog, const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "expm1WithOutput", UnaryOpType::EXPONENT_MINUS_ONE, A,
                   &out, prog, debugContext, options);
}

Tensor floor(Graph &graph, const Tensor &A, program::Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "floor", UnaryOpType::FLOOR, A, nullptr, prog,
                          debugContext, options);
}
void floorInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapUnary(graph, "floorInPlace", UnaryOpType::FLOOR, A, &A, prog,
                   debugContext, options);
}
void floorWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                     program::Sequence &prog, const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "floorWithOutput", UnaryOpType::FLOOR, A, &out, prog,
                   debugContext, options);
}

Tensor geluErf(Graph &graph, const Tensor &A, program::Sequence &prog,
               const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "geluErf", UnaryOpType::GELU_ERF, A, nullptr,
                          prog, debugContext, options);
}
void geluErfInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                    const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "geluErfInPlace", UnaryOpType::GELU_ERF, A, &A, prog,
                   debugContext, options);
}
void geluErfWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapUnary(graph, "geluErfWithOutput", UnaryOpType::GELU_ERF, A, &out,
                   prog, debugContext, options);
}

Tensor inv(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "inv", UnaryOpType::INVERSE, A, nullptr, prog,
                          debugContext, options);
}
void invInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "invInPlace", UnaryOpType::INVERSE, A, &A, prog,
                   debugContext, options);
}
void invWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "invWithOutput", UnaryOpType::INVERSE, A, &out, prog,
                   debugContext, options);
}

Tensor isFinite(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "isFinite", UnaryOpType::IS_FINITE, A, nullptr,
                          prog, debugContext, options);
}
void isFiniteWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                        program::Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  detail::mapUnary(graph, "isFiniteWithOutput", UnaryOpType::IS_FINITE, A, &out,
                   prog, debugContext, options);
}

Tensor log(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "log", UnaryOpType::LOGARITHM, A, nullptr,
                          prog, debugContext, options);
}
void logInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "logInPlace", UnaryOpType::LOGARITHM, A, &A, prog,
                   debugContext, options);
}
void logWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "logWithOutput", UnaryOpType::LOGARITHM, A, &out,
                   prog, debugContext, options);
}

Tensor log1p(Graph &graph, const Tensor &A, program::Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "log1p", UnaryOpType::LOGARITHM_ONE_PLUS, A,
                          nullptr, prog, debugContext, options);
}
void log1pInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapUnary(graph, "log1pInPlace", UnaryOpType::LOGARITHM_ONE_PLUS, A,
                   &A, prog, debugContext, options);
}
void log1pWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                     program::Sequence &prog, const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "log1pWithOutput", UnaryOpType::LOGARITHM_ONE_PLUS, A,
                   &out, prog, debugContext, options);
}

Tensor logicalNot(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapUnary(graph, "logicalNot", UnaryOpType::LOGICAL_NOT, A,
                          nullptr, prog, debugContext, options);
}
void logicalNotInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapUnary(graph, "logicalNotInPlace", UnaryOpType::LOGICAL_NOT, A, &A,
                   prog, debugContext, options);
}
void logicalNotWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                          program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapUnary(graph, "logicalNotWithOutput", UnaryOpType::LOGICAL_NOT, A,
                   &out, prog, debugContext, options);
}

Tensor nearbyint(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "nearbyint", UnaryOpType::NEARBY_INT, A,
                          nullptr, prog, debugContext, options);
}
void nearbyintInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                      const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapUnary(graph, "nearbyintInPlace", UnaryOpType::NEARBY_INT, A, &A,
                   prog, debugContext, options);
}
void nearbyintWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                         program::Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  detail::mapUnary(graph, "nearbyintWithOutput", UnaryOpType::NEARBY_INT, A,
                   &out, prog, debugContext, options);
}

Tensor neg(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "neg", UnaryOpType::NEGATE, A, nullptr, prog,
                          debugContext, options);
}
void negInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "negInPlace", UnaryOpType::NEGATE, A, &A, prog,
                   debugContext, options);
}
void negWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "negWithOutput", UnaryOpType::NEGATE, A, &out, prog,
                   debugContext, options);
}

Tensor popcount(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "popcount", UnaryOpType::POPCOUNT, A, nullptr,
                          prog, debugContext, options);
}
void popcountInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                     const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "popcountInPlace", UnaryOpType::POPCOUNT, A, &A, prog,
                   debugContext, options);
}
void popcountWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                        program::Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  detail::mapUnary(graph, "popcountWithOutput", UnaryOpType::POPCOUNT, A, &out,
                   prog, debugContext, options);
}

Tensor round(Graph &graph, const Tensor &A, program::Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "round", UnaryOpType::ROUND, A, nullptr, prog,
                          debugContext, options);
}
void roundInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapUnary(graph, "roundInPlace", UnaryOpType::ROUND, A, &A, prog,
                   debugContext, options);
}
void roundWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                     program::Sequence &prog, const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "roundWithOutput", UnaryOpType::ROUND, A, &out, prog,
                   debugContext, options);
}

Tensor rsqrt(Graph &graph, const Tensor &A, program::Sequence &prog,
             const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "rsqrt", UnaryOpType::RSQRT, A, nullptr, prog,
                          debugContext, options);
}
void rsqrtInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapUnary(graph, "rsqrtInPlace", UnaryOpType::RSQRT, A, &A, prog,
                   debugContext, options);
}
void rsqrtWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                     program::Sequence &prog, const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapUnary(graph, "rsqrtWithOutput", UnaryOpType::RSQRT, A, &out, prog,
                   debugContext, options);
}

Tensor sigmoid(Graph &graph, const Tensor &A, program::Sequence &prog,
               const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "sigmoid", UnaryOpType::SIGMOID, A, nullptr,
                          prog, debugContext, options);
}
void sigmoidInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                    const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "sigmoidInPlace", UnaryOpType::SIGMOID, A, &A, prog,
                   debugContext, options);
}
void sigmoidWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapUnary(graph, "sigmoidWithOutput", UnaryOpType::SIGMOID, A, &out,
                   prog, debugContext, options);
}

Tensor signum(Graph &graph, const Tensor &A, program::Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "signum", UnaryOpType::SIGNUM, A, nullptr,
                          prog, debugContext, options);
}
void signumInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "signumInPlace", UnaryOpType::SIGNUM, A, &A, prog,
                   debugContext, options);
}
void signumWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapUnary(graph, "signumWithOutput", UnaryOpType::SIGNUM, A, &out,
                   prog, debugContext, options);
}

Tensor sin(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "sin", UnaryOpType::SIN, A, nullptr, prog,
                          debugContext, options);
}
void sinInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "sinInPlace", UnaryOpType::SIN, A, &A, prog,
                   debugContext, options);
}
void sinWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "sinWithOutput", UnaryOpType::SIN, A, &out, prog,
                   debugContext, options);
}

Tensor sqrt(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "sqrt", UnaryOpType::SQRT, A, nullptr, prog,
                          debugContext, options);
}
void sqrtInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "sqrtInPlace", UnaryOpType::SQRT, A, &A, prog,
                   debugContext, options);
}
void sqrtWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "sqrtWithOutput", UnaryOpType::SQRT, A, &out, prog,
                   debugContext, options);
}

Tensor square(Graph &graph, const Tensor &A, program::Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "square", UnaryOpType::SQUARE, A, nullptr,
                          prog, debugContext, options);
}
void squareInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "squareInPlace", UnaryOpType::SQUARE, A, &A, prog,
                   debugContext, options);
}
void squareWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapUnary(graph, "squareWithOutput", UnaryOpType::SQUARE, A, &out,
                   prog, debugContext, options);
}

Tensor tan(Graph &graph, const Tensor &A, program::Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "tan", UnaryOpType::TAN, A, nullptr, prog,
                          debugContext, options);
}
void tanInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "tanInPlace", UnaryOpType::TAN, A, &A, prog,
                   debugContext, options);
}
void tanWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapUnary(graph, "tanWithOutput", UnaryOpType::TAN, A, &out, prog,
                   debugContext, options);
}

Tensor tanh(Graph &graph, const Tensor &A, program::Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  return detail::mapUnary(graph, "tanh", UnaryOpType::TANH, A, nullptr, prog,
                          debugContext, options);
}
void tanhInPlace(Graph &graph, const Tensor &A, program::Sequence &prog,
                 const DebugContext &debugContext, const OptionFlags &options) {
  detail::mapUnary(graph, "tanhInPlace", UnaryOpType::TANH, A, &A, prog,
                   debugContext, options);
}
void tanhWithOutput(Graph &graph, const Tensor &A, const Tensor &out,
                    program::Sequence &prog, const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapUnary(graph, "tanhWithOutput", UnaryOpType::TANH, A, &out, prog,
                   debugContext, options);
}

} // namespace popops
