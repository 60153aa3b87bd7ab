// The cycle model of popnn's vertices: each vertex gets
// Graph::setPerfEstimate(vertex, cycles) from the estimator of its family.
//
// The element-wise families (NonLinearity2D, NonLinearity2DInPlace,
// NonLinearityGrad2D) are MultiVertices over a list of regions whose
// workers each take a slice of every region (codelets/NonLinearityMath.hpp
// workerRange). The workers share the tile's issue slots round robin, so
//
//   cycles = 20 + numWorkers * max over workers w of
//              (10 + sum over regions r of (4 + ceil(n(r, w) / W) * C))
//
// with W = Target::getVectorWidth (2 for FLOAT, 4 for HALF) and C the
// cycles per vector: the operands loaded, one store and the function's
// cost (nonLinearityCost below, from the IPU's instructions: 1 for a
// comparison or a multiply-add, 4 for exp, tanh and reciprocal, 30 for erf,
// which the IPU evaluates by a polynomial).
//
// The other families are single-worker loops:
//   LossSumSquaredTransform, LossCrossEntropyTransform:
//       20 + rows * (10 + ceil(columns / W) * C)
//   ReduceMaxClassGather / ReduceMinClassGather (arg max/min of rows):
//       20 + rows * (10 + columns * 2)
//   CalcAccuracy:           20 + 4 * rows
//   MaxPooling / AvgPooling (one output element per window):
//       20 + outputs * (6 + windowElements * 2)
//   pooling gradients:      20 + outputs * (6 + windowElements * 3)
#ifndef POPNN_SRC_CYCLEESTIMATES_HPP
#define POPNN_SRC_CYCLEESTIMATES_HPP

#include <popnn/NonLinearityDef.hpp>

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popnn {
namespace detail {

constexpr unsigned vertexOverheadCycles = 20;
constexpr unsigned workerOverheadCycles = 10;
constexpr unsigned regionOverheadCycles = 4;

/// Worker cycles per vector of the function (forward) or of its
/// derivative times the incoming gradient (gradient), operands excluded.
unsigned nonLinearityCost(NonLinearityType type, bool gradient);

/// The cycles of one element-wise vertex over regions of these sizes that
/// loads `operands` tensors per element.
std::uint64_t nonLinearityCycles(const poplar::Target &target,
                                 const poplar::Type &type,
                                 NonLinearityType nl, bool gradient,
                                 const std::vector<std::size_t> &regionSizes);

/// A single-worker loop over rows of `columns` elements, C cycles per
/// vector of W elements.
std::uint64_t rowLoopCycles(std::size_t rows, std::size_t columns,
                            unsigned vectorWidth, unsigned cyclesPerVector);

/// A single-worker loop over `outputs` windows of `windowElements`
/// elements each, `cyclesPerElement` each.
std::uint64_t windowLoopCycles(std::size_t outputs, std::size_t windowElements,
                               unsigned cyclesPerElement);

} // namespace detail
} // namespace popnn

#endif // POPNN_SRC_CYCLEESTIMATES_HPP
