// Reduction vertices. A reduction runs in one or two stages: each tile
// reduces the pieces of every output's row it holds (ReducePartials), then
// the partials of each output are combined, scaled and written or added to
// the output (ReduceFinal). When every row lies on one tile, ReduceFinal
// reads the input directly. Work is split between the worker contexts by
// output.
#include <poplar/Vertex.hpp>
#include <popops/OperationDef.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace popops {

// The value a reduction of nothing gives, and how two values combine.
template <Operation Op, class T> struct ReduceOp {
  static T identity() {
    if constexpr (Op == Operation::ADD || Op == Operation::SQUARE_ADD)
      return T(0);
    else if constexpr (Op == Operation::MUL)
      return T(1);
    else if constexpr (Op == Operation::MIN)
      return std::numeric_limits<T>::has_infinity
                 ? std::numeric_limits<T>::infinity()
                 : std::numeric_limits<T>::max();
    else if constexpr (Op == Operation::MAX)
      return std::numeric_limits<T>::has_infinity
                 ? -std::numeric_limits<T>::infinity()
                 : std::numeric_limits<T>::lowest();
    else if constexpr (Op == Operation::LOGICAL_AND)
      return T(true);
    else if constexpr (Op == Operation::LOGICAL_OR)
      return T(false);
    else
      return -std::numeric_limits<T>::infinity(); // LOG_ADD: log(0)
  }

  static T combine(T a, T b) {
    if constexpr (Op == Operation::ADD || Op == Operation::SQUARE_ADD)
      return a + b;
    else if constexpr (Op == Operation::MUL)
      return a * b;
    else if constexpr (Op == Operation::MIN)
      return b < a ? b : a;
    else if constexpr (Op == Operation::MAX)
      return b > a ? b : a;
    else if constexpr (Op == Operation::LOGICAL_AND)
      return a && b;
    else if constexpr (Op == Operation::LOGICAL_OR)
      return a || b;
    else { // log(exp(a) + exp(b)), kept finite for large values
      if (a == -std::numeric_limits<T>::infinity())
        return b;
      if (b == -std::numeric_limits<T>::infinity())
        return a;
      const T hi = a > b ? a : b, lo = a > b ? b : a;
      return hi + std::log1p(std::exp(lo - hi));
    }
  }

  // An input element as it enters the reduction.
  template <class In> static T map(In x) {
    const T v = static_cast<T>(x);
    if constexpr (Op == Operation::SQUARE_ADD)
      return v * v;
    else
      return v;
  }
};

// The partial type of inputs read as In: half accumulates in float.
template <class In> struct Accumulator { using type = In; };
template <> struct Accumulator<half> { using type = float; };

/// Stage one: out[o] = reduction of the segments of output o.
template <Operation Op, class In, class Partial>
class ReducePartials : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<In>>> in;
  poplar::Output<poplar::Vector<Partial>> out;
  poplar::Vector<unsigned> segmentsPerOutput;
  poplar::Vector<unsigned> firstSegment;

  void compute(unsigned workerId) {
    using R = ReduceOp<Op, Partial>;
    for (unsigned o = workerId; o < out.size(); o += numWorkers()) {
      Partial acc = R::identity();
      const unsigned first = firstSegment[o];
      for (unsigned s = first; s != first + segmentsPerOutput[o]; ++s)
        for (const auto &x : in[s])
          acc = R::combine(acc, R::template map<In>(x));
      out[o] = acc;
    }
  }
};

/// The last stage: the reduction of each output's segments (input elements
/// if MapInput, else partials), scaled, then written or combined with the
/// output's value.
template <Operation Op, class In, class Out, bool MapInput>
class ReduceFinal : public poplar::MultiVertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<In>>> in;
  poplar::InOut<poplar::Vector<Out>> out;
  poplar::Input<float> scale;
  poplar::Vector<unsigned> segmentsPerOutput;
  poplar::Vector<unsigned> firstSegment;
  bool update;

  void compute(unsigned workerId) {
    using Acc = typename Accumulator<In>::type;
    using R = ReduceOp<Op, Acc>;
    for (unsigned o = workerId; o < out.size(); o += numWorkers()) {
      Acc acc = R::identity();
      const unsigned first = firstSegment[o];
      for (unsigned s = first; s != first + segmentsPerOutput[o]; ++s)
        for (const auto &x : in[s])
          acc = MapInput ? R::combine(acc, R::template map<In>(x))
                         : R::combine(acc, static_cast<Acc>(x));
      out[o] = finish(acc, out[o]);
    }
  }

