// Cycle estimates of the data-movement vertices (codelets/DataMovement.cpp).
// These are plain Vertex classes run by one worker, so unlike the
// MultiVertex families there is no factor of six; each is a fixed start-up
// plus a cost per row it handles:
//
//   vertex                        cycles
//   DynamicSlice, DynamicUpdate,  20 + rows * (10 + ceil(columns / 2))
//   MultiSlice, MultiUpdate       (a 64-bit copy moves two 32-bit columns)
//   MultiUpdateOp (add/max/mul)   20 + rows * (10 + 3 * columns)
//                                 (load, combine in float, store)
//   EncodeOneHot                  20 + rows * (8 + ceil(columns / 2))
//   SortRows                      20 + rows * (10 + 4 * n * max(1, ceil(log2 n)))
//   TopKRows                      20 + rows * (10 + 6 * n)
//   gathering k positions         20 + 10 * k
//   Histogram                     20 + n * (4 + 2 * ceil(log2(levels + 1)))
//                                 for n elements (a binary search each)
//   Transpose2D                   20 + matrices * (10 + elements of one)
//   SliceRowIndices               20 + n * (4 + 3 * dims) for n row indices
//                                 of slices along `dims` dimensions
//   SelectFromRows                20 + 8 * rows
//   UpdateInRows                  20 + 10 * pieces (a piece: the part of a
//                                 row on the tile; the NaN fill of a row
//                                 with a bad index is not counted)
//
// `rows` is the number of rows the vertex moves (slices, updates, encoded
// rows), `columns` the columns of each on the vertex's tile, `n` the
// length of a row being sorted.
#ifndef POPOPS_SRC_DATAMOVEMENTESTIMATES_HPP
#define POPOPS_SRC_DATAMOVEMENTESTIMATES_HPP

#include <cstddef>
#include <cstdint>

namespace popops {
namespace detail {

constexpr std::uint64_t movementVertexOverhead = 20;

inline std::uint64_t rowCopyCycles(std::size_t rows, std::size_t columns) {
  return movementVertexOverhead + rows * (10 + (columns + 1) / 2);
}

inline std::uint64_t rowCombineCycles(std::size_t rows, std::size_t columns) {
  return movementVertexOverhead + rows * (10 + 3 * columns);
}

inline std::uint64_t oneHotCycles(std::size_t rows, std::size_t columns) {
  return movementVertexOverhead + rows * (8 + (columns + 1) / 2);
}

inline std::uint64_t sortRowsCycles(std::size_t rows, std::size_t n) {
  std::uint64_t logN = 1;
  while ((std::uint64_t(1) << logN) < n)
    ++logN;
  return movementVertexOverhead + rows * (10 + 4 * n * logN);
}

inline std::uint64_t topKRowsCycles(std::size_t rows, std::size_t n) {
  return movementVertexOverhead + rows * (10 + 6 * n);
}

inline std::uint64_t transposeCycles(std::size_t matrices,
                                     std::size_t elements) {
  return movementVertexOverhead + matrices * (10 + elements);
}

inline std::uint64_t histogramCycles(std::size_t n, std::size_t levels) {
  std::uint64_t steps = 0;
  while ((std::uint64_t(1) << steps) < levels + 1)
    ++steps;
  return movementVertexOverhead + n * (4 + 2 * steps);
}

inline std::uint64_t rowIndicesCycles(std::size_t n, std::size_t dims) {
  return movementVertexOverhead + n * (4 + 3 * dims);
}

inline std::uint64_t gatherPositionsCycles(std::size_t k) {
  return movementVertexOverhead + 10 * k;
}

inline std::uint64_t selectFromRowsCycles(std::size_t rows) {
  return movementVertexOverhead + 8 * rows;
}

inline std::uint64_t updateInRowsCycles(std::size_t pieces) {
  return movementVertexOverhead + 10 * pieces;
}

} // namespace detail
} // namespace popops

#endif // POPOPS_SRC_DATAMOVEMENTESTIMATES_HPP
