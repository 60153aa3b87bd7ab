// CircBuf: a history tensor sliced and updated at an index the buffer
// keeps on the device (CircBufIncrIndex and CircOffset vertices).
#include <popops/CircBuf.hpp>
#include <popops/DynamicSlice.hpp>

#include "DataMovementEstimates.hpp"
#include "Messages.hpp"

#include <poputil/exceptions.hpp>

namespace popops {

using poplar::Tensor;

CircBuf::CircBuf(poplar::Graph &graph, const poplar::Type &dataType,
                 unsigned size, const std::vector<std::size_t> &shape,
                 const poplar::DebugContext &debugContext)
    : graph(graph), size_(size), shape(shape) {
  const std::string op = opName(debugContext, "CircBuf");
  if (size == 0)
    throw poputil::poplibs_error(op + ": a circular buffer of 0 entries");
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  hist = createSliceableTensor(graph, dataType, {size, n}, {0}, {1}, 0,
                               {debugContext, "hist"});
  index = graph.addVariable(poplar::UNSIGNED_INT, {}, {debugContext, "index"});
  graph.setTileMapping(index, 0);
  graph.setInitialValue(index, 0u);
}

Tensor CircBuf::prev(unsigned i, poplar::program::Sequence &seq,
                     const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "CircBuf::prev");
  if (i >= size_)
    throw poputil::poplibs_error(op + ": entry " + std::to_string(i) +
                                 " of a buffer of " + std::to_string(size_) +
                                 " entries");
  Tensor offset =
      graph.addVariable(poplar::UNSIGNED_INT, {1}, {op + "/offset"});
  graph.setTileMapping(offset, 0);
  poplar::ComputeSet cs = graph.addComputeSet({op + "/offset"});
  poplar::VertexRef v = graph.addVertex(cs, "popops::CircOffset");
  graph.connect(v["indexIn"], index);
  graph.connect(v["indexOut"], offset[0]);
  graph.setInitialValue(v["hSize"], size_);
  graph.setInitialValue(v["offset"], i);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, detail::movementVertexOverhead + 10);
  seq.add(poplar::program::Execute(cs));
  return dynamicSlice(graph, hist, offset, {0}, {1}, seq, {op}).reshape(shape);
}

void CircBuf::add(Tensor t, poplar::program::Sequence &seq,
                  const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "CircBuf::add");
  if (t.shape() != shape || t.elementType() != hist.elementType())
    throw poputil::poplibs_error(
        op + ": tensor '" + t.getDebugStr() + "' " + shapeString(t.shape()) +
        " of type " + t.elementType().toString().str() +
        " does not match the buffer's " + shapeString(shape) + " of " +
        hist.elementType().toString().str());
  poplar::ComputeSet cs = graph.addComputeSet({op + "/index"});
  poplar::VertexRef v = graph.addVertex(cs, "popops::CircBufIncrIndex");
  graph.connect(v["index"], index);
  graph.setInitialValue(v["hSize"], size_);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, detail::movementVertexOverhead + 10);
  seq.add(poplar::program::Execute(cs));
  dynamicUpdate(graph, hist, t.flatten().expand({0}), index.expand({0}), {0},
                {1}, seq, {op});
}

poplar::Graph::TileToTensorMapping CircBuf::getTileMapping() {
  return graph.getTileMapping(hist[0]);
}

} // namespace popops