private:
  template <class Acc> Out finish(Acc acc, Out previous) const {
    constexpr bool additive = Op == Operation::ADD ||
                              Op == Operation::SQUARE_ADD ||
                              Op == Operation::LOG_ADD;
    if constexpr (additive) {
      // A LOG_ADD result is a log: its scale multiplies the sum of exps.
      if constexpr (Op == Operation::LOG_ADD) {
        const float scaled = float(acc) + std::log(float(*scale));
        return update ? Out(ReduceOp<Op, float>::combine(float(previous), scaled))
                      : Out(scaled);
      } else if constexpr (std::is_integral_v<Acc>) {
        // Integers stay exact unless a scale other than one is asked for.
        const Acc scaled =
            *scale == 1.0f ? acc : Acc(float(acc) * float(*scale));
        return update ? Out(Acc(previous) + scaled) : Out(scaled);
      } else {
        const float scaled = float(acc) * float(*scale);
        return update ? Out(float(previous) + scaled) : Out(scaled);
      }
    } else {
      return update ? Out(ReduceOp<Op, Acc>::combine(Acc(previous), acc))
                    : Out(acc);
    }
  }
};

#define POPOPS_REDUCE_NUMERIC(OP)                                              \
  template class ReducePartials<Operation::OP, float, float>;                   \
  template class ReducePartials<Operation::OP, half, float>;                    \
  template class ReducePartials<Operation::OP, int, int>;                       \
  template class ReducePartials<Operation::OP, unsigned, unsigned>;             \
  template class ReduceFinal<Operation::OP, float, float, true>;                \
  template class ReduceFinal<Operation::OP, float, half, true>;                 \
  template class ReduceFinal<Operation::OP, half, half, true>;                  \
  template class ReduceFinal<Operation::OP, half, float, true>;                 \
  template class ReduceFinal<Operation::OP, int, int, true>;                    \
  template class ReduceFinal<Operation::OP, unsigned, unsigned, true>;          \
  template class ReduceFinal<Operation::OP, float, float, false>;               \
  template class ReduceFinal<Operation::OP, float, half, false>;                \
  template class ReduceFinal<Operation::OP, int, int, false>;                   \
  template class ReduceFinal<Operation::OP, unsigned, unsigned, false>;

POPOPS_REDUCE_NUMERIC(ADD)
POPOPS_REDUCE_NUMERIC(SQUARE_ADD)
POPOPS_REDUCE_NUMERIC(MUL)
POPOPS_REDUCE_NUMERIC(MIN)
POPOPS_REDUCE_NUMERIC(MAX)
#undef POPOPS_REDUCE_NUMERIC

template class ReducePartials<Operation::LOG_ADD, float, float>;
template class ReducePartials<Operation::LOG_ADD, half, float>;
template class ReduceFinal<Operation::LOG_ADD, float, float, true>;
template class ReduceFinal<Operation::LOG_ADD, float, half, true>;
template class ReduceFinal<Operation::LOG_ADD, half, half, true>;
template class ReduceFinal<Operation::LOG_ADD, half, float, true>;
template class ReduceFinal<Operation::LOG_ADD, float, float, false>;
template class ReduceFinal<Operation::LOG_ADD, float, half, false>;

template class ReducePartials<Operation::LOGICAL_AND, bool, bool>;
template class ReducePartials<Operation::LOGICAL_OR, bool, bool>;
template class ReduceFinal<Operation::LOGICAL_AND, bool, bool, true>;
template class ReduceFinal<Operation::LOGICAL_OR, bool, bool, true>;
template class ReduceFinal<Operation::LOGICAL_AND, bool, bool, false>;
template class ReduceFinal<Operation::LOGICAL_OR, bool, bool, false>;

} // namespace popops
