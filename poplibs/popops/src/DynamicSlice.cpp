// Slices and updates at offsets known only at run time, and the tensors
// laid out for them. The tensor is seen as rows along the sliced
// dimensions (SliceRows.hpp); on each tile one vertex copies the columns
// that tile holds for every row it needs.
#include <popops/DynamicSlice.hpp>

#include "Messages.hpp"
#include "RowVertices.hpp"
#include "SliceRows.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <numeric>

namespace popops {
namespace {

using poplar::Tensor;
using namespace slicing;

Tensor scalarOffset(const Tensor &offset, std::size_t i) {
  return offset.flatten()[i].reinterpret(poplar::UNSIGNED_INT);
}

void dynamicSliceInto(poplar::Graph &graph, const Tensor *output,
                      const Tensor &t, const Tensor &offset,
                      const std::vector<std::size_t> &dims,
                      const std::vector<std::size_t> &sizes,
                      poplar::program::Sequence &prog, const std::string &op,
                      Tensor &result) {
  checkType(op, t);
  checkDims(op, t, dims, sizes);
  checkOffsets(op, offset, dims.size());
  if (output) {
    const auto expected = slicedShape(t.shape(), dims, sizes);
    if (output->shape() != expected || output->elementType() != t.elementType())
      throw poputil::poplibs_error(
          op + ": output '" + output->getDebugStr() + "' " +
          shapeString(output->shape()) + " of type " +
          output->elementType().toString().str() +
          " does not match the slice " + shapeString(expected) + " of '" +
          t.getDebugStr() + "'");
    if (!output->isParallelWriteable())
      throw poputil::poplibs_error(op + ": output '" + output->getDebugStr() +
                                   "' cannot be written in parallel");
  }
  // One dimension at a time, each step into a clone of the slice (the last
  // into the output when there is one).
  Tensor current = t;
  for (std::size_t i = 0; i != dims.size(); ++i) {
    const auto dim = static_cast<unsigned>(dims[i]);
    const bool last = i + 1 == dims.size();
    Tensor out = last && output ? *output
                                : graph.clone(current.slice(0, sizes[i], dim),
                                              {op + "/out"});
    if (current.dim(dim) != 0 && out.numElements() != 0) {
      poplar::ComputeSet cs = graph.addComputeSet({op});
      addRowVertices(
          graph, cs,
          poputil::templateVertex("popops::DynamicSlice", t.elementType()),
          rowsAlong(current, dim), rowsAlong(out, dim), scalarOffset(offset, i),
          "base", "sub", nullptr);
      prog.add(poplar::program::Execute(cs));
    }
    current = out;
  }
  if (dims.empty() && output)
    prog.add(poplar::program::Copy(t, *output));
  result = current;
}

} // namespace

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                             const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims,
                             const std::vector<std::size_t> &sizes,
                             std::size_t minGrainSize,
                             const poplar::DebugContext &debugContext) {
  Tensor t = graph.addVariable(type, shape, debugContext);
  checkDims(opName(debugContext, "createSliceableTensor"), t, dims, sizes);
  mapColumns(graph, rowsView(t, 0, dims), minGrainSize);
  return t;
}

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                             const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims,
                             const std::vector<std::size_t> &sizes,
                             const SlicePlan &plan, const poplar::OptionFlags &,
                             const poplar::DebugContext &debugContext) {
  checkPlanGroups(opName(debugContext, "createSliceableTensor"), plan, 1,
                  false);
  return createSliceableTensor(graph, type, shape, dims, sizes, 0,
                               debugContext);
}

Tensor createGroupedSliceableTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const SlicePlan &plan,
    const poplar::OptionFlags &, const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createGroupedSliceableTensor");
  checkPlanGroups(op, plan, groupSize, true);
  std::vector<std::size_t> full{groupSize};
  full.insert(full.end(), shape.begin(), shape.end());
  Tensor t = graph.addVariable(type, full, debugContext);
  checkDims(op, t[0], dims, sizes);
  mapColumns(graph, rowsView(t, 1, dims), 0);
  return t;
}

