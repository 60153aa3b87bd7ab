// Reduction vertices. A reduction runs in one or two stages: each tile
// reduces the pieces of every output's row it holds (ReducePartials), then
// the partials of each output are combined, scaled and written or added to
// the output (ReduceFinal). When every row lies on one tile, ReduceFinal
// reads the input directly. Work is split between the worker contexts by
// output; a worker reduces its outputs four side by side, each output's
// elements still combined one after the other in order.
#include <poplar/Vertex.hpp>
#include <popops/OperationDef.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
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

// Where the next input element of one output's reduction is: the rest of
// the current segment, and the segments after it.
template <class In> struct SegmentCursor {
  const In *next = nullptr;
  std::size_t left = 0;
  unsigned segment = 0, endSegment = 0;

  // Moves to the next segment with elements; false at the end.
  template <class Segments> bool fill(const Segments &in) {
    while (left == 0) {
      if (segment == endSegment)
        return false;
      next = in[segment].data();
      left = in[segment].size();
      ++segment;
    }
    return true;
  }
};

// The reductions of outputs `outputs[0 .. count)`, count at most
// `lanes`: each output's elements are combined one after the other in
// order, as a plain loop would, but the outputs advance side by side so
// that their chains of dependent operations overlap in the pipeline (a
// long sum otherwise waits the latency of an addition per element).
// Returns each output's value in acc.
template <class R, bool MapInput, class In, class Acc, class Segments,
          class Counts>
void reduceSideBySide(const Segments &in, const Counts &segmentsPerOutput,
                      const Counts &firstSegment, const unsigned *outputs,
                      unsigned count, Acc *acc) {
  constexpr unsigned lanes = 4;
  SegmentCursor<In> cursor[lanes];
  for (unsigned k = 0; k != count; ++k) {
    acc[k] = R::identity();
    cursor[k].segment = firstSegment[outputs[k]];
    cursor[k].endSegment = cursor[k].segment + segmentsPerOutput[outputs[k]];
  }
  auto element = [](const In &x) {
    if constexpr (MapInput)
      return R::template map<In>(x);
    else
      return static_cast<Acc>(x);
  };
  if (count == lanes) {
    for (;;) {
      bool all = true;
      for (unsigned k = 0; k != lanes; ++k)
        all &= cursor[k].fill(in);
      if (!all)
        break;
      std::size_t n = cursor[0].left;
      for (unsigned k = 1; k != lanes; ++k)
        n = std::min(n, cursor[k].left);
      const In *p0 = cursor[0].next, *p1 = cursor[1].next,
               *p2 = cursor[2].next, *p3 = cursor[3].next;
      Acc a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
      for (std::size_t i = 0; i != n; ++i) {
        a0 = R::combine(a0, element(p0[i]));
        a1 = R::combine(a1, element(p1[i]));
        a2 = R::combine(a2, element(p2[i]));
        a3 = R::combine(a3, element(p3[i]));
      }
      acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
      for (unsigned k = 0; k != lanes; ++k) {
        cursor[k].next += n;
        cursor[k].left -= n;
      }
    }
  }
  for (unsigned k = 0; k != count; ++k)
    while (cursor[k].fill(in)) {
      Acc a = acc[k];
      for (std::size_t i = 0; i != cursor[k].left; ++i)
        a = R::combine(a, element(cursor[k].next[i]));
      acc[k] = a;
      cursor[k].left = 0;
    }
}

// Calls f(o, value) for each output o of worker `workerId`, the worker's
// outputs reduced four side by side.
template <class R, bool MapInput, class In, class Acc, class Segments,
          class Counts, class F>
void forEachReducedOutput(const Segments &in, const Counts &segmentsPerOutput,
                          const Counts &firstSegment, std::size_t numOutputs,
                          unsigned workerId, unsigned numWorkers, F &&f) {
  constexpr unsigned lanes = 4;
  unsigned outputs[lanes];
  Acc acc[lanes];
  std::size_t o = workerId;
  while (o < numOutputs) {
    unsigned count = 0;
    for (; count != lanes && o < numOutputs; ++count, o += numWorkers)
      outputs[count] = unsigned(o);
    reduceSideBySide<R, MapInput, In>(in, segmentsPerOutput, firstSegment,
                                      outputs, count, acc);
    for (unsigned k = 0; k != count; ++k)
      f(outputs[k], acc[k]);
  }
}

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
    forEachReducedOutput<R, true, In, Partial>(
        in, segmentsPerOutput, firstSegment, out.size(), workerId,
        numWorkers(), [&](unsigned o, Partial acc) { out[o] = acc; });
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
    forEachReducedOutput<R, MapInput, In, Acc>(
        in, segmentsPerOutput, firstSegment, out.size(), workerId,
        numWorkers(),
        [&](unsigned o, Acc acc) { out[o] = finish(acc, out[o]); });
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
