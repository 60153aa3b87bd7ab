// createOutputForElementWiseOp: the output follows the best spread input.
#include <popops/ElementWiseUtil.hpp>

#include "Messages.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor
createOutputForElementWiseOp(poplar::Graph &graph,
                             const std::vector<poplar::Tensor> &inputs,
                             const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createOutputForElementWiseOp");
  if (inputs.empty())
    throw poputil::poplibs_error(op + ": no inputs");
  for (const auto &t : inputs)
    if (t.shape() != inputs[0].shape())
      throw poputil::poplibs_error(
          op + ": input '" + t.getDebugStr() + "' " + shapeString(t.shape()) +
          " differs in shape from '" + inputs[0].getDebugStr() + "' " +
          shapeString(inputs[0].shape()));
  const poplar::Tensor *best = nullptr;
  std::size_t bestTiles = 0;
  for (const auto &t : inputs) {
    bool complete = false;
    const auto mapping = graph.getTileMapping(t, &complete);
    if (!complete)
      continue;
    std::size_t tiles = 0;
    for (const auto &m : mapping)
      tiles += !m.empty();
    if (!best || tiles > bestTiles) {
      best = &t;
      bestTiles = tiles;
    }
  }
  if (best)
    return graph.clone(outputType, *best, debugContext);
  poplar::Tensor out =
      graph.addVariable(outputType, inputs[0].shape(), debugContext);
  poputil::mapTensorLinearly(graph, out);
  return out;
}

} // namespace popops
