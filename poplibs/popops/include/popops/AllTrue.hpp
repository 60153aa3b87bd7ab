#ifndef POPOPS_ALLTRUE_HPP
#define POPOPS_ALLTRUE_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// A BOOL scalar: whether every element of the BOOL tensor A is true.
POPOPS_API poplar::Tensor allTrue(poplar::Graph &graph, poplar::Tensor A,
                                  poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ALLTRUE_HPP
