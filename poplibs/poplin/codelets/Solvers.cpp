// The dense solvers of one matrix of a batch, on one worker: the Cholesky
// factor of a symmetric positive definite matrix, and the solution of a
// triangular system. Matrices are row-major; sums are kept in float.
#include <poplar/Vertex.hpp>

#include <cmath>

namespace poplin {

// a (n x n) becomes its Cholesky factor: L with a = L L^T (zeros above the
// diagonal) when lower, else U = L^T (zeros below). Only the lower
// (lower) or upper triangle of a is read. A matrix that is not positive
// definite gives NaN from its first non-positive pivot on.
template <class T> class Cholesky : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<T>> a;
  unsigned n;
  bool lower;

  // Element (i, j) of the lower triangle, i >= j.
  T &at(unsigned i, unsigned j) { return lower ? a[i * n + j] : a[j * n + i]; }

  void compute() {
    for (unsigned j = 0; j != n; ++j) {
      float d = static_cast<float>(at(j, j));
      for (unsigned k = 0; k != j; ++k)
        d -= static_cast<float>(at(j, k)) * static_cast<float>(at(j, k));
      const float pivot = d > 0.0f ? std::sqrt(d) : std::nanf("");
      at(j, j) = static_cast<T>(pivot);
      for (unsigned i = j + 1; i != n; ++i) {
        float s = static_cast<float>(at(i, j));
        for (unsigned k = 0; k != j; ++k)
          s -= static_cast<float>(at(i, k)) * static_cast<float>(at(j, k));
        at(i, j) = static_cast<T>(s / pivot);
      }
      // The other triangle is zero.
      for (unsigned i = j + 1; i != n; ++i)
        (lower ? a[j * n + i] : a[i * n + j]) = static_cast<T>(0.0f);
    }
  }
};

template class Cholesky<float>;
template class Cholesky<half>;

// x solves the triangular system with a (n x n): a x = b, with b and x
// n x k, when leftSide; else x a = b, with b and x k x n. Only the lower
// (lower) or upper triangle of a is read, and its diagonal is taken as
// ones when unitDiagonal.
template <class T> class TriangularSolve : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> a;
  poplar::Input<poplar::Vector<T>> b;
  poplar::Output<poplar::Vector<T>> x;
  unsigned n;
  unsigned k;
  bool leftSide;
  bool lower;
  bool unitDiagonal;

  float A(unsigned i, unsigned j) const { return a[i * n + j]; }

  void compute() {
    // x a = b is a^T x^T = b^T: the same substitution with a transposed
    // (lower becomes upper) and x, b read by columns.
    const bool forward = leftSide ? lower : !lower;
    for (unsigned c = 0; c != k; ++c) {
      auto elem = [&](unsigned i) -> unsigned {
        return leftSide ? i * k + c : c * n + i;
      };
      for (unsigned step = 0; step != n; ++step) {
        const unsigned i = forward ? step : n - 1 - step;
        float s = b[elem(i)];
        for (unsigned m = 0; m != step; ++m) {
          const unsigned j = forward ? m : n - 1 - m;
          const float coeff = leftSide ? A(i, j) : A(j, i);
          s -= coeff * static_cast<float>(x[elem(j)]);
        }
        x[elem(i)] = static_cast<T>(unitDiagonal ? s : s / A(i, i));
      }
    }
  }
};

template class TriangularSolve<float>;
template class TriangularSolve<half>;

} // namespace poplin
