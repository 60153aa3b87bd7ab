#ifndef POPOPS_ELEMENTWISEUTIL_HPP
#define POPOPS_ELEMENTWISEUTIL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/popops_export.hpp>

#include <vector>

namespace popops {

/// A tensor of outputType for the result of an element-wise operation on
/// `inputs` (all of one shape): mapped like the completely mapped input
/// that is spread over the most tiles (the first of those), so that the
/// work follows that input with no exchange for it; mapped linearly when
/// no input is completely mapped.
POPOPS_API poplar::Tensor
createOutputForElementWiseOp(poplar::Graph &graph,
                             const std::vector<poplar::Tensor> &inputs,
                             const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ELEMENTWISEUTIL_HPP
