// MatMulPartial: one block of a matrix product, C = A . B, where A holds
// the block's rows of the left operand (each a slice of k), B the block's
// rows of the right operand (each a slice of n) and C the partial sums.
// The sums are accumulated in float; HALF partials are rounded once, when
// the block's sums are stored. A MultiVertex: with float operands the
// workers share the column panels of C; other operands are converted to
// float once, by the first worker, which computes every panel.
// A large block (the CPU device's one tile holds a whole product) is
// computed by the first worker on the runtime's host threads, in parts of
// whole panels, each part on one thread; every sum is the same whichever
// thread computes it, so the result does not depend on the thread count.
// The arithmetic is MatMulKernel.hpp's cache- and register-blocked kernel.
#include "MatMulKernel.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <cstring>
#include <type_traits>
#include <vector>

namespace poplin {

template <class InType, class PartialsType>
class MatMulPartial : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> A;
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> B;
  poplar::Vector<poplar::Output<poplar::Vector<PartialsType>>> C;

  void compute(unsigned wid) {
    using kernel::kPanelCols;
    const unsigned rows = C.size();
    if (rows == 0)
      return;
    const unsigned cols = C[0].size();
    const unsigned depth = B.size();
    const unsigned workers = numWorkers();
    const unsigned panels = kernel::numPanels(cols);
    constexpr bool floatIn = std::is_same<InType, float>::value;
    const bool large = double(rows) * cols * depth >= kernel::kHostThreadsMacs;
    // Float operands of a small block: each worker takes every workers-th
    // panel of columns, with all the rows, so that each panel of B is
    // copied once. Otherwise the first worker does everything (converting
    // A once when it is not float) and the other workers have nothing to
    // do; on the host the workers of a vertex run one after another anyway.
    const bool firstWorkerOnly = !floatIn || large;
    if (firstWorkerOnly ? wid != 0 : wid >= panels)
      return;
    // Rows of A that are not float are converted once; the kernel then
    // reads float rows, the same values it would have converted itself.
    thread_local std::vector<float> aFloat;
    if constexpr (!floatIn) {
      aFloat.resize(std::size_t(rows) * depth);
      for (unsigned i = 0; i != rows; ++i)
        kernel::toFloat(A[i].data(), aFloat.data() + std::size_t(i) * depth,
                        depth);
    }
    const float *aConverted = aFloat.data();
    auto a = [&](unsigned i) {
      if constexpr (floatIn)
        return A[i].data();
      else
        return aConverted + std::size_t(i) * depth;
    };
    auto b = [&](unsigned kk) { return B[kk].data(); };
    // Float sums of panel p's columns, for all rows (or for row block
    // `part` of `rowParts` when a large block is shared out), into c(i).
    auto product = [&](auto c, unsigned p, unsigned part, unsigned rowParts) {
      const unsigned col = p * kPanelCols;
      const unsigned colEnd = kernel::panelEnd(col, cols);
      const unsigned row0 = unsigned(std::size_t(rows) * part / rowParts);
      const unsigned row1 = unsigned(std::size_t(rows) * (part + 1) / rowParts);
      kernel::blockProduct<InType, float>(row0, row1, col, colEnd, depth, a, b,
                                          c);
    };
    // Every panel (split into row blocks when there are few panels, so
    // that the threads have enough parts), on the host threads if large.
    auto allPanels = [&](auto c) {
      if (!large) {
        for (unsigned p = 0; p != panels; ++p)
          product(c, p, 0, 1);
        return;
      }
      const unsigned rowParts = kernel::rowPartsForThreads(rows, panels);
      poplar::detail::forEachOnHostThreads(
          std::size_t(panels) * rowParts, [&](std::size_t t) {
            product(c, unsigned(t / rowParts), unsigned(t % rowParts),
                    rowParts);
          });
    };
    if constexpr (std::is_same<PartialsType, float>::value) {
      auto c = [&](unsigned i) { return C[i].data(); };
      if (firstWorkerOnly)
        allPanels(c);
      else
        for (unsigned p = wid; p < panels; p += workers)
          product(c, p, 0, 1);
    } else {
      // The float sums go to a buffer and are rounded once, panel by panel
      // in the order the workers would have taken them one after another
      // (the order in which stochastic rounding draws its bits).
      thread_local std::vector<float> sums;
      sums.resize(std::size_t(rows) * cols);
      float *sumData = sums.data();
      auto c = [&](unsigned i) { return sumData + std::size_t(i) * cols; };
      allPanels(c);
      for (unsigned w = 0; w != workers; ++w)
        for (unsigned p = w; p < panels; p += workers) {
          const unsigned col = p * kPanelCols;
          const unsigned colEnd = kernel::panelEnd(col, cols);
          for (unsigned i = 0; i != rows; ++i)
            for (unsigned j = col; j != colEnd; ++j)
              C[i][j] = static_cast<PartialsType>(c(i)[j]);
        }
    }
  }
};

template class MatMulPartial<float, float>;
template class MatMulPartial<half, float>;
template class MatMulPartial<half, half>;

} // namespace poplin

namespace poplin {

// MatMulReduce: Out[i] = sum over p of In[i * P + p], P = In.size() /
// Out.size(), summed in float and rounded once to OutType. The partials
// are declared interleaved, the memory the reduction's cycle estimate
// assumes (128-bit loads). A MultiVertex: the workers share the rows.
template <class Row> void prefetchRow(const Row &row) {
  const char *p = reinterpret_cast<const char *>(row.data());
  const std::size_t bytes = row.size() * sizeof(row[0]);
  for (std::size_t b = 0; b < bytes; b += 64)
    __builtin_prefetch(p + b);
}

template <class PartialsType, class OutType>
class MatMulReduce : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<
      PartialsType, poplar::VectorLayout::SPAN, 16, true>>>
      In;
  poplar::Vector<poplar::Output<poplar::Vector<OutType>>> Out;

  void compute(unsigned wid) {
    const unsigned rows = Out.size();
    if (rows == 0)
      return;
    const unsigned parts = In.size() / rows;
    // Column chunks summed in a float buffer, one partial at a time, so
    // that the additions run along contiguous rows.
    constexpr unsigned chunk = 256;
    float acc[chunk];
    // Each worker sums a contiguous range of rows, so that it streams
    // through each partial's block.
    const unsigned begin = rows * wid / numWorkers();
    const unsigned end = rows * (wid + 1) / numWorkers();
    for (unsigned i = begin; i < end; ++i) {
      // The next row's partials are fetched while this row is summed.
      if (i + 1 < end)
        for (unsigned q = 0; q != parts; ++q)
          prefetchRow(In[(i + 1) * parts + q]);
      OutType *o = Out[i].data();
      const unsigned cols = Out[i].size();
      for (unsigned j0 = 0; j0 < cols; j0 += chunk) {
        const unsigned w = cols - j0 < chunk ? cols - j0 : chunk;
        for (unsigned j = 0; j != w; ++j)
          acc[j] = 0.0f;
        for (unsigned q = 0; q != parts; ++q) {
          const PartialsType *in = In[i * parts + q].data() + j0;
          for (unsigned j = 0; j != w; ++j)
            acc[j] += static_cast<float>(in[j]);
        }
        if constexpr (std::is_same<OutType, float>::value)
          std::memcpy(o + j0, acc, w * sizeof(float));
        else
          kernel::toHalf(acc, o + j0, w);
      }
    }
  }
};

template class MatMulReduce<float, float>;
template class MatMulReduce<float, half>;
template class MatMulReduce<half, float>;
template class MatMulReduce<half, half>;

} // namespace poplin
