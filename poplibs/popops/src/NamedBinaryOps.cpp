// The named binary element-wise operations: each is map() of one
// BinaryOpType in three forms (a new tensor, in place into A, into an
// output), named for messages.
#include <popops/ElementWise.hpp>

#include "MapImpl.hpp"

using namespace poplar;
using popops::expr::BinaryOpType;

namespace popops {

#define POPOPS_BINARY(NAME, OP)                                                \
  Tensor NAME(Graph &graph, const Tensor &A, const Tensor &B,                  \
              program::Sequence &prog, const DebugContext &debugContext,       \
              const OptionFlags &options) {                                    \
    return detail::mapBinary(graph, #NAME, BinaryOpType::OP, A, B, nullptr,    \
                             prog, debugContext, options);                     \
  }                                                                            \
  void NAME##InPlace(Graph &graph, const Tensor &A, const Tensor &B,           \
                     program::Sequence &prog,                                  \
                     const DebugContext &debugContext,                         \
                     const OptionFlags &options) {                             \
    detail::mapBinary(graph, #NAME "InPlace", BinaryOpType::OP, A, B, &A,      \
                      prog, debugContext, options);                            \
  }                                                                            \
  void NAME##WithOutput(Graph &graph, const Tensor &A, const Tensor &B,        \
                        const Tensor &out, program::Sequence &prog,            \
                        const DebugContext &debugContext,                      \
                        const OptionFlags &options) {                          \
    detail::mapBinary(graph, #NAME "WithOutput", BinaryOpType::OP, A, B,       \
                      &out, prog, debugContext, options);                      \
  }

POPOPS_BINARY(add, ADD)
POPOPS_BINARY(atan2, ATAN2)
POPOPS_BINARY(bitwiseAnd, BITWISE_AND)
POPOPS_BINARY(bitwiseOr, BITWISE_OR)
POPOPS_BINARY(bitwiseXor, BITWISE_XOR)
POPOPS_BINARY(bitwiseXnor, BITWISE_XNOR)
POPOPS_BINARY(div, DIVIDE)
POPOPS_BINARY(eq, EQUAL)
POPOPS_BINARY(gt, GREATER_THAN)
POPOPS_BINARY(gteq, GREATER_THAN_EQUAL)
POPOPS_BINARY(logicalAnd, LOGICAL_AND)
POPOPS_BINARY(logicalOr, LOGICAL_OR)
POPOPS_BINARY(lt, LESS_THAN)
POPOPS_BINARY(lteq, LESS_THAN_EQUAL)
POPOPS_BINARY(max, MAXIMUM)
POPOPS_BINARY(min, MINIMUM)
POPOPS_BINARY(mul, MULTIPLY)
POPOPS_BINARY(neq, NOT_EQUAL)
POPOPS_BINARY(pow, POWER)
POPOPS_BINARY(rem, REMAINDER)
POPOPS_BINARY(shiftLeft, SHIFT_LEFT)
POPOPS_BINARY(shiftRight, SHIFT_RIGHT)
POPOPS_BINARY(shiftRightSignExtend, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_BINARY(sub, SUBTRACT)

#undef POPOPS_BINARY

} // namespace popops
