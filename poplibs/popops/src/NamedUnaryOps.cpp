// The named unary element-wise operations: each is map() of one
// UnaryOpType in three forms (a new tensor, in place, into an output),
// named for messages.
#include <popops/ElementWise.hpp>

#include "MapImpl.hpp"

using namespace poplar;
using popops::expr::UnaryOpType;

namespace popops {

#define POPOPS_UNARY_NEW(NAME, OP)                                             \
  Tensor NAME(Graph &graph, const Tensor &A, program::Sequence &prog,          \
              const DebugContext &debugContext, const OptionFlags &options) {  \
    return detail::mapUnary(graph, #NAME, UnaryOpType::OP, A, nullptr, prog,   \
                            debugContext, options);                            \
  }
#define POPOPS_UNARY_IN_PLACE(NAME, OP)                                        \
  void NAME##InPlace(Graph &graph, const Tensor &A, program::Sequence &prog,   \
                     const DebugContext &debugContext,                         \
                     const OptionFlags &options) {                             \
    detail::mapUnary(graph, #NAME "InPlace", UnaryOpType::OP, A, &A, prog,     \
                     debugContext, options);                                   \
  }
#define POPOPS_UNARY_WITH_OUTPUT(NAME, OP)                                     \
  void NAME##WithOutput(Graph &graph, const Tensor &A, const Tensor &out,      \
                        program::Sequence &prog,                               \
                        const DebugContext &debugContext,                      \
                        const OptionFlags &options) {                          \
    detail::mapUnary(graph, #NAME "WithOutput", UnaryOpType::OP, A, &out,      \
                     prog, debugContext, options);                             \
  }
#define POPOPS_UNARY(NAME, OP)                                                 \
  POPOPS_UNARY_NEW(NAME, OP)                                                   \
  POPOPS_UNARY_IN_PLACE(NAME, OP)                                              \
  POPOPS_UNARY_WITH_OUTPUT(NAME, OP)

POPOPS_UNARY(abs, ABSOLUTE)
POPOPS_UNARY(asin, ASIN)
POPOPS_UNARY(bitwiseNot, BITWISE_NOT)
POPOPS_UNARY(cbrt, CBRT)
POPOPS_UNARY(ceil, CEIL)
POPOPS_UNARY(cos, COS)
POPOPS_UNARY(countLeadingZeros, COUNT_LEADING_ZEROS)
POPOPS_UNARY(erf, ERF)
POPOPS_UNARY(exp, EXPONENT)
POPOPS_UNARY(exp2, EXPONENT2)
POPOPS_UNARY(expm1, EXPONENT_MINUS_ONE)
POPOPS_UNARY(floor, FLOOR)
POPOPS_UNARY(geluErf, GELU_ERF)
POPOPS_UNARY(inv, INVERSE)
// isFinite has no in-place form: its result is BOOL.
POPOPS_UNARY_NEW(isFinite, IS_FINITE)
POPOPS_UNARY_WITH_OUTPUT(isFinite, IS_FINITE)
POPOPS_UNARY(log, LOGARITHM)
POPOPS_UNARY(log1p, LOGARITHM_ONE_PLUS)
POPOPS_UNARY(logicalNot, LOGICAL_NOT)
POPOPS_UNARY(nearbyint, NEARBY_INT)
POPOPS_UNARY(neg, NEGATE)
POPOPS_UNARY(popcount, POPCOUNT)
POPOPS_UNARY(round, ROUND)
POPOPS_UNARY(rsqrt, RSQRT)
POPOPS_UNARY(sigmoid, SIGMOID)
POPOPS_UNARY(signum, SIGNUM)
POPOPS_UNARY(sin, SIN)
POPOPS_UNARY(sqrt, SQRT)
POPOPS_UNARY(square, SQUARE)
POPOPS_UNARY(tan, TAN)
POPOPS_UNARY(tanh, TANH)

#undef POPOPS_UNARY
#undef POPOPS_UNARY_WITH_OUTPUT
#undef POPOPS_UNARY_IN_PLACE
#undef POPOPS_UNARY_NEW

} // namespace popops
