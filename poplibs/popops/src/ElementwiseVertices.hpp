// Adding the vertices of one element-wise operation to a compute set.
//
// The output decides where the work goes: every tile gets vertices for the
// regions of the output it holds (TileRegions.hpp). The operands are
// connected with the same flattened intervals as the output; where an
// operand is not contiguous (a transpose, a broadcast, another mapping)
// the runtime gathers it for the vertex. An operand that is a single
// element broadcast is connected once, as a scalar, where a vertex family
// takes one (BroadcastScalar2D and the generated codelets); on the CPU
// device, an operand that is one element over runs of the output is
// connected once per run (BroadcastScalarPerRegion2D), and one that repeats
// a vector along the output is connected as that vector
// (BroadcastVectorRepeated2D).
//
// Each vertex gets its cycle estimate from CycleEstimates.hpp.
#ifndef POPOPS_SRC_ELEMENTWISEVERTICES_HPP
#define POPOPS_SRC_ELEMENTWISEVERTICES_HPP

#include "CodeletGenerator.hpp"

#include <popops/ExprOp.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include <string>
#include <vector>

namespace popops {
namespace detail {

/// An operand: `flat`, the operand broadcast to the output's shape and
/// flattened; `scalar`, valid when the operand is one element broadcast
/// over an output of more.
struct Operand {
  poplar::Tensor flat;
  poplar::Tensor scalar;
  /// The runs of `flat` over which the operand is one element (the
  /// product of the trailing output dimensions it is broadcast along), or
  /// 0 where that is not known.
  std::size_t constantRun = 0;
  /// The length of the vector `flat` repeats when the operand is broadcast
  /// along leading dimensions only (a bias over the positions of
  /// channels-innermost activations); the output's size when it is not
  /// broadcast; 0 where neither holds or it is not known.
  std::size_t period = 0;
  bool isScalar() const { return scalar.valid(); }
};

void addUnaryOpVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                        expr::UnaryOpType op, const Operand &in,
                        const poplar::Tensor &outFlat,
                        const std::string &opName);

void addBinaryOpVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                         expr::BinaryOpType op, const Operand &a,
                         const Operand &b, const poplar::Tensor &outFlat,
                         const std::string &opName);

void addTernaryOpVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                          expr::TernaryOpType op, const Operand &a,
                          const Operand &b, const Operand &c,
                          const poplar::Tensor &outFlat,
                          const std::string &opName);

void addCastVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                     const poplar::Tensor &inFlat,
                     const poplar::Tensor &outFlat, const std::string &opName);

/// The vertices of a generated codelet; inputs[i] is the operand of tensor
/// i (unused ones are ignored).
void addGeneratedVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                          const GeneratedCodelet &codelet,
                          const std::vector<unsigned> &usedInputs,
                          const std::vector<Operand> &inputs,
                          const poplar::Tensor &outFlat,
                          const std::string &opName);

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_ELEMENTWISEVERTICES_HPP
