// MatMulPartial: one block of a matrix product, C = A . B, where A holds
// the block's rows of the left operand (each a slice of k), B the block's
// rows of the right operand (each a slice of n) and C the float partial
// sums. Accumulates in float; the loop order is i-k-j so the innermost
// loop runs over contiguous rows of B and C. A MultiVertex: the workers
// share the rows of C, and when there are fewer rows than workers also
// split the columns.
#include <poplar/Vertex.hpp>

#include <cstdint>

namespace poplin {

template <class InType>
class MatMulPartial : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> A;
  poplar::Vector<poplar::Input<poplar::Vector<InType>>> B;
  poplar::Vector<poplar::Output<poplar::Vector<float>>> C;

  void compute(unsigned wid) {
    const unsigned rows = C.size();
    if (rows == 0)
      return;
    const unsigned cols = C[0].size();
    const unsigned depth = B.size();
    const unsigned workers = numWorkers();
    const unsigned colChunks = rows >= workers ? 1 : (workers + rows - 1) / rows;
    const unsigned units = rows * colChunks;
    for (unsigned u = wid; u < units; u += workers) {
      const unsigned i = u / colChunks, chunk = u % colChunks;
      const unsigned jBegin =
          static_cast<unsigned>(std::uint64_t(cols) * chunk / colChunks);
      const unsigned jEnd =
          static_cast<unsigned>(std::uint64_t(cols) * (chunk + 1) / colChunks);
      float *c = C[i].data();
      for (unsigned j = jBegin; j != jEnd; ++j)
        c[j] = 0.0f;
      const InType *a = A[i].data();
      for (unsigned kk = 0; kk != depth; ++kk) {
        const float av = static_cast<float>(a[kk]);
        const InType *b = B[kk].data();
        for (unsigned j = jBegin; j != jEnd; ++j)
          c[j] += av * static_cast<float>(b[j]);
      }
    }
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
