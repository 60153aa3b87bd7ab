// SliceRowIndices: turns slice offsets into the rows of a [rows, columns]
// view that the row vertices (DataMovement.cpp) move. The sliced
// dimensions, in the order the operation lists them, are flattened
// row-major into the row index; groups stack their rows one after another.
// A slice that does not fit (offset > dim - size) gives the index
// `invalidRow`, which the row vertices read as zeros and never update
// (mode 0); mode 1 takes every index modulo its dimension instead, and
// mode 2 clamps each offset to [0, dim - size] (XLA's gather), negative
// offsets counting as 0 when `signedOffsets`; mode 3 starts a slice that
// does not fit at 0 (the option remapOutOfBoundIndices).
#include <poplar/Vertex.hpp>

namespace popops {

class SliceRowIndices : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> offsets; // [slices, dims]
  poplar::Output<poplar::Vector<unsigned>> rows;   // [slices, rowsPerSlice]
  poplar::Vector<unsigned> dimSizes;
  poplar::Vector<unsigned> sliceSizes;
  unsigned slicesPerGroup;
  unsigned rowsPerGroup;
  unsigned invalidRow;
  unsigned mode;
  bool signedOffsets;

  bool compute() {
    const unsigned nd = dimSizes.size();
    unsigned perSlice = 1;
    for (unsigned j = 0; j < nd; ++j)
      perSlice *= sliceSizes[j];
    const unsigned slices = nd == 0 ? 0 : offsets.size() / nd;
    for (unsigned n = 0; n < slices; ++n) {
      const unsigned groupBase = (n / slicesPerGroup) * rowsPerGroup;
      for (unsigned p = 0; p < perSlice; ++p) {
        // p's position in the slice, row-major over sliceSizes.
        unsigned rest = p, row = 0, scale = 1;
        bool valid = true;
        for (unsigned j = nd; j-- > 0;) {
          const unsigned a = rest % sliceSizes[j];
          rest /= sliceSizes[j];
          const unsigned d = dimSizes[j], s = sliceSizes[j];
          unsigned o = offsets[n * nd + j];
          unsigned index;
          if (mode == 1) {
            index = (o % d + a) % d;
          } else if (mode == 2) {
            if (signedOffsets && int(o) < 0)
              o = 0;
            index = (o < d - s ? o : d - s) + a;
          } else if (mode == 3) {
            index = (o <= d - s ? o : 0) + a;
          } else {
            valid = valid && o <= d - sliceSizes[j];
            index = o + a;
          }
          row += index * scale;
          scale *= d;
        }
        rows[n * perSlice + p] = valid ? groupBase + row : invalidRow;
      }
    }
    return true;
  }
};

} // namespace popops

namespace popops {

/// CircBuf's index moved one entry on: (index + 1) % hSize.
class CircBufIncrIndex : public poplar::Vertex {
public:
  poplar::InOut<unsigned> index;
  unsigned hSize;

  bool compute() {
    *index = (*index + 1) % hSize;
    return true;
  }
};

/// The index of the entry `offset` entries before indexIn in a circular
/// buffer of hSize entries.
class CircOffset : public poplar::Vertex {
public:
  poplar::Input<unsigned> indexIn;
  poplar::Output<unsigned> indexOut;
  unsigned hSize;
  unsigned offset;

  bool compute() {
    *indexOut = (*indexIn + hSize - offset % hSize) % hSize;
    return true;
  }
};

} // namespace popops
