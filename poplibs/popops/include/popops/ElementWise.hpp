// Element-wise operations on tensors.
//
// Every operation has three ways of giving its result: a new tensor
// (`add`), written to the first operand (`addInPlace`) or to a tensor the
// caller gives (`addWithOutput`). Operands of binary and ternary operations
// are broadcast against each other with NumPy's rules
// (poputil::broadcastToMatch), and binary operations also take a C++
// number on either side. `map` applies a whole expression (popops/Expr.hpp)
// in one compute set.
//
// The named operations are declared in popops/ElementWiseUnary.hpp,
// ElementWiseArithmetic.hpp, ElementWiseComparison.hpp and
// ElementWiseBitwise.hpp, all included here.
//
// Element-wise options (OptionFlags of every function here):
//   enableGenerateCodelet (true, false) [=true]
//     An expression of more than one operation runs as one codelet
//     generated for it (compiled once and kept in the codelet cache) in
//     one compute set; when false, it runs as one compute set per
//     operation with temporary tensors in between.
//   forceGenerateCodelet (true, false) [=false]
//     Generates a codelet even for a single operation (for testing).
//   enableVectorBroadcastOptimisations (true, false) [=true]
//     Accepted for compatibility; it changes nothing.
//
// A result is mapped like the operand with the most elements (as
// Graph::clone maps it), and the work is done on the tiles that hold the
// result. Unsupported element types, shapes that do not broadcast and
// in-place results that cannot be written throw poputil::poplibs_error
// naming the operation, the tensor and the type.
#ifndef POPOPS_ELEMENTWISE_HPP
#define POPOPS_ELEMENTWISE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Expr.hpp>
#include <popops/popops_export.hpp>
#include <poputil/exceptions.hpp>

#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

