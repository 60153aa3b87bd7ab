// The named binary element-wise operations: each is map() of one
// BinaryOpType, named for messages.
#include <popops/ElementWise.hpp>

#include "MapImpl.hpp"

using namespace poplar;
using popops::expr::BinaryOpType;

namespace popops {

Tensor add(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "add", BinaryOpType::ADD, A, B, nullptr, prog,
                           debugContext, options);
}
void addInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "addInPlace", BinaryOpType::ADD, A, B, &A, prog,
                    debugContext, options);
}
void addWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "addWithOutput", BinaryOpType::ADD, A, B, &out, prog,
                    debugContext, options);
}

Tensor atan2(Graph &graph, const Tensor &A, const Tensor &B,
             program::Sequence &prog, const DebugContext &debugContext,
             const OptionFlags &options) {
  return detail::mapBinary(graph, "atan2", BinaryOpType::ATAN2, A, B, nullptr,
                           prog, debugContext, options);
}
void atan2InPlace(Graph &graph, const Tensor &A, const Tensor &B,
                  program::Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapBinary(graph, "atan2InPlace", BinaryOpType::ATAN2, A, B, &A, prog,
                    debugContext, options);
}
void atan2WithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                     const Tensor &out, program::Sequence &prog,
                     const DebugContext &debugContext,
                     const OptionFlags &options) {
  detail::mapBinary(graph, "atan2WithOutput", BinaryOpType::ATAN2, A, B, &out,
                    prog, debugContext, options);
}

Tensor bitwiseAnd(Graph &graph, const Tensor &A, const Tensor &B,
                  program::Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapBinary(graph, "bitwiseAnd", BinaryOpType::BITWISE_AND, A, B,
                           nullptr, prog, debugContext, options);
}
void bitwiseAndInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseAndInPlace", BinaryOpType::BITWISE_AND, A, B,
                    &A, prog, debugContext, options);
}
void bitwiseAndWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                          const Tensor &out, program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseAndWithOutput", BinaryOpType::BITWISE_AND, A,
                    B, &out, prog, debugContext, options);
}

Tensor bitwiseOr(Graph &graph, const Tensor &A, const Tensor &B,
                 program::Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  return detail::mapBinary(graph, "bitwiseOr", BinaryOpType::BITWISE_OR, A, B,
                           nullptr, prog, debugContext, options);
}
void bitwiseOrInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseOrInPlace", BinaryOpType::BITWISE_OR, A, B,
                    &A, prog, debugContext, options);
}
void bitwiseOrWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                         const Tensor &out, program::Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseOrWithOutput", BinaryOpType::BITWISE_OR, A,
                    B, &out, prog, debugContext, options);
}

Tensor bitwiseXor(Graph &graph, const Tensor &A, const Tensor &B,
                  program::Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapBinary(graph, "bitwiseXor", BinaryOpType::BITWISE_XOR, A, B,
                           nullptr, prog, debugContext, options);
}
void bitwiseXorInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseXorInPlace", BinaryOpType::BITWISE_XOR, A, B,
                    &A, prog, debugContext, options);
}
void bitwiseXorWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                          const Tensor &out, program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseXorWithOutput", BinaryOpType::BITWISE_XOR, A,
                    B, &out, prog, debugContext, options);
}

Tensor bitwiseXnor(Graph &graph, const Tensor &A, const Tensor &B,
                   program::Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options) {
  return detail::mapBinary(graph, "bitwiseXnor", BinaryOpType::BITWISE_XNOR, A,
                           B, nullptr, prog, debugContext, options);
}
void bitwiseXnorInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                        program::Sequence &prog,
                        const DebugContext &debugContext,
                        const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseXnorInPlace", BinaryOpType::BITWISE_XNOR, A,
                    B, &A, prog, debugContext, options);
}
void bitwiseXnorWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                           const Tensor &out, program::Sequence &prog,
                           const DebugContext &debugContext,
                           const OptionFlags &options) {
  detail::mapBinary(graph, "bitwiseXnorWithOutput", BinaryOpType::BITWISE_XNOR,
                    A, B, &out, prog, debugContext, options);
}

