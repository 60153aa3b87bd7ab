// Collectives between the replicas of a replicated graph: every replica's
// source is read, combined as a ring of replicas would combine it, and the
// result written to every replica's destination. Each element is reduced
// in a fixed order, so results do not depend on the host's threads.
#include "runtime/EngineImpl.hpp"

#include "core/ElementConversion.hpp"
#include "core/TypeInfo.hpp"
#include "runtime/ParallelFor.hpp"

#include <poplar/exceptions.hpp>

#include <cmath>
#include <cstring>

namespace poplar {
namespace {

using Collective = detail::CrossReplicaCollective;
using Op = detail::CrossReplicaOperator;

// Below this many elements a reduction runs on the calling thread.
constexpr std::size_t parallelElements = 64 * 1024;

// One element type's arithmetic: floating-point values combine in double
// and are rounded to the type after each operation (the exact result of
// one float or half operation, rounded once, as the IPU rounds it);
// integers combine in 64 bits and wrap to the type's width.
class ElementArithmetic {
public:
  explicit ElementArithmetic(const Type &type)
      : type(type), bytes(typeSize(type)), floating(isFloatingPoint(type)) {}

  struct Value {
    double f = 0;
    long long i = 0;
  };

  Value load(const unsigned char *p) const {
    Value v;
    if (floating)
      v.f = elementAsDouble(type, p);
    else
      v.i = elementAsInteger(type, p);
    return v;
  }

  void store(const Value &v, unsigned char *p) const {
    if (floating) {
      convertElements(DOUBLE, &v.f, type, p, 1);
      return;
    }
    // Two's complement: the low bytes of the 64-bit result.
    const auto u = static_cast<unsigned long long>(v.i);
    for (std::size_t b = 0; b != bytes; ++b)
      p[b] = static_cast<unsigned char>(u >> (8 * b));
  }

  // A value as the device holds it (rounded to the type).
  Value rounded(const Value &v) const {
    if (!floating)
      return v;
    unsigned char tmp[8];
    store(v, tmp);
    return load(tmp);
  }

  Value square(const Value &a) const {
    Value r;
    r.f = a.f * a.f;
    r.i = static_cast<long long>(static_cast<unsigned long long>(a.i) *
                                 static_cast<unsigned long long>(a.i));
    return rounded(r);
  }

  Value combine(Op op, const Value &a, const Value &b) const {
    Value r;
    switch (op) {
    case Op::ADD:
    case Op::MEAN:
    case Op::SQUARE_ADD:
      r.f = a.f + b.f;
      r.i = static_cast<long long>(static_cast<unsigned long long>(a.i) +
                                   static_cast<unsigned long long>(b.i));
      break;
    case Op::MUL:
      r.f = a.f * b.f;
      r.i = static_cast<long long>(static_cast<unsigned long long>(a.i) *
                                   static_cast<unsigned long long>(b.i));
      break;
    case Op::MIN:
      r.f = std::fmin(a.f, b.f);
      r.i = std::min(a.i, b.i);
      break;
    case Op::MAX:
      r.f = std::fmax(a.f, b.f);
      r.i = std::max(a.i, b.i);
      break;
    case Op::LOGICAL_AND:
      r.i = (a.i != 0) && (b.i != 0);
      break;
    case Op::LOGICAL_OR:
      r.i = (a.i != 0) || (b.i != 0);
      break;
    case Op::LOCAL:
      r = a;
      break;
    }
    return rounded(r);
  }

  Value divide(const Value &a, unsigned n) const {
    Value r;
    r.f = a.f / n;
    r.i = a.i / static_cast<long long>(n);
    return rounded(r);
  }