namespace popops {

/// Writes the codelet map() generates for `expr` applied to `ts`.
POPOPS_API void outputGeneratedCodelet(const poplar::Target &target,
                                       const expr::Expr &expr,
                                       const std::vector<poplar::Tensor> &ts,
                                       const poplar::OptionFlags &options,
                                       std::ostream &os);

// map: the expression applied to the elements of ts (placeholder _i is
// ts[i - 1]), returning a new tensor of the broadcast shape.

POPOPS_API poplar::Tensor map(poplar::Graph &graph, const expr::Expr &expr,
                              const std::vector<poplar::Tensor> &ts,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API poplar::Tensor map(poplar::Graph &graph, expr::UnaryOpType op,
                              const poplar::Tensor &t,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API poplar::Tensor map(poplar::Graph &graph, expr::BinaryOpType op,
                              const poplar::Tensor &a, const poplar::Tensor &b,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API poplar::Tensor map(poplar::Graph &graph, expr::TernaryOpType op,
                              const poplar::Tensor &a, const poplar::Tensor &b,
                              const poplar::Tensor &c,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
/// Several expressions over the same tensors, in one compute set.
POPOPS_API std::vector<poplar::Tensor>
map(poplar::Graph &graph, const std::vector<expr::Any> &exprs,
    const std::vector<poplar::Tensor> &ts, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

// mapInPlace: the result written to ts[0] (for several expressions, the
// result of exprs[i] to ts[i]). Every expression is evaluated from the
// values before any is written.

POPOPS_API void mapInPlace(poplar::Graph &graph, const expr::Expr &expr,
                           const std::vector<poplar::Tensor> &ts,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void mapInPlace(poplar::Graph &graph, expr::UnaryOpType op,
                           const poplar::Tensor &t,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void mapInPlace(poplar::Graph &graph, expr::BinaryOpType op,
                           const poplar::Tensor &a, const poplar::Tensor &b,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void mapInPlace(poplar::Graph &graph, expr::TernaryOpType op,
                           const poplar::Tensor &a, const poplar::Tensor &b,
                           const poplar::Tensor &c,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void mapInPlace(poplar::Graph &graph,
                           const std::vector<expr::Any> &exprs,
                           const std::vector<poplar::Tensor> &ts,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});

// mapWithOutput: the result written to `out`, which must have the broadcast
// shape and the type of the result.

POPOPS_API void mapWithOutput(poplar::Graph &graph, const expr::Expr &expr,
                              const std::vector<poplar::Tensor> &ts,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void mapWithOutput(poplar::Graph &graph, expr::UnaryOpType op,
                              const poplar::Tensor &in,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void mapWithOutput(poplar::Graph &graph, expr::BinaryOpType op,
                              const poplar::Tensor &a, const poplar::Tensor &b,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void mapWithOutput(poplar::Graph &graph, expr::TernaryOpType op,
                              const poplar::Tensor &a, const poplar::Tensor &b,
                              const poplar::Tensor &c,
                              const poplar::Tensor &out,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void mapWithOutput(poplar::Graph &graph,
                              const std::vector<expr::Any> &exprs,
                              const std::vector<poplar::Tensor> &ts,
                              const std::vector<poplar::Tensor> &outs,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

/// Checks that a C++ constant of type constType can be an operand of a
/// tensor of elementType: its device type (float and double also for
/// HALF). Throws poputil::poplibs_error otherwise.
template <typename constType>
inline void checkTypes(poplar::Type elementType, constType) {
  if (std::is_floating_point<constType>::value) {
    if (elementType == poplar::FLOAT || elementType == poplar::HALF)
      return;
  } else {
    if (elementType == poplar::equivalent_device_type<constType>().value)
      return;
  }
  throw poputil::poplibs_error("Type mismatch between Binary op Tensor "
                               "and constant");
}

namespace detail {

/// For the operations with a constant operand: the constant as a tensor of
/// one element of `type`, mapped to tile 0. Throws poplibs_error naming
/// the operation and the tensor if the constant's C++ type does not match
/// (see checkTypes).
POPOPS_API void checkConstantType(const poplar::Tensor &t,
                                  const poplar::Type &constantType,
                                  bool constantIsFloating, const char *opName);
POPOPS_API poplar::Tensor
constantTensor(poplar::Graph &graph, const poplar::Type &type, double value,
               const poplar::DebugContext &debugContext);
POPOPS_API poplar::Tensor
constantTensor(poplar::Graph &graph, const poplar::Type &type,
               unsigned long long value, bool isNegative,
               const poplar::DebugContext &debugContext);

template <typename constType>
poplar::Tensor constantOperand(poplar::Graph &graph, const poplar::Tensor &t,
                               constType value, const char *opName,
                               const poplar::DebugContext &debugContext) {
  static_assert(std::is_arithmetic<constType>::value,
                "a constant operand is an integer or floating-point value");
  if (std::is_floating_point<constType>::value) {
    checkConstantType(t, poplar::FLOAT, true, opName);
    return constantTensor(graph, t.elementType(), static_cast<double>(value),
                          debugContext);
  }
  checkConstantType(t, poplar::equivalent_device_type<constType>().value,
                    false, opName);
  const bool negative =
      std::is_signed<constType>::value && static_cast<double>(value) < 0;
  return constantTensor(graph, t.elementType(),
                        static_cast<unsigned long long>(value), negative,
                        debugContext);
}

template <class T>
using IfConstant = typename std::enable_if<std::is_arithmetic<T>::value, int>::type;

} // namespace detail

// Ternary operations.

/// A where conditions is true, else B; conditions is BOOL.
POPOPS_API poplar::Tensor select(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 const poplar::Tensor &conditions,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});
POPOPS_API void selectInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                              const poplar::Tensor &B,
                              const poplar::Tensor &conditions,
                              poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});
POPOPS_API void selectWithOutput(poplar::Graph &graph, const poplar::Tensor &A,
                                 const poplar::Tensor &B,
                                 const poplar::Tensor &conditions,
                                 const poplar::Tensor &out,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

/// min(max(values, minimums), maximums).
POPOPS_API poplar::Tensor clamp(poplar::Graph &graph,
                                const poplar::Tensor &values,
                                const poplar::Tensor &minimums,
                                const poplar::Tensor &maximums,
                                poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {});
POPOPS_API void clampInPlace(poplar::Graph &graph, const poplar::Tensor &values,
                             const poplar::Tensor &minimums,
                             const poplar::Tensor &maximums,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {});
POPOPS_API void
clampWithOutput(poplar::Graph &graph, const poplar::Tensor &values,
                const poplar::Tensor &minimums, const poplar::Tensor &maximums,
                const poplar::Tensor &out, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {});

// Variance and inverse standard deviation.

/// 1 / sqrt(src + epsilon), as dstType (HALF, or the type of src).
/// epsilon is a tensor of one element of the type of src, or a float.
POPOPS_API poplar::Tensor
varianceToInvStdDev(poplar::Graph &graph, const poplar::Tensor &src,
                    const poplar::Tensor &epsilon,
                    poplar::program::Sequence &prog,
                    const poplar::Type dstType = poplar::HALF,
                    const poplar::DebugContext &debugContext = {});
POPOPS_API poplar::Tensor
varianceToInvStdDev(poplar::Graph &graph, const poplar::Tensor &src,
                    const float epsilon, poplar::program::Sequence &prog,
                    const poplar::Type dstType = poplar::HALF,
                    const poplar::DebugContext &debugContext = {});
POPOPS_API void
varianceToInvStdDevInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void varianceToInvStdDevWithOutput(
    poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
    const poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// 1 / src^2 - epsilon, as dstType (FLOAT, or the type of src).
POPOPS_API poplar::Tensor
invStdDevToVariance(poplar::Graph &graph, const poplar::Tensor &src,
                    const poplar::Tensor &epsilon,
                    poplar::program::Sequence &prog,
                    const poplar::Type dstType = poplar::FLOAT,
                    const poplar::DebugContext &debugContext = {});
POPOPS_API poplar::Tensor
invStdDevToVariance(poplar::Graph &graph, const poplar::Tensor &src,
                    const float epsilon, poplar::program::Sequence &prog,
                    const poplar::Type dstType = poplar::FLOAT,
                    const poplar::DebugContext &debugContext = {});
POPOPS_API void
invStdDevToVarianceInPlace(poplar::Graph &graph, const poplar::Tensor &A,
                           const poplar::Tensor &B,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});
POPOPS_API void invStdDevToVarianceWithOutput(
    poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
    const poplar::Tensor &out, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

} // namespace popops

#include <popops/ElementWiseArithmetic.hpp>
#include <popops/ElementWiseBitwise.hpp>
#include <popops/ElementWiseComparison.hpp>
#include <popops/ElementWiseUnary.hpp>

#endif // POPOPS_ELEMENTWISE_HPP
