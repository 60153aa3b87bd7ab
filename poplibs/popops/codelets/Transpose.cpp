// Transpose2D: each of a list of row-major [numSrcRows, numSrcColumns]
// matrices written transposed (popops::rearrange).
#include <poplar/Vertex.hpp>

namespace popops {

template <class T> class Transpose2D : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<T>>> src;
  poplar::Vector<poplar::Output<poplar::Vector<T>>> dst;
  unsigned numSrcRows;
  unsigned numSrcColumns;

  bool compute() {
    for (unsigned k = 0; k < src.size(); ++k)
      for (unsigned r = 0; r < numSrcRows; ++r)
        for (unsigned c = 0; c < numSrcColumns; ++c)
          dst[k][c * numSrcRows + r] = src[k][r * numSrcColumns + c];
    return true;
  }
};
template class Transpose2D<float>;
template class Transpose2D<half>;
template class Transpose2D<int>;
template class Transpose2D<unsigned>;
template class Transpose2D<short>;
template class Transpose2D<unsigned short>;

} // namespace popops