Tensor div(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "div", BinaryOpType::DIVIDE, A, B, nullptr,
                           prog, debugContext, options);
}
void divInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "divInPlace", BinaryOpType::DIVIDE, A, B, &A, prog,
                    debugContext, options);
}
void divWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "divWithOutput", BinaryOpType::DIVIDE, A, B, &out,
                    prog, debugContext, options);
}

Tensor eq(Graph &graph, const Tensor &A, const Tensor &B,
          program::Sequence &prog, const DebugContext &debugContext,
          const OptionFlags &options) {
  return detail::mapBinary(graph, "eq", BinaryOpType::EQUAL, A, B, nullptr,
                           prog, debugContext, options);
}
void eqInPlace(Graph &graph, const Tensor &A, const Tensor &B,
               program::Sequence &prog, const DebugContext &debugContext,
               const OptionFlags &options) {
  detail::mapBinary(graph, "eqInPlace", BinaryOpType::EQUAL, A, B, &A, prog,
                    debugContext, options);
}
void eqWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                  const Tensor &out, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapBinary(graph, "eqWithOutput", BinaryOpType::EQUAL, A, B, &out,
                    prog, debugContext, options);
}

Tensor gt(Graph &graph, const Tensor &A, const Tensor &B,
          program::Sequence &prog, const DebugContext &debugContext,
          const OptionFlags &options) {
  return detail::mapBinary(graph, "gt", BinaryOpType::GREATER_THAN, A, B,
                           nullptr, prog, debugContext, options);
}
void gtInPlace(Graph &graph, const Tensor &A, const Tensor &B,
               program::Sequence &prog, const DebugContext &debugContext,
               const OptionFlags &options) {
  detail::mapBinary(graph, "gtInPlace", BinaryOpType::GREATER_THAN, A, B, &A,
                    prog, debugContext, options);
}
void gtWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                  const Tensor &out, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapBinary(graph, "gtWithOutput", BinaryOpType::GREATER_THAN, A, B,
                    &out, prog, debugContext, options);
}

Tensor gteq(Graph &graph, const Tensor &A, const Tensor &B,
            program::Sequence &prog, const DebugContext &debugContext,
            const OptionFlags &options) {
  return detail::mapBinary(graph, "gteq", BinaryOpType::GREATER_THAN_EQUAL, A,
                           B, nullptr, prog, debugContext, options);
}
void gteqInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                 program::Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  detail::mapBinary(graph, "gteqInPlace", BinaryOpType::GREATER_THAN_EQUAL, A,
                    B, &A, prog, debugContext, options);
}
void gteqWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                    const Tensor &out, program::Sequence &prog,
                    const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapBinary(graph, "gteqWithOutput", BinaryOpType::GREATER_THAN_EQUAL,
                    A, B, &out, prog, debugContext, options);
}

Tensor logicalAnd(Graph &graph, const Tensor &A, const Tensor &B,
                  program::Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapBinary(graph, "logicalAnd", BinaryOpType::LOGICAL_AND, A, B,
                           nullptr, prog, debugContext, options);
}
void logicalAndInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapBinary(graph, "logicalAndInPlace", BinaryOpType::LOGICAL_AND, A, B,
                    &A, prog, debugContext, options);
}
void logicalAndWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                          const Tensor &out, program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapBinary(graph, "logicalAndWithOutput", BinaryOpType::LOGICAL_AND, A,
                    B, &out, prog, debugContext, options);
}

Tensor logicalOr(Graph &graph, const Tensor &A, const Tensor &B,
                 program::Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  return detail::mapBinary(graph, "logicalOr", BinaryOpType::LOGICAL_OR, A, B,
                           nullptr, prog, debugContext, options);
}
void logicalOrInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapBinary(graph, "logicalOrInPlace", BinaryOpType::LOGICAL_OR, A, B,
                    &A, prog, debugContext, options);
}
void logicalOrWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                         const Tensor &out, program::Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  detail::mapBinary(graph, "logicalOrWithOutput", BinaryOpType::LOGICAL_OR, A,
                    B, &out, prog, debugContext, options);
}

