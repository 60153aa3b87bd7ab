// The named binary element-wise operations: bitwise operations and shifts
// (included by popops/ElementWise.hpp). Each is map() of one
// expr::BinaryOpType, with NumPy broadcasting of A and B. The forms with a C++
// number for A or B make it a constant of the type of the other operand; its
// C++ type must be that type's (float or double for FLOAT and HALF), see
// checkTypes. See codelets/ElementwiseOps.hpp in the sources for what each
// operation computes for each element type.
#ifndef POPOPS_ELEMENTWISEBITWISE_HPP
#define POPOPS_ELEMENTWISEBITWISE_HPP

#include <popops/ElementWise.hpp>

namespace popops {

// bitwiseAnd: A & B (BinaryOpType::BITWISE_AND).
POPOPS_API poplar::Tensor
bitwiseAnd(poplar::Graph &graph, const poplar::Tensor &A,
           const poplar::Tensor &B, poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseAnd(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return bitwiseAnd(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseAnd", debugContext), prog,
      debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseAnd(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return bitwiseAnd(
      graph, detail::constantOperand(graph, B, A, "bitwiseAnd", debugContext),
      B, prog, debugContext, options);
}
POPOPS_API void bitwiseAndInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &B,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseAndInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                       const constType B, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  bitwiseAndInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseAndInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
bitwiseAndWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseAndWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  bitwiseAndWithOutput(graph, A,
                       detail::constantOperand(
                           graph, A, B, "bitwiseAndWithOutput", debugContext),
                       out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseAndWithOutput(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  bitwiseAndWithOutput(graph,
                       detail::constantOperand(
                           graph, B, A, "bitwiseAndWithOutput", debugContext),
                       B, out, prog, debugContext, options);
}

// bitwiseOr: A | B (BinaryOpType::BITWISE_OR).
POPOPS_API poplar::Tensor
bitwiseOr(poplar::Graph &graph, const poplar::Tensor &A,
          const poplar::Tensor &B, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseOr(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return bitwiseOr(
      graph, A, detail::constantOperand(graph, A, B, "bitwiseOr", debugContext),
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseOr(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return bitwiseOr(
      graph, detail::constantOperand(graph, B, A, "bitwiseOr", debugContext), B,
      prog, debugContext, options);
}
POPOPS_API void bitwiseOrInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseOrInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                      const constType B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}) {
  bitwiseOrInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseOrInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
bitwiseOrWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const poplar::Tensor &B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseOrWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  bitwiseOrWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseOrWithOutput", debugContext),
      out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseOrWithOutput(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  bitwiseOrWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "bitwiseOrWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// bitwiseXor: A ^ B (BinaryOpType::BITWISE_XOR).
POPOPS_API poplar::Tensor
bitwiseXor(poplar::Graph &graph, const poplar::Tensor &A,
           const poplar::Tensor &B, poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseXor(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return bitwiseXor(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseXor", debugContext), prog,
      debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseXor(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return bitwiseXor(
      graph, detail::constantOperand(graph, B, A, "bitwiseXor", debugContext),
      B, prog, debugContext, options);
}
POPOPS_API void bitwiseXorInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &B,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXorInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                       const constType B, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  bitwiseXorInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseXorInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
bitwiseXorWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXorWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  bitwiseXorWithOutput(graph, A,
                       detail::constantOperand(
                           graph, A, B, "bitwiseXorWithOutput", debugContext),
                       out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXorWithOutput(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  bitwiseXorWithOutput(graph,
                       detail::constantOperand(
                           graph, B, A, "bitwiseXorWithOutput", debugContext),
                       B, out, prog, debugContext, options);
}

// bitwiseXnor: ~(A ^ B) (BinaryOpType::BITWISE_XNOR).
POPOPS_API poplar::Tensor
bitwiseXnor(poplar::Graph &graph, const poplar::Tensor &A,
            const poplar::Tensor &B, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext = {},
            const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseXnor(poplar::Graph &graph, const poplar::Tensor &A,
                           const constType B, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}) {
  return bitwiseXnor(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseXnor", debugContext), prog,
      debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor bitwiseXnor(poplar::Graph &graph, const constType A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}) {
  return bitwiseXnor(
      graph, detail::constantOperand(graph, B, A, "bitwiseXnor", debugContext),
      B, prog, debugContext, options);
}
POPOPS_API void
bitwiseXnorInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXnorInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                        const constType B, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {}) {
  bitwiseXnorInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "bitwiseXnorInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
bitwiseXnorWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                      const poplar::Tensor &B, const poplar::Tensor &out,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXnorWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                           const constType B, const poplar::Tensor &out,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}) {
  bitwiseXnorWithOutput(graph, A,
                        detail::constantOperand(
                            graph, A, B, "bitwiseXnorWithOutput", debugContext),
                        out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void bitwiseXnorWithOutput(poplar::Graph &graph, const constType A,
                           const poplar::Tensor &B, const poplar::Tensor &out,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}) {
  bitwiseXnorWithOutput(graph,
                        detail::constantOperand(
                            graph, B, A, "bitwiseXnorWithOutput", debugContext),
                        B, out, prog, debugContext, options);
}

// shiftLeft: A << B (BinaryOpType::SHIFT_LEFT).
POPOPS_API poplar::Tensor
shiftLeft(poplar::Graph &graph, const poplar::Tensor &A,
          const poplar::Tensor &B, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor shiftLeft(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return shiftLeft(
      graph, A, detail::constantOperand(graph, A, B, "shiftLeft", debugContext),
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor shiftLeft(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return shiftLeft(
      graph, detail::constantOperand(graph, B, A, "shiftLeft", debugContext), B,
      prog, debugContext, options);
}
POPOPS_API void shiftLeftInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftLeftInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                      const constType B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}) {
  shiftLeftInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftLeftInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
shiftLeftWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const poplar::Tensor &B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftLeftWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  shiftLeftWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftLeftWithOutput", debugContext),
      out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void shiftLeftWithOutput(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  shiftLeftWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "shiftLeftWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// shiftRight: A >> B, shifting in zeros (BinaryOpType::SHIFT_RIGHT).
POPOPS_API poplar::Tensor
shiftRight(poplar::Graph &graph, const poplar::Tensor &A,
           const poplar::Tensor &B, poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor shiftRight(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return shiftRight(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftRight", debugContext), prog,
      debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor shiftRight(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return shiftRight(
      graph, detail::constantOperand(graph, B, A, "shiftRight", debugContext),
      B, prog, debugContext, options);
}
POPOPS_API void shiftRightInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &B,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                       const constType B, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  shiftRightInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftRightInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
shiftRightWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  shiftRightWithOutput(graph, A,
                       detail::constantOperand(
                           graph, A, B, "shiftRightWithOutput", debugContext),
                       out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightWithOutput(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  shiftRightWithOutput(graph,
                       detail::constantOperand(
                           graph, B, A, "shiftRightWithOutput", debugContext),
                       B, out, prog, debugContext, options);
}

// shiftRightSignExtend: A >> B, shifting in the sign bit
// (BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND).
POPOPS_API poplar::Tensor
shiftRightSignExtend(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor
shiftRightSignExtend(poplar::Graph &graph, const poplar::Tensor &A,
                     const constType B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  return shiftRightSignExtend(graph, A,
                              detail::constantOperand(graph, A, B,
                                                      "shiftRightSignExtend",
                                                      debugContext),
                              prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor
shiftRightSignExtend(poplar::Graph &graph, const constType A,
                     const poplar::Tensor &B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  return shiftRightSignExtend(graph,
                              detail::constantOperand(graph, B, A,
                                                      "shiftRightSignExtend",
                                                      debugContext),
                              B, prog, debugContext, options);
}
POPOPS_API void
shiftRightSignExtendInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            const poplar::Tensor &B,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightSignExtendInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                 const constType B,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}) {
  shiftRightSignExtendInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftRightSignExtendInPlace",
                              debugContext),
      prog, debugContext, options);
}
POPOPS_API void shiftRightSignExtendWithOutput(
    poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
    const poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightSignExtendWithOutput(
    poplar::Graph &graph, const poplar::Tensor &A, const constType B,
    const poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {}) {
  shiftRightSignExtendWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "shiftRightSignExtendWithOutput",
                              debugContext),
      out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void shiftRightSignExtendWithOutput(
    poplar::Graph &graph, const constType A, const poplar::Tensor &B,
    const poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {}) {
  shiftRightSignExtendWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "shiftRightSignExtendWithOutput",
                              debugContext),
      B, out, prog, debugContext, options);
}

} // namespace popops

#endif // POPOPS_ELEMENTWISEBITWISE_HPP