  std::size_t elementBytes() const { return bytes; }

private:
  Type type;
  std::size_t bytes;
  bool floating;
};

template <class F> void forEachElement(std::size_t n, F &&f) {
  if (n < parallelElements) {
    for (std::size_t i = 0; i != n; ++i)
      f(i);
    return;
  }
  runtime::parallelFor(std::size_t(0), n, [&](std::size_t i) { f(i); });
}

// `acc[i] = acc[i] op b[i]` over a run, the operator chosen once per run
// so that each loop is a plain (vectorisable) loop of float operations.
void combineRun(Op op, float *acc, const float *b, std::size_t n) {
  switch (op) {
  case Op::MUL:
    for (std::size_t i = 0; i != n; ++i)
      acc[i] = acc[i] * b[i];
    return;
  case Op::MIN:
    for (std::size_t i = 0; i != n; ++i)
      acc[i] = std::fmin(acc[i], b[i]);
    return;
  case Op::MAX:
    for (std::size_t i = 0; i != n; ++i)
      acc[i] = std::fmax(acc[i], b[i]);
    return;
  case Op::SQUARE_ADD:
    for (std::size_t i = 0; i != n; ++i)
      acc[i] = acc[i] + b[i] * b[i];
    return;
  default: // ADD, MEAN
    for (std::size_t i = 0; i != n; ++i)
      acc[i] = acc[i] + b[i];
    return;
  }
}

// FLOAT elements combine in float, each operation IEEE single precision
// (the result ElementArithmetic gives, without its conversions), element
// i in the same ring order as `reduce`. The work goes chunk by chunk
// (each chunk has one ring order), in runs of a few thousand elements
// spread over the host's threads.
void reduceFloat(Op op, const std::vector<std::vector<unsigned char>> &inputs,
                 std::size_t numElements, std::size_t chunk, unsigned char *out) {
  const auto n = static_cast<unsigned>(inputs.size());
  std::vector<const float *> in(n);
  for (unsigned r = 0; r != n; ++r)
    in[r] = reinterpret_cast<const float *>(inputs[r].data());
  float *result = reinterpret_cast<float *>(out);
  constexpr std::size_t runElements = 4096;
  const std::size_t runs = (numElements + runElements - 1) / runElements;
  auto reduceRun = [&](std::size_t run) {
    const std::size_t begin = run * runElements;
    const std::size_t end = std::min(numElements, begin + runElements);
    // A run may span chunks: each part has its chunk's ring order.
    for (std::size_t lo = begin; lo < end;) {
      const std::size_t hi = std::min(end, (lo / chunk + 1) * chunk);
      const unsigned first = static_cast<unsigned>((lo / chunk + 1) % n);
      float *acc = result + lo;
      const float *own = in[first] + lo;
      const std::size_t len = hi - lo;
      if (op == Op::SQUARE_ADD)
        for (std::size_t i = 0; i != len; ++i)
          acc[i] = own[i] * own[i];
      else
        std::memcpy(acc, own, len * sizeof(float));
      for (unsigned k = 1; k != n; ++k)
        combineRun(op, acc, in[(first + k) % n] + lo, len);
      if (op == Op::MEAN)
        for (std::size_t i = 0; i != len; ++i)
          acc[i] = acc[i] / float(n);
      lo = hi;
    }
  };
  if (numElements < parallelElements) {
    for (std::size_t run = 0; run != runs; ++run)
      reduceRun(run);
    return;
  }
  runtime::parallelFor(std::size_t(0), runs, reduceRun);
}

// The reduction of element i of every replica's input: chunk j (of
// `chunk` elements) starts in replica j + 1 and travels the ring, each
// replica combining its own value, to end in replica j.
void reduce(const ElementArithmetic &math, Op op,
            const std::vector<std::vector<unsigned char>> &inputs,
            std::size_t numElements, std::size_t chunk, unsigned char *out) {
  const auto n = static_cast<unsigned>(inputs.size());
  const std::size_t eb = math.elementBytes();
  forEachElement(numElements, [&](std::size_t i) {
    const unsigned first = static_cast<unsigned>((i / chunk + 1) % n);
    auto own = [&](unsigned r) {
      const auto v = math.load(inputs[r].data() + i * eb);
      return op == Op::SQUARE_ADD ? math.square(v) : v;
    };
    auto acc = own(first);
    for (unsigned k = 1; k != n; ++k)
      acc = math.combine(op, acc, own((first + k) % n));
    if (op == Op::MEAN)
      acc = math.divide(acc, n);
    math.store(acc, out + i * eb);
  });
}

} // namespace

namespace {

// The collective within one group of replicas (in ring order).
void runGroup(Engine::Impl &engine, const exec::Step &s,
              const std::vector<unsigned> &group) {
  const auto n = static_cast<unsigned>(group.size());
  const std::size_t N = s.access.numElements;
  const std::size_t eb = s.access.elementBytes;
  std::vector<std::vector<unsigned char>> inputs(n);
  for (unsigned k = 0; k != n; ++k) {
    inputs[k].resize(N * eb);
    gatherElements(engine.replicas[group[k]], s.access, inputs[k].data());
  }
  if (s.collective == Collective::AllGather) {
    std::vector<unsigned char> all(N * eb * n);
    for (unsigned k = 0; k != n; ++k)
      std::memcpy(all.data() + k * N * eb, inputs[k].data(), N * eb);
    for (unsigned r : group)
      scatterElements(engine.replicas[r], s.dstAccess, all.data());
    return;
  }
  const std::size_t chunk = std::max<std::size_t>(1, (N + n - 1) / n);
  const bool scatter = s.collective == Collective::ReduceScatter;
  if (s.collectiveOp == Op::LOCAL) {
    // Every replica keeps its own values (its own chunk when scattering).
    for (unsigned k = 0; k != n; ++k) {
      std::vector<unsigned char> mine(s.dstAccess.numElements * eb, 0);
      const std::size_t begin = scatter ? std::min(N, k * chunk) : 0;
      const std::size_t end = scatter ? std::min(N, begin + chunk) : N;
      std::memcpy(mine.data(), inputs[k].data() + begin * eb, (end - begin) * eb);
      scatterElements(engine.replicas[group[k]], s.dstAccess, mine.data());
    }
    return;
  }
  // Reduced elements, padded with zeros to n whole chunks.
  std::vector<unsigned char> reduced(chunk * n * eb, 0);
  if (s.access.type == FLOAT)
    reduceFloat(s.collectiveOp, inputs, N, chunk, reduced.data());
  else
    reduce(ElementArithmetic(s.access.type), s.collectiveOp, inputs, N, chunk,
           reduced.data());
  for (unsigned k = 0; k != n; ++k)
    scatterElements(engine.replicas[group[k]], s.dstAccess,
                    reduced.data() + (scatter ? k * chunk * eb : 0));
}

} // namespace

void runCollective(Engine::Impl &engine, const exec::Step &s) {
  for (const auto &group : s.replicaGroups)
    runGroup(engine, s, group);
}

} // namespace poplar