Tensor createSliceTensor(poplar::Graph &graph, const Tensor &t,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes,
                         std::size_t numIndices,
                         const poplar::DebugContext &debugContext) {
  checkDims(opName(debugContext, "createSliceTensor"), t, dims, sizes);
  std::vector<std::size_t> shape{numIndices};
  const auto slice = slicedShape(t.shape(), dims, sizes);
  shape.insert(shape.end(), slice.begin(), slice.end());
  Tensor s = graph.addVariable(t.elementType(), shape, debugContext);
  mapColumnsLike(graph, rowsView(s, 1, dims), rowsView(t, 0, dims));
  return s;
}

Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &type,
                         const std::vector<std::size_t> &shape,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes,
                         std::size_t numIndices, const SlicePlan &plan,
                         const poplar::OptionFlags &options,
                         const poplar::DebugContext &debugContext) {
  return createGroupedSliceTensor(graph, type, 1, shape, dims, sizes,
                                  numIndices, plan, options, debugContext)[0];
}

Tensor createGroupedSliceTensor(
    poplar::Graph &graph, const poplar::Type &type, const std::size_t groupSize,
    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
    const std::vector<std::size_t> &sizes, const std::size_t numIndices,
    const SlicePlan &plan, const poplar::OptionFlags &,
    const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createSliceTensor");
  checkPlanGroups(op, plan, groupSize, groupSize != 1);
  std::vector<std::size_t> full{groupSize, numIndices};
  for (std::size_t i = 0; i != dims.size(); ++i)
    if (dims[i] >= shape.size() || sizes[i] > shape[dims[i]])
      throw poputil::poplibs_error(
          op + ": a slice of " + std::to_string(sizes[i]) +
          " along dimension " + std::to_string(dims[i]) + " of shape " +
          shapeString(shape));
  if (dims.size() != sizes.size())
    throw poputil::poplibs_error(op + ": " + std::to_string(dims.size()) +
                                 " dimensions but " +
                                 std::to_string(sizes.size()) + " sizes");
  const auto slice = slicedShape(shape, dims, sizes);
  full.insert(full.end(), slice.begin(), slice.end());
  Tensor s = graph.addVariable(type, full, debugContext);
  mapColumns(graph, rowsView(s, 2, dims), 0);
  return s;
}

Tensor createIndicesTensor(poplar::Graph &graph,
                           const std::vector<std::size_t> &dims,
                           std::size_t numIndices, const SlicePlan &plan,
                           const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  return createGroupedIndicesTensor(graph, 1, dims, numIndices, plan, options,
                                    debugContext)[0];
}

Tensor createGroupedIndicesTensor(poplar::Graph &graph,
                                  const std::size_t groupSize,
                                  const std::vector<std::size_t> &dims,
                                  const std::size_t numIndices,
                                  const SlicePlan &plan,
                                  const poplar::OptionFlags &,
                                  const poplar::DebugContext &debugContext) {
  checkPlanGroups(opName(debugContext, "createIndicesTensor"), plan, groupSize,
                  groupSize != 1);
  Tensor t = graph.addVariable(
      poplar::UNSIGNED_INT, {groupSize, numIndices, dims.size()}, debugContext);
  poputil::mapTensorLinearly(graph, t, 1, 1);
  return t;
}

