#include "CycleEstimates.hpp"

#include <algorithm>

using namespace poplar;

namespace popnn {
namespace detail {

unsigned nonLinearityCost(NonLinearityType type, bool gradient) {
  switch (type) {
  case NonLinearityType::RELU:
  case NonLinearityType::HARD_SIGMOID:
    return 2; // a compare and select; a multiply-add and a clamp
  case NonLinearityType::SIGMOID:
    return gradient ? 2 : 9; // a * (1 - a) * g; exp, add, reciprocal
  case NonLinearityType::TANH:
    return gradient ? 2 : 4;
  case NonLinearityType::GELU:
    return gradient ? 12 : 8; // a cubic and tanh, and its derivative
  case NonLinearityType::GELU_ERF:
    return gradient ? 38 : 33; // erf by a polynomial (and exp)
  case NonLinearityType::SWISH:
    return gradient ? 12 : 10; // a sigmoid and products
  default:
    return 0; // the softmax types are made of popops operations
  }
}

std::uint64_t nonLinearityCycles(const Target &target, const Type &type,
                                 NonLinearityType nl, bool gradient,
                                 const std::vector<std::size_t> &regionSizes) {
  const unsigned workers = std::max(1u, target.getNumWorkerContexts());
  const std::uint64_t width = std::max(1u, target.getVectorWidth(type));
  // Loads: the input (forward); the activation and the gradient (gradient).
  const unsigned loads = gradient ? 2 : 1;
  const std::uint64_t perVector = loads + 1 + nonLinearityCost(nl, gradient);
  std::uint64_t slowest = 0;
  for (unsigned w = 0; w != workers; ++w) {
    std::uint64_t cycles = workerOverheadCycles;
    for (const std::size_t n : regionSizes) {
      const std::uint64_t begin = std::uint64_t(n) * w / workers;
      const std::uint64_t end = std::uint64_t(n) * (w + 1) / workers;
      cycles += regionOverheadCycles + (end - begin + width - 1) / width * perVector;
    }
    slowest = std::max(slowest, cycles);
  }
  return vertexOverheadCycles + workers * slowest;
}

std::uint64_t rowLoopCycles(std::size_t rows, std::size_t columns,
                            unsigned vectorWidth, unsigned cyclesPerVector) {
  const std::uint64_t width = std::max(1u, vectorWidth);
  return vertexOverheadCycles +
         std::uint64_t(rows) *
             (workerOverheadCycles +
              (columns + width - 1) / width * cyclesPerVector);
}

std::uint64_t windowLoopCycles(std::size_t outputs, std::size_t windowElements,
                               unsigned cyclesPerElement) {
  return vertexOverheadCycles +
         std::uint64_t(outputs) * (6 + windowElements * cyclesPerElement);
}

} // namespace detail
} // namespace popnn
