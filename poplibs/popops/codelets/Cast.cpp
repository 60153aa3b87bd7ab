// Casts over a list of regions: out[r][i] = cast<Out>(in[r][i]), with the
// conversions of ElementwiseOps.hpp (ops::cast). A MultiVertex.
// A large cast (the CPU device's one tile casting a whole tensor) is done
// by the first worker on the runtime's host threads, in runs of elements,
// unless stochastic rounding is on (its draws follow the element order).
#include "CodeletUtil.hpp"
#include "ElementwiseOps.hpp"

#include <poplar/Vertex.hpp>
#include <poplar/detail/HostParallel.hpp>

#include <cstddef>
#include <vector>

namespace popops {

template <class In, class Out> class Cast2D : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<In>>> in;
  poplar::Vector<poplar::Output<poplar::Vector<Out>>> out;

  void compute(unsigned wid) {
    if (castOnHostThreads(wid))
      return;
    for (unsigned r = 0; r != out.size(); ++r) {
      const auto range = codelet::workerRange(out[r].size(), wid, numWorkers());
      const In *x = in[r].data();
      Out *y = out[r].data();
      for (unsigned i = range.begin; i != range.end; ++i)
        y[i] = ops::cast<Out>(x[i]);
    }
  }

private:
  // Casts every element on the host threads and returns true when the
  // vertex is large and no rounding draws random bits.
  bool castOnHostThreads(unsigned wid) {
    constexpr std::size_t kMinElements = std::size_t(1) << 18;
    constexpr unsigned kRun = 1u << 14;
    std::size_t total = 0;
    for (unsigned r = 0; r != out.size(); ++r)
      total += out[r].size();
    const bool stochastic = (poplar::detail::floatingPointControl().behaviour &
                             poplar::detail::fpStochasticRounding) != 0;
    if (total < kMinElements || stochastic)
      return false;
    if (wid != 0)
      return true;
    struct Run {
      unsigned row, begin, end;
    };
    std::vector<Run> runs;
    for (unsigned r = 0; r != out.size(); ++r) {
      const unsigned size = static_cast<unsigned>(out[r].size());
      for (unsigned b = 0; b < size; b += kRun)
        runs.push_back({r, b, size - b < kRun ? size : b + kRun});
    }
    poplar::detail::forEachOnHostThreads(runs.size(), [&](std::size_t t) {
      const Run &run = runs[t];
      const In *x = in[run.row].data();
      Out *y = out[run.row].data();
      for (unsigned i = run.begin; i != run.end; ++i)
        y[i] = ops::cast<Out>(x[i]);
    });
    return true;
  }
};

// Every pair of types of castTypes() in src/ExprOpInfo.cpp (the same type
// twice for cast(graph, src, dst, cs) between tensors of one type).
#define CAST_FROM(In)                                                          \
  template class Cast2D<In, float>;                                            \
  template class Cast2D<In, half>;                                             \
  template class Cast2D<In, int>;                                              \
  template class Cast2D<In, unsigned int>;                                     \
  template class Cast2D<In, short>;                                            \
  template class Cast2D<In, unsigned short>;                                   \
  template class Cast2D<In, bool>;                                             \
  template class Cast2D<In, char>;                                             \
  template class Cast2D<In, signed char>;                                      \
  template class Cast2D<In, unsigned char>;

CAST_FROM(float)
CAST_FROM(half)
CAST_FROM(int)
CAST_FROM(unsigned int)
CAST_FROM(short)
CAST_FROM(unsigned short)
CAST_FROM(bool)
CAST_FROM(char)
CAST_FROM(signed char)
CAST_FROM(unsigned char)

} // namespace popops
