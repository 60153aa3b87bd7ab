// The named binary element-wise operations: comparisons and logic (included by
// popops/ElementWise.hpp). Each is map() of one expr::BinaryOpType, with
// NumPy broadcasting of A and B. The forms with a C++ number for A or B
// make it a constant of the type of the other operand; its C++ type must
// be that type's (float or double for FLOAT and HALF), see checkTypes.
// See codelets/ElementwiseOps.hpp in the sources for what each operation
// computes for each element type.
#ifndef POPOPS_ELEMENTWISECOMPARISON_HPP
#define POPOPS_ELEMENTWISECOMPARISON_HPP

#include <popops/ElementWise.hpp>

namespace popops {

// eq: A == B (BOOL) (BinaryOpType::EQUAL).
POPOPS_API poplar::Tensor eq(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor eq(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return eq(graph, A, detail::constantOperand(graph, A, B, "eq", debugContext),
            prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor eq(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return eq(graph, detail::constantOperand(graph, B, A, "eq", debugContext), B,
            prog, debugContext, options);
}
POPOPS_API void eqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void eqInPlace(poplar::Graph &graph, const poplar::Tensor &A, const constType B,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {}) {
  eqInPlace(graph, A,
            detail::constantOperand(graph, A, B, "eqInPlace", debugContext),
            prog, debugContext, options);
}
POPOPS_API void eqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B, const poplar::Tensor &out,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void eqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  eqWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "eqWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void eqWithOutput(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  eqWithOutput(
      graph, detail::constantOperand(graph, B, A, "eqWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// gt: A > B (BOOL) (BinaryOpType::GREATER_THAN).
POPOPS_API poplar::Tensor gt(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor gt(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return gt(graph, A, detail::constantOperand(graph, A, B, "gt", debugContext),
            prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor gt(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return gt(graph, detail::constantOperand(graph, B, A, "gt", debugContext), B,
            prog, debugContext, options);
}
POPOPS_API void gtInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void gtInPlace(poplar::Graph &graph, const poplar::Tensor &A, const constType B,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {}) {
  gtInPlace(graph, A,
            detail::constantOperand(graph, A, B, "gtInPlace", debugContext),
            prog, debugContext, options);
}
POPOPS_API void gtWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B, const poplar::Tensor &out,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void gtWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  gtWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "gtWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void gtWithOutput(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  gtWithOutput(
      graph, detail::constantOperand(graph, B, A, "gtWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// gteq: A >= B (BOOL) (BinaryOpType::GREATER_THAN_EQUAL).
POPOPS_API poplar::Tensor gteq(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &B,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor gteq(poplar::Graph &graph, const poplar::Tensor &A,
                    const constType B, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  return gteq(graph, A,
              detail::constantOperand(graph, A, B, "gteq", debugContext), prog,
              debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor gteq(poplar::Graph &graph, const constType A,
                    const poplar::Tensor &B, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  return gteq(graph, detail::constantOperand(graph, B, A, "gteq", debugContext),
              B, prog, debugContext, options);
}
POPOPS_API void gteqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            const poplar::Tensor &B,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void gteqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                 const constType B, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = {}) {
  gteqInPlace(graph, A,
              detail::constantOperand(graph, A, B, "gteqInPlace", debugContext),
              prog, debugContext, options);
}
POPOPS_API void gteqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &B,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void gteqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const constType B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  gteqWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "gteqWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void gteqWithOutput(poplar::Graph &graph, const constType A,
                    const poplar::Tensor &B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  gteqWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "gteqWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// logicalAnd: A && B (BOOL) (BinaryOpType::LOGICAL_AND).
POPOPS_API poplar::Tensor
logicalAnd(poplar::Graph &graph, const poplar::Tensor &A,
           const poplar::Tensor &B, poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {},
           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor logicalAnd(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return logicalAnd(
      graph, A,
      detail::constantOperand(graph, A, B, "logicalAnd", debugContext), prog,
      debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor logicalAnd(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return logicalAnd(
      graph, detail::constantOperand(graph, B, A, "logicalAnd", debugContext),
      B, prog, debugContext, options);
}
POPOPS_API void logicalAndInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                  const poplar::Tensor &B,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void logicalAndInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                       const constType B, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  logicalAndInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "logicalAndInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
logicalAndWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const poplar::Tensor &B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void logicalAndWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                          const constType B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  logicalAndWithOutput(graph, A,
                       detail::constantOperand(
                           graph, A, B, "logicalAndWithOutput", debugContext),
                       out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void logicalAndWithOutput(poplar::Graph &graph, const constType A,
                          const poplar::Tensor &B, const poplar::Tensor &out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  logicalAndWithOutput(graph,
                       detail::constantOperand(
                           graph, B, A, "logicalAndWithOutput", debugContext),
                       B, out, prog, debugContext, options);
}

// logicalOr: A || B (BOOL) (BinaryOpType::LOGICAL_OR).
POPOPS_API poplar::Tensor
logicalOr(poplar::Graph &graph, const poplar::Tensor &A,
          const poplar::Tensor &B, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {},
          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor logicalOr(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return logicalOr(
      graph, A, detail::constantOperand(graph, A, B, "logicalOr", debugContext),
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor logicalOr(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  return logicalOr(
      graph, detail::constantOperand(graph, B, A, "logicalOr", debugContext), B,
      prog, debugContext, options);
}
POPOPS_API void logicalOrInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void logicalOrInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                      const constType B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}) {
  logicalOrInPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "logicalOrInPlace", debugContext),
      prog, debugContext, options);
}
POPOPS_API void
logicalOrWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const poplar::Tensor &B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void logicalOrWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                         const constType B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  logicalOrWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "logicalOrWithOutput", debugContext),
      out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void logicalOrWithOutput(poplar::Graph &graph, const constType A,
                         const poplar::Tensor &B, const poplar::Tensor &out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  logicalOrWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "logicalOrWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// lt: A < B (BOOL) (BinaryOpType::LESS_THAN).
POPOPS_API poplar::Tensor lt(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor lt(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return lt(graph, A, detail::constantOperand(graph, A, B, "lt", debugContext),
            prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor lt(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  return lt(graph, detail::constantOperand(graph, B, A, "lt", debugContext), B,
            prog, debugContext, options);
}
POPOPS_API void ltInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                          const poplar::Tensor &B,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void ltInPlace(poplar::Graph &graph, const poplar::Tensor &A, const constType B,
               poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {}) {
  ltInPlace(graph, A,
            detail::constantOperand(graph, A, B, "ltInPlace", debugContext),
            prog, debugContext, options);
}
POPOPS_API void ltWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B, const poplar::Tensor &out,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void ltWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  ltWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "ltWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void ltWithOutput(poplar::Graph &graph, const constType A,
                  const poplar::Tensor &B, const poplar::Tensor &out,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  ltWithOutput(
      graph, detail::constantOperand(graph, B, A, "ltWithOutput", debugContext),
      B, out, prog, debugContext, options);
}

// lteq: A <= B (BOOL) (BinaryOpType::LESS_THAN_EQUAL).
POPOPS_API poplar::Tensor lteq(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &B,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor lteq(poplar::Graph &graph, const poplar::Tensor &A,
                    const constType B, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  return lteq(graph, A,
              detail::constantOperand(graph, A, B, "lteq", debugContext), prog,
              debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor lteq(poplar::Graph &graph, const constType A,
                    const poplar::Tensor &B, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  return lteq(graph, detail::constantOperand(graph, B, A, "lteq", debugContext),
              B, prog, debugContext, options);
}
POPOPS_API void lteqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                            const poplar::Tensor &B,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void lteqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                 const constType B, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = {}) {
  lteqInPlace(graph, A,
              detail::constantOperand(graph, A, B, "lteqInPlace", debugContext),
              prog, debugContext, options);
}
POPOPS_API void lteqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                               const poplar::Tensor &B,
                               const poplar::Tensor &out,
                               poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void lteqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                    const constType B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  lteqWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "lteqWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void lteqWithOutput(poplar::Graph &graph, const constType A,
                    const poplar::Tensor &B, const poplar::Tensor &out,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {}) {
  lteqWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "lteqWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// neq: A != B (BOOL) (BinaryOpType::NOT_EQUAL).
POPOPS_API poplar::Tensor neq(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor neq(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return neq(graph, A,
             detail::constantOperand(graph, A, B, "neq", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor neq(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return neq(graph, detail::constantOperand(graph, B, A, "neq", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void neqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void neqInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  neqInPlace(graph, A,
             detail::constantOperand(graph, A, B, "neqInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void neqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void neqWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  neqWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "neqWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void neqWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  neqWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "neqWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

} // namespace popops

#endif // POPOPS_ELEMENTWISECOMPARISON_HPP
