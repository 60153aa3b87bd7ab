// The cycle model of popops' vertices: each vertex gets
// Graph::setPerfEstimate(vertex, cycles) from the estimator of its family.
//
// Every family here is a MultiVertex over a list of regions whose workers
// each take a slice of every region (codelet::workerRange). Workers share
// the tile's issue slots round robin, so a vertex takes numWorkers times
// the cycles of its slowest worker, plus the supervisor's start-up:
//
//   cycles = vertexOverhead
//          + numWorkers * max over workers w of
//              ( workerOverhead
//              + sum over regions r of
//                  ( regionOverhead + ceil(n(r, w) / W) * C ) )
//
// where n(r, w) is the number of elements of region r worker w processes,
// W the elements in one vector and C the worker cycles per vector:
//
//   family                        W                     C
//   UnaryOp2D, BinaryOp2D,        vectorWidth(type)     loads + 1 store +
//   BroadcastScalar2D, Select2D,                        opCycles(op, type)
//   Clamp2D, generated map                              (summed over the
//   codelets                                            operations fused)
//   Cast2D                        min of the two widths 3
//   Fill2D                        8 bytes / type size   1
//   Iota2D                        1                     2
//   ScaledAdd2D                   vectorWidth(type)     4
//
// loads = the number of operands read per element (a broadcast scalar is
// read once, in the overhead); vectorWidth is 2 for FLOAT, 4 for HALF and
// 1 for every other type (integer arithmetic is not vectorised);
// opCycles is the table of src/ExprOpInfo.cpp. The constants:
//   vertexOverhead = 20, workerOverhead = 10, regionOverhead = 4.
// (poplibs' own estimators have the same shape; the constants here are
// this SDK's model, not measurements of an IPU.)
#ifndef POPOPS_SRC_CYCLEESTIMATES_HPP
#define POPOPS_SRC_CYCLEESTIMATES_HPP

#include <popops/ExprOp.hpp>

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popops {
namespace detail {

constexpr unsigned vertexOverheadCycles = 20;
constexpr unsigned workerOverheadCycles = 10;
constexpr unsigned regionOverheadCycles = 4;

/// W and C of the model above.
struct VectorCost {
  unsigned vectorWidth;
  unsigned cyclesPerVector;
};

/// Elements of `type` in one vector: 2 for FLOAT, 4 for HALF, else 1.
unsigned vectorWidth(const poplar::Target &target, const poplar::Type &type);

/// The cycles of one MultiVertex over regions of these sizes.
std::uint64_t multiVertexCycles(const poplar::Target &target,
                                const std::vector<std::size_t> &regionSizes,
                                VectorCost cost);

// The costs of each family. `type` is the type the operation computes in
// (its operands' type).
VectorCost unaryOpCost(const poplar::Target &target, expr::UnaryOpType op,
                       const poplar::Type &type);
VectorCost binaryOpCost(const poplar::Target &target, expr::BinaryOpType op,
                        const poplar::Type &type, bool scalarOperand);
VectorCost ternaryOpCost(const poplar::Target &target, expr::TernaryOpType op,
                         const poplar::Type &type, unsigned vectorOperands);
VectorCost castCost(const poplar::Target &target, const poplar::Type &from,
                    const poplar::Type &to);
VectorCost fillCost(const poplar::Target &target, const poplar::Type &type);
VectorCost iotaCost();
VectorCost scaledAddCost(const poplar::Target &target,
                         const poplar::Type &type);
/// A generated codelet: `opCycles` summed over its operations, reading
/// `vectorOperands` operands per element.
VectorCost fusedCost(const poplar::Target &target, const poplar::Type &type,
                     unsigned opCycles, unsigned vectorOperands);

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_CYCLEESTIMATES_HPP
