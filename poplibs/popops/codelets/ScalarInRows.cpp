// One element per row: selectScalarFromRows and updateScalarInRows. An
// index of 0xFFFFFFFF (MASKED_LABEL_CODE) marks a row to leave alone.
#include <poplar/Vertex.hpp>

#include <limits>

namespace popops {

constexpr unsigned maskedLabel = 0xFFFFFFFFu;

/// out[r] = rows[r][indices[r]]; NaN past the row's end, 0 when masked.
/// Each row is connected whole (gathered onto the tile of out[r]).
template <class T> class SelectFromRows : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> indices;
  poplar::Vector<poplar::Input<poplar::Vector<T>>> rows;
  poplar::Output<poplar::Vector<T>> out;
  unsigned width;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      const unsigned i = indices[r];
      if (i == maskedLabel)
        out[r] = T(0.0f);
      else if (i < width)
        out[r] = rows[r][i];
      else
        out[r] = T(std::numeric_limits<float>::quiet_NaN());
    }
    return true;
  }
};

/// Pieces of rows held by one tile: piece p starts at column firstColumn[p]
/// of a row whose index is indices[p]. Subtracts 1 at the index, or fills
/// the piece with NaN when the index is past the row's end (width).
template <class T> class UpdateInRows : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> indices;
  poplar::Vector<poplar::InOut<poplar::Vector<T>>> pieces;
  poplar::Vector<unsigned> firstColumn;
  unsigned width;

  bool compute() {
    for (unsigned p = 0; p < pieces.size(); ++p) {
      const unsigned i = indices[p];
      auto &piece = pieces[p];
      if (i == maskedLabel)
        continue;
      if (i >= width) {
        for (unsigned c = 0; c < piece.size(); ++c)
          piece[c] = T(std::numeric_limits<float>::quiet_NaN());
      } else if (i >= firstColumn[p] && i - firstColumn[p] < piece.size()) {
        auto &x = piece[i - firstColumn[p]];
        x = T(float(x) - 1.0f);
      }
    }
    return true;
  }
};

template class SelectFromRows<float>;
template class SelectFromRows<half>;
template class UpdateInRows<float>;
template class UpdateInRows<half>;

} // namespace popops
