// The named binary element-wise operations: arithmetic (included by
// popops/ElementWise.hpp). Each is map() of one expr::BinaryOpType, with
// NumPy broadcasting of A and B. The forms with a C++ number for A or B
// make it a constant of the type of the other operand; its C++ type must
// be that type's (float or double for FLOAT and HALF), see checkTypes.
// See codelets/ElementwiseOps.hpp in the sources for what each operation
// computes for each element type.
#ifndef POPOPS_ELEMENTWISEARITHMETIC_HPP
#define POPOPS_ELEMENTWISEARITHMETIC_HPP

#include <popops/ElementWise.hpp>

namespace popops {

// add: A + B (BinaryOpType::ADD).
POPOPS_API poplar::Tensor add(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor add(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return add(graph, A,
             detail::constantOperand(graph, A, B, "add", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor add(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return add(graph, detail::constantOperand(graph, B, A, "add", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void addInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void addInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  addInPlace(graph, A,
             detail::constantOperand(graph, A, B, "addInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void addWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void addWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  addWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "addWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void addWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  addWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "addWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// atan2: arctangent of A / B, in the quadrant of (B, A) (BinaryOpType::ATAN2).
POPOPS_API poplar::Tensor atan2(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &B,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor atan2(poplar::Graph &graph, const poplar::Tensor &A,
                     const constType B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  return atan2(graph, A,
               detail::constantOperand(graph, A, B, "atan2", debugContext),
               prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor atan2(poplar::Graph &graph, const constType A,
                     const poplar::Tensor &B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  return atan2(graph,
               detail::constantOperand(graph, B, A, "atan2", debugContext), B,
               prog, debugContext, options);
}
POPOPS_API void atan2InPlace(poplar::Graph &graph, const poplar::Tensor &A,
                             const poplar::Tensor &B,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void atan2InPlace(poplar::Graph &graph, const poplar::Tensor &A,
                  const constType B, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = {}) {
  atan2InPlace(
      graph, A,
      detail::constantOperand(graph, A, B, "atan2InPlace", debugContext), prog,
      debugContext, options);
}
POPOPS_API void atan2WithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                const poplar::Tensor &B,
                                const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void atan2WithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                     const constType B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  atan2WithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "atan2WithOutput", debugContext),
      out, prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void atan2WithOutput(poplar::Graph &graph, const constType A,
                     const poplar::Tensor &B, const poplar::Tensor &out,
                     poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     const poplar::OptionFlags &options = {}) {
  atan2WithOutput(
      graph,
      detail::constantOperand(graph, B, A, "atan2WithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// div: A / B (integers truncate; x / 0 is 0) (BinaryOpType::DIVIDE).
POPOPS_API poplar::Tensor div(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor div(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return div(graph, A,
             detail::constantOperand(graph, A, B, "div", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor div(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return div(graph, detail::constantOperand(graph, B, A, "div", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void divInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void divInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  divInPlace(graph, A,
             detail::constantOperand(graph, A, B, "divInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void divWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void divWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  divWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "divWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void divWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  divWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "divWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// max: the larger of A and B (NaN if either is) (BinaryOpType::MAXIMUM).
POPOPS_API poplar::Tensor max(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor max(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return max(graph, A,
             detail::constantOperand(graph, A, B, "max", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor max(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return max(graph, detail::constantOperand(graph, B, A, "max", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void maxInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void maxInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  maxInPlace(graph, A,
             detail::constantOperand(graph, A, B, "maxInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void maxWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void maxWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  maxWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "maxWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void maxWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  maxWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "maxWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// min: the smaller of A and B (NaN if either is) (BinaryOpType::MINIMUM).
POPOPS_API poplar::Tensor min(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor min(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return min(graph, A,
             detail::constantOperand(graph, A, B, "min", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor min(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return min(graph, detail::constantOperand(graph, B, A, "min", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void minInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void minInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  minInPlace(graph, A,
             detail::constantOperand(graph, A, B, "minInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void minWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void minWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  minWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "minWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void minWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  minWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "minWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// mul: A * B (BinaryOpType::MULTIPLY).
POPOPS_API poplar::Tensor mul(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor mul(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return mul(graph, A,
             detail::constantOperand(graph, A, B, "mul", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor mul(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return mul(graph, detail::constantOperand(graph, B, A, "mul", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void mulInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void mulInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  mulInPlace(graph, A,
             detail::constantOperand(graph, A, B, "mulInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void mulWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void mulWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  mulWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "mulWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void mulWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  mulWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "mulWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// pow: A to the power B (BinaryOpType::POWER).
POPOPS_API poplar::Tensor pow(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor pow(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return pow(graph, A,
             detail::constantOperand(graph, A, B, "pow", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor pow(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return pow(graph, detail::constantOperand(graph, B, A, "pow", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void powInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void powInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  powInPlace(graph, A,
             detail::constantOperand(graph, A, B, "powInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void powWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void powWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  powWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "powWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void powWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  powWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "powWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// rem: remainder of A / B with the sign of A (fmod) (BinaryOpType::REMAINDER).
POPOPS_API poplar::Tensor rem(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor rem(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return rem(graph, A,
             detail::constantOperand(graph, A, B, "rem", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor rem(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return rem(graph, detail::constantOperand(graph, B, A, "rem", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void remInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void remInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  remInPlace(graph, A,
             detail::constantOperand(graph, A, B, "remInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void remWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void remWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  remWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "remWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void remWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  remWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "remWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

// sub: A - B (BinaryOpType::SUBTRACT).
POPOPS_API poplar::Tensor sub(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor sub(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return sub(graph, A,
             detail::constantOperand(graph, A, B, "sub", debugContext), prog,
             debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
poplar::Tensor sub(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  return sub(graph, detail::constantOperand(graph, B, A, "sub", debugContext),
             B, prog, debugContext, options);
}
POPOPS_API void subInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void subInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                const constType B, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {}) {
  subInPlace(graph, A,
             detail::constantOperand(graph, A, B, "subInPlace", debugContext),
             prog, debugContext, options);
}
POPOPS_API void subWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
template <typename constType, detail::IfConstant<constType> = 0>
void subWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                   const constType B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  subWithOutput(
      graph, A,
      detail::constantOperand(graph, A, B, "subWithOutput", debugContext), out,
      prog, debugContext, options);
}
template <typename constType, detail::IfConstant<constType> = 0>
void subWithOutput(poplar::Graph &graph, const constType A,
                   const poplar::Tensor &B, const poplar::Tensor &out,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {}) {
  subWithOutput(
      graph,
      detail::constantOperand(graph, B, A, "subWithOutput", debugContext), B,
      out, prog, debugContext, options);
}

} // namespace popops

#endif // POPOPS_ELEMENTWISEARITHMETIC_HPP