Tensor
createSliceableTensorFromSlice(poplar::Graph &graph, const Tensor &s,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &numSlices,
                               const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "createSliceableTensorFromSlice");
  if (dims.size() != numSlices.size())
    throw poputil::poplibs_error(
        op + ": " + std::to_string(dims.size()) + " dimensions but " +
        std::to_string(numSlices.size()) + " slice counts");
  std::vector<std::size_t> whole;
  for (auto d : dims)
    whole.push_back(d < s.rank() ? s.dim(d) : 0);
  checkDims(op, s, dims, whole);
  auto shape = s.shape();
  std::size_t blocks = 1;
  for (std::size_t i = 0; i != dims.size(); ++i) {
    shape[dims[i]] *= numSlices[i];
    blocks *= numSlices[i];
  }
  Tensor t = graph.addVariable(s.elementType(), shape, debugContext);
  bool complete = false;
  const auto mapping = graph.getTileMapping(s, &complete);
  for (std::size_t b = 0; b != blocks; ++b) {
    // Block b's position along each sliced dimension, row-major.
    Tensor block = t;
    std::size_t rest = b;
    for (std::size_t i = dims.size(); i-- > 0;) {
      const std::size_t at = rest % numSlices[i];
      rest /= numSlices[i];
      const std::size_t len = s.dim(dims[i]);
      block =
          block.slice(at * len, (at + 1) * len, static_cast<unsigned>(dims[i]));
    }
    if (complete)
      graph.setTileMapping(block, mapping);
    else
      poputil::mapTensorLinearly(graph, block);
  }
  return t;
}

poplar::Graph::TileToTensorMapping
getSliceMapping(poplar::Graph &graph, const Tensor &t,
                const std::vector<std::size_t> &dims,
                const std::vector<std::size_t> &sizes) {
  checkDims("getSliceMapping", t, dims, sizes);
  Tensor slice = t;
  for (std::size_t i = 0; i != dims.size(); ++i)
    slice = slice.slice(0, sizes[i], static_cast<unsigned>(dims[i]));
  return graph.getTileMapping(slice);
}

Tensor dynamicSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offset,
                    const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &) {
  Tensor result;
  dynamicSliceInto(graph, nullptr, t, offset, dims, sizes, prog,
                   opName(debugContext, "dynamicSlice"), result);
  return result;
}

void dynamicSliceWithOutput(poplar::Graph &graph, const Tensor &output,
                            const Tensor &t, const Tensor &offset,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext,
                            const poplar::OptionFlags &) {
  Tensor result;
  dynamicSliceInto(graph, &output, t, offset, dims, sizes, prog,
                   opName(debugContext, "dynamicSliceWithOutput"), result);
}

void dynamicUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                   const Tensor &offset, const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &) {
  const std::string op = opName(debugContext, "dynamicUpdate");
  checkType(op, t);
  checkDims(op, t, dims, sizes);
  checkOffsets(op, offset, dims.size());
  const auto expected = slicedShape(t.shape(), dims, sizes);
  if (s.shape() != expected || s.elementType() != t.elementType())
    throw poputil::poplibs_error(
        op + ": the update '" + s.getDebugStr() + "' " +
        shapeString(s.shape()) + " does not match a slice of '" +
        t.getDebugStr() + "', " + shapeString(expected));
  if (t.numElements() == 0)
    return;
  if (dims.size() == 1) {
    const auto dim = static_cast<unsigned>(dims[0]);
    poplar::ComputeSet cs = graph.addComputeSet({op});
    addRowVertices(
        graph, cs,
        poputil::templateVertex("popops::DynamicUpdate", t.elementType()),
        rowsAlong(t, dim), rowsAlong(s, dim), scalarOffset(offset, 0), "base",
        "sub", nullptr);
    prog.add(poplar::program::Execute(cs));
    return;
  }
  // Several dimensions at once: the rows the (wrapped) offsets select,
  // then one MultiUpdate of the slice's rows.
  std::vector<std::size_t> dimSizes;
  for (auto d : dims)
    dimSizes.push_back(t.dim(d));
  const Tensor rows = rowIndices(graph, offset, 1, 1, dimSizes, sizes,
                                 OutOfRange::Wrap, prog, op);
  poplar::ComputeSet cs = graph.addComputeSet({op});
  addRowVertices(
      graph, cs,
      poputil::templateVertex("popops::MultiUpdate", t.elementType()),
      rowsView(t, 0, dims), rowsView(s, 0, dims), rows, "base", "sub", nullptr);
  prog.add(poplar::program::Execute(cs));
}

} // namespace popops
