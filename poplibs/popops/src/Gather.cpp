// gather as a multiSlice along the axis: the selected slices are rows of
// the input viewed with the axis first.
#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>

#include "RowVertices.hpp"

#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input,
                      const poplar::Tensor &indices, unsigned axis,
                      poplar::program::Sequence &prog, GatherParams,
                      const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options) {
  const std::string op = opName(debugContext, "gather");
  if (axis >= input.rank())
    throw poputil::poplibs_error(op + ": tensor '" + input.getDebugStr() +
                                 "' has no dimension " + std::to_string(axis));
  const std::size_t k = indices.numElements();
  poplar::Tensor slices =
      multiSlice(graph, input, indices.flatten().expand({1}), {axis}, {1}, prog,
                 SlicePlan(), options, debugContext);
  // [k, 1, other dims...] -> input's shape with the axis replaced by the
  // indices' shape.
  std::vector<std::size_t> others;
  for (std::size_t d = 0; d != input.rank(); ++d)
    if (d != axis)
      others.push_back(input.dim(d));
  std::vector<std::size_t> flatShape{k};
  flatShape.insert(flatShape.end(), others.begin(), others.end());
  poplar::Tensor result = slices.reshape(flatShape).dimRoll(0, axis);
  const auto inShape = input.shape();
  std::vector<std::size_t> shape(inShape.begin(), inShape.begin() + axis);
  for (auto d : indices.shape())
    shape.push_back(d);
  shape.insert(shape.end(), inShape.begin() + axis + 1, inShape.end());
  return result.reshape(shape);
}

} // namespace popops
