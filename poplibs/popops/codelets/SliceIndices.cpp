// SliceRowIndices: turns slice offsets into the rows of a [rows, columns]
// view that the row vertices (DataMovement.cpp) move. The sliced
// dimensions, in the order the operation lists them, are flattened
// row-major into the row index; groups stack their rows one after another.
// A slice that does not fit (offset > dim - size) gives the index
// `invalidRow`, which the row vertices read as zeros and never update;
// with `wrap` every index is taken modulo its dimension instead.
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
  bool wrap;

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
          const unsigned d = dimSizes[j], o = offsets[n * nd + j];
          unsigned index;
          if (wrap) {
            index = (o % d + a) % d;
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