Tensor lt(Graph &graph, const Tensor &A, const Tensor &B,
          program::Sequence &prog, const DebugContext &debugContext,
          const OptionFlags &options) {
  return detail::mapBinary(graph, "lt", BinaryOpType::LESS_THAN, A, B, nullptr,
                           prog, debugContext, options);
}
void ltInPlace(Graph &graph, const Tensor &A, const Tensor &B,
               program::Sequence &prog, const DebugContext &debugContext,
               const OptionFlags &options) {
  detail::mapBinary(graph, "ltInPlace", BinaryOpType::LESS_THAN, A, B, &A, prog,
                    debugContext, options);
}
void ltWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                  const Tensor &out, program::Sequence &prog,
                  const DebugContext &debugContext,
                  const OptionFlags &options) {
  detail::mapBinary(graph, "ltWithOutput", BinaryOpType::LESS_THAN, A, B, &out,
                    prog, debugContext, options);
}

Tensor lteq(Graph &graph, const Tensor &A, const Tensor &B,
            program::Sequence &prog, const DebugContext &debugContext,
            const OptionFlags &options) {
  return detail::mapBinary(graph, "lteq", BinaryOpType::LESS_THAN_EQUAL, A, B,
                           nullptr, prog, debugContext, options);
}
void lteqInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                 program::Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  detail::mapBinary(graph, "lteqInPlace", BinaryOpType::LESS_THAN_EQUAL, A, B,
                    &A, prog, debugContext, options);
}
void lteqWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                    const Tensor &out, program::Sequence &prog,
                    const DebugContext &debugContext,
                    const OptionFlags &options) {
  detail::mapBinary(graph, "lteqWithOutput", BinaryOpType::LESS_THAN_EQUAL, A,
                    B, &out, prog, debugContext, options);
}

Tensor max(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "max", BinaryOpType::MAXIMUM, A, B, nullptr,
                           prog, debugContext, options);
}
void maxInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "maxInPlace", BinaryOpType::MAXIMUM, A, B, &A, prog,
                    debugContext, options);
}
void maxWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "maxWithOutput", BinaryOpType::MAXIMUM, A, B, &out,
                    prog, debugContext, options);
}

Tensor min(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "min", BinaryOpType::MINIMUM, A, B, nullptr,
                           prog, debugContext, options);
}
void minInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "minInPlace", BinaryOpType::MINIMUM, A, B, &A, prog,
                    debugContext, options);
}
void minWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "minWithOutput", BinaryOpType::MINIMUM, A, B, &out,
                    prog, debugContext, options);
}

Tensor mul(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "mul", BinaryOpType::MULTIPLY, A, B, nullptr,
                           prog, debugContext, options);
}
void mulInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "mulInPlace", BinaryOpType::MULTIPLY, A, B, &A, prog,
                    debugContext, options);
}
void mulWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "mulWithOutput", BinaryOpType::MULTIPLY, A, B, &out,
                    prog, debugContext, options);
}

Tensor neq(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "neq", BinaryOpType::NOT_EQUAL, A, B, nullptr,
                           prog, debugContext, options);
}
void neqInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "neqInPlace", BinaryOpType::NOT_EQUAL, A, B, &A,
                    prog, debugContext, options);
}
void neqWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "neqWithOutput", BinaryOpType::NOT_EQUAL, A, B, &out,
                    prog, debugContext, options);
}

Tensor pow(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "pow", BinaryOpType::POWER, A, B, nullptr,
                           prog, debugContext, options);
}
void powInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "powInPlace", BinaryOpType::POWER, A, B, &A, prog,
                    debugContext, options);
}
void powWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "powWithOutput", BinaryOpType::POWER, A, B, &out,
                    prog, debugContext, options);
}

