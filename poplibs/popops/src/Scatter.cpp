// XLA's scatter as a multiUpdate (SliceRows.hpp) of the update windows at
// the index vectors, on the operand cut statically to the window along the
// dimensions not indexed.
#include <popops/Scatter.hpp>

#include "Messages.hpp"
#include "SliceRows.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {
namespace {

using poplar::Tensor;

template <class C, class T> bool contains(const C &c, T x) {
  return std::find(c.begin(), c.end(), x) != c.end();
}

void scatterImpl(poplar::Graph &graph, const Tensor &operand,
                 const Tensor &indices, const Tensor &updates,
                 std::size_t indexVectorDim,
                 const std::vector<unsigned> &updateWindowDims,
                 const std::vector<std::size_t> &insertWindowDims,
                 const std::vector<unsigned> &scatterDimsToOperandDims,
                 UpdateComputationFunc *updateComputation,
                 poplar::program::Sequence &prog, const std::string &op) {
  auto fail = [&](const std::string &m) {
    throw poputil::poplibs_error(op + ": " + m);
  };
  if (indices.elementType() != poplar::UNSIGNED_INT &&
      indices.elementType() != poplar::INT)
    fail("indices '" + indices.getDebugStr() +
         "' must be UNSIGNED_INT or INT, not " +
         indices.elementType().toString().str());
  if (indexVectorDim > indices.rank())
    fail("indexVectorDim " + std::to_string(indexVectorDim) +
         " is beyond the rank of indices '" + indices.getDebugStr() + "'");
  if (updates.elementType() != operand.elementType())
    fail("updates '" + updates.getDebugStr() + "' and operand '" +
         operand.getDebugStr() + "' have different types");
  if (!operand.isParallelWriteable())
    fail("operand '" + operand.getDebugStr() +
         "' cannot be written in parallel");
  const Tensor vectors3 =
      indexVectorDim == indices.rank()
          ? indices.expand({indices.rank()})
          : indices.dimRoll(indexVectorDim, indices.rank() - 1);
  std::vector<std::size_t> batch = vectors3.shape();
  const std::size_t length = batch.back();
  batch.pop_back();
  if (length != scatterDimsToOperandDims.size() || length == 0)
    fail("index vectors of '" + indices.getDebugStr() + "' have " +
         std::to_string(length) + " elements for " +
         std::to_string(scatterDimsToOperandDims.size()) +
         " scatter dimensions (at least one is needed)");
  const std::size_t rank = operand.rank();
  // The update's scatter dimensions (not window ones), in order, must be
  // the batch shape of the indices.
  std::vector<unsigned> perm;
  std::vector<std::size_t> scatterShape;
  for (unsigned d = 0; d != updates.rank(); ++d)
    if (!contains(updateWindowDims, d)) {
      perm.push_back(d);
      scatterShape.push_back(updates.dim(d));
    }
  if (scatterShape != batch)
    fail("the scatter dimensions of updates '" + updates.getDebugStr() + "' " +
         shapeString(updates.shape()) + " do not match the indices' batch " +
         shapeString(batch));
  if (updateWindowDims.size() + insertWindowDims.size() != rank)
    fail(std::to_string(updateWindowDims.size()) + " window and " +
         std::to_string(insertWindowDims.size()) +
         " inserted dimensions for operand '" + operand.getDebugStr() +
         "' of rank " + std::to_string(rank));
  // Window size along every operand dimension.
  std::vector<std::size_t> window(rank, 1);
  for (std::size_t d = 0, k = 0; d != rank; ++d) {
    if (contains(insertWindowDims, d))
      continue;
    const unsigned u = updateWindowDims[k++];
    if (u >= updates.rank() || updates.dim(u) > operand.dim(d))
      fail("window dimension " + std::to_string(u) + " of updates '" +
           updates.getDebugStr() + "' does not fit dimension " +
           std::to_string(d) + " of operand '" + operand.getDebugStr() + "'");
    window[d] = updates.dim(u);
    perm.push_back(u);
  }
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : scatterDimsToOperandDims) {
    if (d >= rank || contains(dims, d))
      fail("scatterDimsToOperandDims names dimension " + std::to_string(d) +
           " twice or beyond the operand's rank");
    dims.push_back(d);
    sizes.push_back(window[d]);
  }
  Tensor view = operand;
  for (std::size_t d = 0; d != rank; ++d)
    if (!contains(dims, d))
      view = view.slice(0, window[d], static_cast<unsigned>(d));
  std::size_t n = 1;
  for (auto b : batch)
    n *= b;
  std::vector<std::size_t> sShape{n};
  sShape.insert(sShape.end(), window.begin(), window.end());
  Tensor s = updates.dimShuffle(perm).reshape(sShape);
  const Tensor vectors = vectors3.reshape({n, length});
  if (updateComputation) {
    Tensor current = slicing::multiSliceRows(graph, view, vectors, dims, sizes,
                                             slicing::OutOfRange::Skip, prog,
                                             op + "/current");
    Tensor combined = (*updateComputation)(graph, current, s, prog);
    if (combined.shape() != s.shape() ||
        combined.elementType() != operand.elementType())
      fail("the update computation gave " + shapeString(combined.shape()) +
           " of type " + combined.elementType().toString().str() +
           " for windows " + shapeString(s.shape()));
    s = combined;
  }
  slicing::multiUpdateRows(graph, view, s, vectors, dims, sizes,
                           slicing::OutOfRange::Skip, prog, op);
}

} // namespace

void scatter(poplar::Graph &graph, const Tensor &operand, const Tensor &indices,
             const Tensor &updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext) {
  scatterImpl(graph, operand, indices, updates, indexVectorDim,
              updateWindowDims, insertWindowDims, scatterDimsToOperandDims,
              nullptr, prog, opName(debugContext, "scatter"));
}

void scatter(poplar::Graph &graph, const Tensor &operand, const Tensor &indices,
             const Tensor &updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc &updateComputation,
             poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext) {
  scatterImpl(graph, operand, indices, updates, indexVectorDim,
              updateWindowDims, insertWindowDims, scatterDimsToOperandDims,
              &updateComputation, prog, opName(debugContext, "scatter"));
}

} // namespace popops
