// map, mapInPlace and mapWithOutput, and the named operations built on
// them.
//
// How an expression becomes vertices (ExpressionLowering in MapImpl.cpp):
//  1. TypedExpr types and checks it against the tensors.
//  2. The placeholders' tensors are broadcast to one shape; the output is a
//     new tensor mapped like the largest operand (or linearly when every
//     operand is broadcast), ts[0] (in place) or the tensor given.
//  3. An operand that shares storage with the output other than element
//     for element is copied first, so that each element is written by one
//     vertex and read before it is written.
//  4. A bare placeholder becomes a Copy; one operation on placeholders and
//     constants the prebuilt vertices of popops.gp; anything more one
//     generated codelet (CodeletGenerator.hpp), or, with
//     enableGenerateCodelet=false, one compute set per operation.
#ifndef POPOPS_SRC_MAPIMPL_HPP
#define POPOPS_SRC_MAPIMPL_HPP

#include <popops/Expr.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <string>
#include <vector>

namespace popops {
namespace detail {

struct MapOptions {
  bool enableGenerateCodelet = true;
  bool forceGenerateCodelet = false;
};
/// Throws poplibs_error naming `opName` for an unknown option or value.
MapOptions parseMapOptions(const poplar::OptionFlags &options,
                           const std::string &opName);

/// One expression: written to *out, or (out null) to a new tensor, which
/// is returned.
poplar::Tensor mapExpression(poplar::Graph &graph, const std::string &opName,
                             const expr::Expr &expr,
                             const std::vector<poplar::Tensor> &ts,
                             const poplar::Tensor *out,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options);

/// Several expressions in one compute set; outs (if given) has one tensor
/// per expression.
std::vector<poplar::Tensor> mapExpressions(
    poplar::Graph &graph, const std::string &opName,
    const std::vector<expr::Any> &exprs, const std::vector<poplar::Tensor> &ts,
    const std::vector<poplar::Tensor> *outs, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options);

/// The named operations: `opName` is the public function ("add",
/// "addInPlace", ...) for messages and debug names.
poplar::Tensor mapUnary(poplar::Graph &graph, const char *opName,
                        expr::UnaryOpType op, const poplar::Tensor &a,
                        const poplar::Tensor *out,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options);
poplar::Tensor mapBinary(poplar::Graph &graph, const char *opName,
                         expr::BinaryOpType op, const poplar::Tensor &a,
                         const poplar::Tensor &b, const poplar::Tensor *out,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options);
poplar::Tensor mapTernary(poplar::Graph &graph, const char *opName,
                          expr::TernaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, const poplar::Tensor &c,
                          const poplar::Tensor *out,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options);

/// A new tensor of `type` and `shape` for the result of an element-wise
/// operation on `operands` (already broadcast to `shape`): mapped like the
/// operand with the most elements of its own (`ownElements`), or linearly
/// when none has as many elements as the result.
poplar::Tensor createElementwiseOutput(
    poplar::Graph &graph, const std::vector<poplar::Tensor> &operands,
    const std::vector<std::size_t> &ownElements, const poplar::Type &type,
    const std::vector<std::size_t> &shape,
    const poplar::DebugContext &debugContext);

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_MAPIMPL_HPP
