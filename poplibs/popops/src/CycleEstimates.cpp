#include "CycleEstimates.hpp"

#include "ExprOpInfo.hpp"

#include <algorithm>

using namespace poplar;

namespace popops {
namespace detail {

unsigned vectorWidth(const Target &target, const Type &type) {
  if (type == FLOAT || type == HALF)
    return std::max(1u, target.getVectorWidth(type));
  return 1;
}

std::uint64_t multiVertexCycles(const Target &target,
                                const std::vector<std::size_t> &regionSizes,
                                VectorCost cost) {
  const unsigned workers = std::max(1u, target.getNumWorkerContexts());
  const std::uint64_t width = std::max(1u, cost.vectorWidth);
  std::uint64_t slowest = 0;
  for (unsigned w = 0; w != workers; ++w) {
    std::uint64_t cycles = workerOverheadCycles;
    for (const std::size_t n : regionSizes) {
      // The worker's slice, as codelet::workerRange computes it.
      const std::uint64_t begin = std::uint64_t(n) * w / workers;
      const std::uint64_t end = std::uint64_t(n) * (w + 1) / workers;
      cycles += regionOverheadCycles +
                (end - begin + width - 1) / width * cost.cyclesPerVector;
    }
    slowest = std::max(slowest, cycles);
  }
  return vertexOverheadCycles + workers * slowest;
}

VectorCost unaryOpCost(const Target &target, expr::UnaryOpType op,
                       const Type &type) {
  return {vectorWidth(target, type), 1 + 1 + opCycles(op, type)};
}

VectorCost binaryOpCost(const Target &target, expr::BinaryOpType op,
                        const Type &type, bool scalarOperand) {
  const unsigned loads = scalarOperand ? 1 : 2;
  return {vectorWidth(target, type), loads + 1 + opCycles(op, type)};
}

VectorCost ternaryOpCost(const Target &target, expr::TernaryOpType op,
                         const Type &type, unsigned vectorOperands) {
  return {vectorWidth(target, type), vectorOperands + 1 + opCycles(op, type)};
}

VectorCost castCost(const Target &target, const Type &from, const Type &to) {
  return {std::min(vectorWidth(target, from), vectorWidth(target, to)), 3};
}

VectorCost fillCost(const Target &target, const Type &type) {
  return {std::max(1u, 8 / std::max(1u, target.getTypeSize(type))), 1};
}

VectorCost iotaCost() { return {1, 2}; }

VectorCost scaledAddCost(const Target &target, const Type &type) {
  return {vectorWidth(target, type), 4};
}

VectorCost fusedCost(const Target &target, const Type &type, unsigned opCycles,
                     unsigned vectorOperands) {
  return {vectorWidth(target, type), vectorOperands + 1 + opCycles};
}

} // namespace detail
} // namespace popops