Tensor rem(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "rem", BinaryOpType::REMAINDER, A, B, nullptr,
                           prog, debugContext, options);
}
void remInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "remInPlace", BinaryOpType::REMAINDER, A, B, &A,
                    prog, debugContext, options);
}
void remWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "remWithOutput", BinaryOpType::REMAINDER, A, B, &out,
                    prog, debugContext, options);
}

Tensor shiftLeft(Graph &graph, const Tensor &A, const Tensor &B,
                 program::Sequence &prog, const DebugContext &debugContext,
                 const OptionFlags &options) {
  return detail::mapBinary(graph, "shiftLeft", BinaryOpType::SHIFT_LEFT, A, B,
                           nullptr, prog, debugContext, options);
}
void shiftLeftInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  detail::mapBinary(graph, "shiftLeftInPlace", BinaryOpType::SHIFT_LEFT, A, B,
                    &A, prog, debugContext, options);
}
void shiftLeftWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                         const Tensor &out, program::Sequence &prog,
                         const DebugContext &debugContext,
                         const OptionFlags &options) {
  detail::mapBinary(graph, "shiftLeftWithOutput", BinaryOpType::SHIFT_LEFT, A,
                    B, &out, prog, debugContext, options);
}

Tensor shiftRight(Graph &graph, const Tensor &A, const Tensor &B,
                  program::Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &options) {
  return detail::mapBinary(graph, "shiftRight", BinaryOpType::SHIFT_RIGHT, A, B,
                           nullptr, prog, debugContext, options);
}
void shiftRightInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                       program::Sequence &prog,
                       const DebugContext &debugContext,
                       const OptionFlags &options) {
  detail::mapBinary(graph, "shiftRightInPlace", BinaryOpType::SHIFT_RIGHT, A, B,
                    &A, prog, debugContext, options);
}
void shiftRightWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                          const Tensor &out, program::Sequence &prog,
                          const DebugContext &debugContext,
                          const OptionFlags &options) {
  detail::mapBinary(graph, "shiftRightWithOutput", BinaryOpType::SHIFT_RIGHT, A,
                    B, &out, prog, debugContext, options);
}

Tensor shiftRightSignExtend(Graph &graph, const Tensor &A, const Tensor &B,
                            program::Sequence &prog,
                            const DebugContext &debugContext,
                            const OptionFlags &options) {
  return detail::mapBinary(graph, "shiftRightSignExtend",
                           BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND, A, B, nullptr,
                           prog, debugContext, options);
}
void shiftRightSignExtendInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                                 program::Sequence &prog,
                                 const DebugContext &debugContext,
                                 const OptionFlags &options) {
  detail::mapBinary(graph, "shiftRightSignExtendInPlace",
                    BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND, A, B, &A, prog,
                    debugContext, options);
}
void shiftRightSignExtendWithOutput(Graph &graph, const Tensor &A,
                                    const Tensor &B, const Tensor &out,
                                    program::Sequence &prog,
                                    const DebugContext &debugContext,
                                    const OptionFlags &options) {
  detail::mapBinary(graph, "shiftRightSignExtendWithOutput",
                    BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND, A, B, &out, prog,
                    debugContext, options);
}

Tensor sub(Graph &graph, const Tensor &A, const Tensor &B,
           program::Sequence &prog, const DebugContext &debugContext,
           const OptionFlags &options) {
  return detail::mapBinary(graph, "sub", BinaryOpType::SUBTRACT, A, B, nullptr,
                           prog, debugContext, options);
}
void subInPlace(Graph &graph, const Tensor &A, const Tensor &B,
                program::Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options) {
  detail::mapBinary(graph, "subInPlace", BinaryOpType::SUBTRACT, A, B, &A, prog,
                    debugContext, options);
}
void subWithOutput(Graph &graph, const Tensor &A, const Tensor &B,
                   const Tensor &out, program::Sequence &prog,
                   const DebugContext &debugContext,
                   const OptionFlags &options) {
  detail::mapBinary(graph, "subWithOutput", BinaryOpType::SUBTRACT, A, B, &out,
                    prog, debugContext, options);
}

} // namespace popops
