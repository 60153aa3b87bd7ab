// MatMulPartial: one block of a matrix product, C = A . B, where A holds
// the block's rows of the left operand (each a slice of k), B the block's
// rows of the right operand (each a slice of n) and C the float partial
// sums. Accumulates in float. A MultiVertex: the workers share the column
// panels of C, and the rows when there are fewer panels than workers.
// The arithmetic is MatMulKernel.hpp's cache- and register-blocked kernel.
#include "MatMulKernel.hpp"

#include <poplar/Vertex.hpp>

namespace poplin {

template <class InType>
class MatMulPartial : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> A;
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> B;
  poplar::Vector<poplar::Output<poplar::Vector<float>>> C;

  void compute(unsigned wid) {
    using kernel::kGroupRows;
    using kernel::kPanelCols;
    const unsigned rows = C.size();
    if (rows == 0)
      return;
    const unsigned cols = C[0].size();
    const unsigned depth = B.size();
    const unsigned workers = numWorkers();
    const unsigned panels = (cols + kPanelCols - 1) / kPanelCols;
    auto a = [&](unsigned i) { return A[i].data(); };
    auto b = [&](unsigned kk) { return B[kk].data(); };
    auto c = [&](unsigned i) { return C[i].data(); };
    if (panels >= workers) {
      // Every worker takes every workers-th panel, all rows.
      for (unsigned p = wid; p < panels; p += workers) {
        const unsigned col = p * kPanelCols;
        const unsigned colEnd = col + kPanelCols < cols ? col + kPanelCols : cols;
        kernel::blockProduct<InType>(0, rows, col, colEnd, depth, a, b, c);
      }
      return;
    }
    // Fewer panels than workers: each panel's rows are cut into groups of
    // whole register blocks, at least two per worker so that the copy of
    // the panel is shared by enough rows.
    const unsigned groups = (rows + kGroupRows - 1) / kGroupRows;
    unsigned rowParts = workers / panels;
    if (rowParts > (groups + 1) / 2)
      rowParts = (groups + 1) / 2 > 0 ? (groups + 1) / 2 : 1;
    if (wid >= panels * rowParts)
      return;
    const unsigned p = wid % panels, part = wid / panels;
    const unsigned col = p * kPanelCols;
    const unsigned colEnd = col + kPanelCols < cols ? col + kPanelCols : cols;
    const unsigned g0 = groups * part / rowParts;
    const unsigned g1 = groups * (part + 1) / rowParts;
    const unsigned rowBegin = g0 * kGroupRows < rows ? g0 * kGroupRows : rows;
    const unsigned rowEnd = g1 * kGroupRows < rows ? g1 * kGroupRows : rows;
    kernel::blockProduct<InType>(rowBegin, rowEnd, col, colEnd, depth, a, b,
                                 c);
  }
};

template class MatMulPartial<float>;
template class MatMulPartial<half>;

} // namespace poplin

namespace poplin {

// MatMulReduce: Out[i] = sum over p of In[i * P + p], P = In.size() /
// Out.size(), summed in float and rounded once to OutType. A MultiVertex:
// the workers share the rows.
template <class OutType>
class MatMulReduce : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<float>>> In;
  poplar::Vector<poplar::Output<poplar::Vector<OutType>>> Out;

  void compute(unsigned wid) {
    const unsigned rows = Out.size();
    if (rows == 0)
      return;
    const unsigned parts = In.size() / rows;
    for (unsigned i = wid; i < rows; i += numWorkers()) {
      OutType *o = Out[i].data();
      const unsigned cols = Out[i].size();
      for (unsigned j = 0; j != cols; ++j) {
        float acc = 0.0f;
        for (unsigned q = 0; q != parts; ++q)
          acc += In[i * parts + q][j];
        o[j] = static_cast<OutType>(acc);
      }
    }
  }
};

template class MatMulReduce<float>;
template class MatMulReduce<half>;

} // namespace poplin
