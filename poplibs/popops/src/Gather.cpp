// gather: the axis form as a multiSlice along the axis (the selected
// slices are rows of the input viewed with the axis first); XLA's form as a
// multiSlice along startIndexMap's dimensions with clamped starts, on the
// input cut statically to sliceSizes along the other dimensions.
#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>

#include "Messages.hpp"
#include "RowVertices.hpp"
#include "SliceRows.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

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

namespace {

using poplar::Tensor;

[[noreturn]] void gatherFail(const std::string &op, const std::string &m) {
  throw poputil::poplibs_error(op + ": " + m);
}

/// indices as [batch elements, index vector length], and the batch shape.
std::pair<Tensor, std::vector<std::size_t>>
indexVectors(const std::string &op, const Tensor &indices,
             std::size_t indexVectorDim) {
  if (indices.elementType() != poplar::UNSIGNED_INT &&
      indices.elementType() != poplar::INT)
    gatherFail(op, "indices '" + indices.getDebugStr() +
                       "' must be UNSIGNED_INT or INT, not " +
                       indices.elementType().toString().str());
  if (indexVectorDim > indices.rank())
    gatherFail(op, "indexVectorDim " + std::to_string(indexVectorDim) +
                       " is beyond the rank of indices '" +
                       indices.getDebugStr() + "'");
  const Tensor vectors =
      indexVectorDim == indices.rank()
          ? indices.expand({indices.rank()})
          : indices.dimRoll(indexVectorDim, indices.rank() - 1);
  std::vector<std::size_t> batch = vectors.shape();
  const std::size_t length = batch.back();
  batch.pop_back();
  std::size_t n = 1;
  for (auto d : batch)
    n *= d;
  return {vectors.reshape({n, length}), batch};
}

bool contains(const std::vector<std::size_t> &v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                         const std::vector<std::size_t> &operandShape,
                         unsigned axis, GatherParams,
                         const poplar::DebugContext &debugContext) {
  return createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0,
                               debugContext);
}

Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                         const std::vector<std::size_t> &inputShape,
                         const std::vector<std::size_t> &sliceSizes,
                         std::vector<unsigned> startIndexMap,
                         const poplar::DebugContext &debugContext) {
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : startIndexMap) {
    if (d >= inputShape.size() || d >= sliceSizes.size())
      gatherFail(opName(debugContext, "createGatherInput"),
                 "startIndexMap names dimension " + std::to_string(d) +
                     " of a rank " + std::to_string(inputShape.size()) +
                     " input");
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
  }
  return createSliceableTensor(graph, type, inputShape, dims, sizes, 0,
                               debugContext);
}

Tensor gather(poplar::Graph &graph, const Tensor &input, const Tensor &indices,
              std::size_t indexVectorDim,
              const std::vector<std::size_t> &offsetDims,
              const std::vector<std::size_t> &sliceSizes,
              const std::vector<std::size_t> &collapsedSliceDims,
              const std::vector<unsigned> &startIndexMap,
              poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &) {
  const std::string op = opName(debugContext, "gather");
  const std::size_t rank = input.rank();
  if (sliceSizes.size() != rank)
    gatherFail(op, std::to_string(sliceSizes.size()) +
                       " slice sizes for input '" + input.getDebugStr() +
                       "' of rank " + std::to_string(rank));
  for (std::size_t d = 0; d != rank; ++d)
    if (sliceSizes[d] > input.dim(d))
      gatherFail(op, "slice size " + std::to_string(sliceSizes[d]) +
                         " exceeds dimension " + std::to_string(d) + " of '" +
                         input.getDebugStr() + "'");
  for (auto d : collapsedSliceDims)
    if (d >= rank || sliceSizes[d] != 1)
      gatherFail(op, "collapsed dimension " + std::to_string(d) +
                         " must be a dimension of slice size 1");
  auto [vectors, batch] = indexVectors(op, indices, indexVectorDim);
  if (vectors.dim(1) != startIndexMap.size())
    gatherFail(op, "index vectors of '" + indices.getDebugStr() + "' have " +
                       std::to_string(vectors.dim(1)) +
                       " elements but startIndexMap has " +
                       std::to_string(startIndexMap.size()));
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : startIndexMap) {
    if (d >= rank || contains(dims, d))
      gatherFail(op, "startIndexMap names dimension " + std::to_string(d) +
                         " twice or beyond the input's rank");
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
  }
  const std::size_t outRank = batch.size() + rank - collapsedSliceDims.size();
  if (offsetDims.size() != rank - collapsedSliceDims.size())
    gatherFail(op, std::to_string(offsetDims.size()) +
                       " offset dimensions for " +
                       std::to_string(rank - collapsedSliceDims.size()) +
                       " slice dimensions");
  for (std::size_t i = 0; i != offsetDims.size(); ++i)
    if (offsetDims[i] >= outRank || (i && offsetDims[i] <= offsetDims[i - 1]))
      gatherFail(op, "offsetDims must be ascending dimensions of the rank " +
                         std::to_string(outRank) + " result");
  // The input cut to the slice along the dimensions not indexed.
  Tensor cut = input;
  for (std::size_t d = 0; d != rank; ++d)
    if (!contains(dims, d))
      cut = cut.slice(0, sliceSizes[d], static_cast<unsigned>(d));
  const std::size_t n = vectors.dim(0);
  Tensor slices =
      n == 0 || dims.empty()
          ? graph.clone(cut.expand({0}).broadcast(n == 0 ? 0 : n, 0),
                        {op + "/slices"})
          : slicing::multiSliceRows(graph, cut, vectors, dims, sizes,
                                    slicing::OutOfRange::Clamp, prog, op);
  if (dims.empty() && n != 0)
    prog.add(poplar::program::Copy(cut.expand({0}).broadcast(n, 0), slices));
  // [batch..., kept slice dimensions...], then the slice dimensions moved
  // to offsetDims.
  std::vector<std::size_t> shape = batch;
  for (std::size_t d = 0; d != rank; ++d)
    if (!contains(collapsedSliceDims, d))
      shape.push_back(sliceSizes[d]);
  Tensor result = slices.reshape(shape);
  std::vector<unsigned> perm(outRank);
  std::size_t nextBatch = 0, nextOffset = 0;
  for (std::size_t p = 0; p != outRank; ++p)
    perm[p] = static_cast<unsigned>(
        contains(offsetDims, p) ? batch.size() + nextOffset++ : nextBatch++);
  return result.dimShuffle(perm);
}

} // namespace popops
