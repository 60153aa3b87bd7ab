// Codelets generated for fused expressions: one MultiVertex per
// expression (and operand layout) whose compute() evaluates the whole
// expression element by element over a list of regions, with the
// operations of codelets/ElementwiseOps.hpp inlined, so a multi-operation
// map runs as one compute set with no temporary tensors. Float expressions
// of arithmetic, max, min and clamp run four elements at a time through
// codelets/ElementwiseVectorOps.hpp (the same bits and exception flags).
//
// The source is self-contained (ElementwiseOps.hpp and CodeletUtil.hpp are
// embedded in libpopops at build time) and is added with
// Graph::addCodelets(std::stringstream&), which compiles it with popc once
// and keeps the result in the codelet cache. The vertex is named
// popops::map::Expr_<16 hex digits>, the digits a hash of the source
// (without the name), so the same expression on the same types and layout
// always gives the same vertex and the same cache entry.
//
// Fields: `out` (Output, a list of regions) and, for each placeholder used,
// in<i> (i the 0-based index of its tensor): a list of regions, or a single
// element (Input<T>) when the tensor is one element broadcast.
#ifndef POPOPS_SRC_CODELETGENERATOR_HPP
#define POPOPS_SRC_CODELETGENERATOR_HPP

#include "TypedExpr.hpp"

#include <poplar/Graph.hpp>

#include <string>
#include <vector>

namespace popops {
namespace detail {

struct GeneratedCodelet {
  std::string vertexName;
  std::string source;
  /// Sum of opCycles over the operations (for the cycle model).
  unsigned opCycles = 0;
  /// Operands read per element (region inputs).
  unsigned vectorOperands = 0;
  /// The type the cycle model takes the vector width of.
  poplar::Type computeType;
};

/// The codelet for `expr`; scalarInputs[i] tells whether tensor i (if
/// used) is connected as a single element.
GeneratedCodelet generateCodelet(const TypedExpr &expr,
                                 const std::vector<bool> &scalarInputs);

/// Adds the codelet to the graph unless its vertex is already there.
void addGeneratedCodelet(poplar::Graph &graph, const GeneratedCodelet &c);

/// The text of CodeletUtil.hpp, ElementwiseOps.hpp and
/// ElementwiseVectorOps.hpp (generated into the build tree from codelets/,
/// see CMakeLists.txt).
extern const char *const embeddedCodeletHeaders;

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_CODELETGENERATOR_HPP
