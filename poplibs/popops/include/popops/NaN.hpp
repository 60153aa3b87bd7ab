#ifndef POPOPS_NAN_HPP
#define POPOPS_NAN_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// A BOOL scalar: whether any element of the FLOAT or HALF tensor is NaN.
POPOPS_API poplar::Tensor hasNaN(poplar::Graph &graph,
                                 const poplar::Tensor &src,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {});

/// A BOOL scalar: whether any element of the FLOAT or HALF tensor is NaN
/// or infinite.
POPOPS_API poplar::Tensor
hasNaNOrInf(poplar::Graph &graph, const poplar::Tensor &src,
            poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_NAN_HPP
