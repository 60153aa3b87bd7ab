// sequenceSlice: runs of rows copied at offsets read at run time; each tile
// holding columns of the output gets one vertex for those columns of every
// row, so no two vertices write one element.
#include <popops/SequenceSlice.hpp>

#include "DataMovementEstimates.hpp"
#include "Messages.hpp"
#include "RowVertices.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using poplar::Tensor;

void sequenceSlice(poplar::Graph &graph, const Tensor &tIn, const Tensor &tOut,
                   const Tensor &tN, const Tensor &tInOffset,
                   const Tensor &tOutOffset, bool zeroUnused,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "sequenceSlice");
  auto fail = [&](const std::string &m) {
    throw poputil::poplibs_error(op + ": " + m);
  };
  for (const Tensor *t : {&tIn, &tOut})
    if (t->rank() < 2)
      fail("tensor '" + t->getDebugStr() + "' " + shapeString(t->shape()) +
           " must have rank 2 or more");
  if (tIn.elementType() != tOut.elementType())
    fail("tensors '" + tIn.getDebugStr() + "' and '" + tOut.getDebugStr() +
         "' have different types");
  const auto type = tIn.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
      type != poplar::UNSIGNED_INT)
    fail("tensor '" + tIn.getDebugStr() + "' has type " +
         type.toString().str() + ", which is not supported");
  const std::size_t inRow =
      tIn.numElements() / std::max<std::size_t>(1, tIn.dim(0));
  const std::size_t outRow =
      tOut.numElements() / std::max<std::size_t>(1, tOut.dim(0));
  if (inRow != outRow)
    fail("rows of '" + tIn.getDebugStr() + "' " + shapeString(tIn.shape()) +
         " and '" + tOut.getDebugStr() + "' " + shapeString(tOut.shape()) +
         " differ in size");
  for (const Tensor *t : {&tN, &tInOffset, &tOutOffset}) {
    if (t->rank() != 1 || t->numElements() != tN.numElements())
      fail("tN, tInOffset and tOutOffset must be 1-D of one size ('" +
           t->getDebugStr() + "' is " + shapeString(t->shape()) + ")");
    if (t->elementType() != poplar::UNSIGNED_INT &&
        t->elementType() != poplar::INT)
      fail("'" + t->getDebugStr() + "' must be UNSIGNED_INT or INT, not " +
           t->elementType().toString().str());
  }
  if (!tOut.isParallelWriteable())
    fail("tensor '" + tOut.getDebugStr() + "' cannot be written in parallel");
  if (tOut.numElements() == 0 || tN.numElements() == 0)
    return;
  const Tensor inRows = rowsAlong(tIn, 0), outRows = rowsAlong(tOut, 0);
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const std::string vertexType =
      poputil::templateVertex("popops::SequenceSlice", type);
  for (const auto &[tile, cols] : columnsByTile(graph, outRows)) {
    poplar::VertexRef v = graph.addVertex(cs, vertexType);
    graph.connect(v["src"], everyRowColumns(inRows, cols));
    graph.connect(v["dst"], everyRowColumns(outRows, cols));
    graph.connect(v["nElements"], tN.reinterpret(poplar::UNSIGNED_INT));
    graph.connect(v["srcOffset"], tInOffset.reinterpret(poplar::UNSIGNED_INT));
    graph.connect(v["dstOffset"], tOutOffset.reinterpret(poplar::UNSIGNED_INT));
    graph.setInitialValue(v["zeroUnused"], zeroUnused);
    graph.setTileMapping(v, tile);
    graph.setPerfEstimate(
        v, detail::rowCopyCycles(outRows.dim(0), columnCount(cols)));
  }
  prog.add(poplar::program::Execute(cs, {op}));
}

} // namespace popops
