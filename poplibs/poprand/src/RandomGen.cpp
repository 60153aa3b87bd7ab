// poprand's operations: each checks its arguments, clones the reference
// for its result, and adds one compute set with a generator vertex on
// every tile holding part of the result (plus, for a null seed, the vertex
// advancing the graph's generator state).
#include <poprand/RandomGen.hpp>
#include <fmt/ranges.h>
#include <poplibs_support/logging.hpp>

#include "RandomEstimates.hpp"

#include <poplar/RandomSeed.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <limits>
#include <string>

using namespace poplar;
using namespace poplar::program;

namespace poprand {
namespace {

constexpr double twoTo32 = 4294967296.0;

[[noreturn]] void fail(const std::string &fn, const std::string &message) {
  throw poputil::poplibs_error("poprand::" + fn + ": " + message);
}

std::string describe(const Tensor &t) { return "'" + t.getDebugStr() + "'"; }

void checkType(const std::string &fn, const Type &type,
               std::initializer_list<Type> allowed, const Tensor &reference) {
  std::string names;
  for (const Type &t : allowed) {
    if (t == type)
      return;
    names += (names.empty() ? "" : ", ") + t.toString().str();
  }
  fail(fn, "output type " + type.toString().str() + " (for reference tensor " +
               describe(reference) + ") is not supported; it supports " +
               names);
}

void checkSeed(const std::string &fn, const Tensor *seed) {
  if (seed && (seed->elementType() != UNSIGNED_INT || seed->numElements() != 2))
    fail(fn, "seed tensor " + describe(*seed) +
                 " must be 2 unsigned int words, not " +
                 std::to_string(seed->numElements()) + " of type " +
                 seed->elementType().toString().str());
}

void checkProbability(const std::string &fn, const char *what, double p) {
  if (!(p >= 0.0 && p <= 1.0))
    fail(fn, std::string(what) + " " + std::to_string(p) +
                 " is not a probability in [0, 1]");
}

// The 64-bit threshold a 32-bit random word is compared with: a word below
// it has probability p.
unsigned long long probabilityThreshold(double p) {
  return static_cast<unsigned long long>(std::llround(p * twoTo32));
}

/// The generator state a call uses: selected by the seed, or the graph's.
Tensor callState(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                 Sequence &prog, const DebugContext &dc) {
  if (!seed)
    return getHwSeeds(graph, prog, dc);
  Tensor state = graph.addVariable(UNSIGNED_INT, {4}, {dc, "state"});
  graph.setTileMapping(state, 0);
  const ComputeSet cs = graph.addComputeSet({dc, "setSeed"});
  VertexRef v = graph.addVertex(cs, "poprand::SetSeed");
  graph.connect(v["seed"], seed->flatten());
  graph.connect(v["state"], state);
  graph.setInitialValue(v["seedModifier"], seedModifier);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, estimates::setSeedCycles);
  prog.add(Execute(cs, dc));
  return state;
}

/// What a generation call adds to its vertices.
struct Generator {
  std::string vertexType;
  unsigned cyclesPerElement;
  std::function<void(Graph &, VertexRef)> setFields;
  const Tensor *input = nullptr; // dropout's input, laid out like the output
};

/// A tile's regions in groups of at most maxElementsPerVertex elements (a
/// longer region is cut), one vertex each: the host runs vertices in
/// parallel, so one tile holding a large result (as on the CPU target)
/// still uses every thread.
constexpr std::size_t maxElementsPerVertex = 1u << 16;

std::vector<std::vector<Interval>>
vertexGroups(const std::vector<Interval> &regions) {
  std::vector<std::vector<Interval>> groups;
  std::size_t inGroup = maxElementsPerVertex;
  for (const Interval &r : regions)
    for (std::size_t at = r.begin(); at != r.end();) {
      if (inGroup == maxElementsPerVertex) {
        groups.emplace_back();
        inGroup = 0;
      }
      const std::size_t end =
          std::min<std::size_t>(r.end(), at + maxElementsPerVertex - inGroup);
      groups.back().emplace_back(at, end);
      inGroup += end - at;
      at = end;
    }
  return groups;
}

/// Fills `out` (a fresh tensor, completely mapped) in one compute set and,
/// for a null seed, advances the graph's state.
void generate(Graph &graph, const std::string &fn, const Tensor &out,
              const Tensor *seed, uint32_t seedModifier, const Generator &gen,
              Sequence &prog, const DebugContext &dc) {
  poplibs_support::logging::poprand::info(
      "{} {}: [{}] {}, {} seed", fn, dc.getPathName(),
      fmt::join(out.shape(), ", "), out.elementType().toString().str(),
      seed ? "given" : "the graph's");
  if (out.numElements() > std::numeric_limits<std::uint32_t>::max())
    fail(fn, "tensor " + describe(out) + " has more than 2^32 elements");
  bool complete = false;
  const auto mapping = graph.getTileMapping(out, &complete);
  if (!complete && out.numElements() != 0)
    fail(fn, "the reference tensor for " + describe(out) +
                 " is not completely mapped to tiles");
  const Tensor state = callState(graph, seed, seedModifier, prog, dc);
  const ComputeSet cs = graph.addComputeSet({dc, fn});
  const Tensor flatOut = out.flatten();
  const Tensor flatIn = gen.input ? gen.input->flatten() : Tensor();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &group : vertexGroups(mapping[tile])) {
      std::vector<Tensor> outs, ins;
      std::vector<unsigned> firstIndex;
      std::vector<std::size_t> sizes;
      for (const Interval &r : group) {
        outs.push_back(flatOut.slice(r));
        if (gen.input)
          ins.push_back(flatIn.slice(r));
        firstIndex.push_back(static_cast<unsigned>(r.begin()));
        sizes.push_back(r.size());
      }
      VertexRef v = graph.addVertex(cs, gen.vertexType);
      graph.connect(v["out"], outs);
      if (gen.input)
        graph.connect(v["in"], ins);
      graph.setInitialValue(v["firstIndex"], ArrayRef<unsigned>(firstIndex));
      graph.connect(v["state"], state);
      gen.setFields(graph, v);
      graph.setTileMapping(v, tile);
      graph.setPerfEstimate(v, estimates::generatorCycles(
                                   sizes, workers, gen.cyclesPerElement));
    }
  if (!seed) {
    Tensor next = graph.addVariable(UNSIGNED_INT, {4}, {dc, "nextState"});
    graph.setTileMapping(next, 0);
    VertexRef v = graph.addVertex(cs, "poprand::NextState");
    graph.connect(v["state"], state);
    graph.connect(v["next"], next);
    graph.setTileMapping(v, 0);
    graph.setPerfEstimate(v, estimates::nextStateCycles);
    prog.add(Execute(cs, dc));
    setHwSeeds(graph, next, prog, dc);
  } else {
    prog.add(Execute(cs, dc));
  }
}

// The smallest and largest values of `type` in [minVal, maxVal].
std::pair<double, double> representableInterval(const Type &type, double minVal,
                                                double maxVal) {
  if (type == INT)
    return {
        std::ceil(minVal),
        std::min(std::floor(maxVal), double(std::numeric_limits<int>::max()))};
  if (type == FLOAT) {
    float lo = static_cast<float>(minVal), hi = static_cast<float>(maxVal);
    if (lo < minVal)
      lo = std::nextafter(lo, std::numeric_limits<float>::infinity());
    if (hi > maxVal)
      hi = std::nextafter(hi, 0.0f);
    return {lo, hi};
  }
  // HALF, for values >= 1 (all normal): 11 significant bits, at most 65504.
  auto ulp = [](double x) { return std::ldexp(1.0, std::ilogb(x) - 10); };
  const double lo = std::ceil(minVal / ulp(minVal)) * ulp(minVal);
  const double hi =
      std::min(65504.0, std::floor(maxVal / ulp(maxVal)) * ulp(maxVal));
  return {lo, hi};
}

Tensor dropoutImpl(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                   const Tensor &input, const Tensor &reference,
                   double keepProbability, double scale, bool outputClonesRef,
                   Sequence &prog, const DebugContext &debugContext) {
  const std::string fn = "dropout";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, input.elementType(), {FLOAT, HALF}, reference);
  if (input.shape() != reference.shape())
    fail(fn, "input tensor " + describe(input) + " and reference tensor " +
                 describe(reference) + " must have the same shape");
  checkProbability(fn, "keepProbability", keepProbability);
  Tensor out = graph.clone(input.elementType(),
                           outputClonesRef ? reference : input, {dc, "out"});
  const unsigned long long threshold = probabilityThreshold(keepProbability);
  Generator gen{
      poputil::templateVertex("poprand::Dropout", input.elementType()),
      estimates::dropoutCycles,
      [=](Graph &g, VertexRef v) {
        g.setInitialValue(v["threshold"], threshold);
        g.setInitialValue(v["scale"], static_cast<float>(scale));
      },
      &input};
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

} // namespace

Tensor dropout(Graph &graph, const Tensor *seed, const uint32_t seedModifier,
               const Tensor &input, const Tensor &reference,
               double keepProbability, double scale, Sequence &prog,
               const DebugContext &debugContext) {
  return dropoutImpl(graph, seed, seedModifier, input, reference,
                     keepProbability, scale, true, prog, debugContext);
}

Tensor dropout(Graph &graph, const Tensor *seed, const uint32_t seedModifier,
               const Tensor &input, const Tensor &reference,
               double keepProbability, double scale, bool outputClonesRef,
               Sequence &prog, const DebugContext &debugContext) {
  return dropoutImpl(graph, seed, seedModifier, input, reference,
                     keepProbability, scale, outputClonesRef, prog,
                     debugContext);
}

Tensor shapedDropout(Graph &graph, const Tensor *seed,
                     const uint32_t seedModifier, const Tensor &input,
                     const Tensor &reference, double keepProbability,
                     double scale, Sequence &prog,
                     const DebugContext &debugContext) {
  const std::string fn = "shapedDropout";
  const DebugContext dc(debugContext, fn);
  checkType(fn, input.elementType(), {FLOAT, HALF}, reference);
  const auto &in = input.shape();
  const auto &ref = reference.shape();
  bool broadcastable = ref.size() <= in.size();
  for (std::size_t i = 0; broadcastable && i != ref.size(); ++i) {
    const std::size_t d = ref[ref.size() - 1 - i];
    broadcastable = d == 1 || d == in[in.size() - 1 - i];
  }
  if (!broadcastable)
    fail(fn, "reference tensor " + describe(reference) +
                 " cannot be broadcast to input tensor " + describe(input));
  checkProbability(fn, "keepProbability", keepProbability);
  const Tensor mask =
      bernoulli(graph, seed, seedModifier, reference, input.elementType(),
                keepProbability, prog, {dc, "mask"});
  namespace pe = popops::expr;
  return popops::map(
      graph,
      pe::Mul(pe::Mul(pe::_1, pe::_2), pe::Const(static_cast<float>(scale))),
      {input, mask}, prog, {dc, "apply"});
}

Tensor uniform(Graph &graph, const Tensor *seed, uint32_t seedModifier,
               const Tensor &reference, const Type &outType, double minVal,
               double maxVal, Sequence &prog,
               const DebugContext &debugContext) {
  const std::string fn = "uniform";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, outType, {FLOAT, HALF, INT}, reference);
  if (!(maxVal >= minVal))
    fail(fn, "maxVal " + std::to_string(maxVal) + " is less than minVal " +
                 std::to_string(minVal) + " (reference tensor " +
                 describe(reference) + ")");
  Generator gen;
  if (outType == INT) {
    const double range = maxVal - minVal + 1;
    if (minVal != std::floor(minVal) || maxVal != std::floor(maxVal) ||
        minVal < std::numeric_limits<int>::min() ||
        maxVal > std::numeric_limits<int>::max())
      fail(fn, "for int the interval [" + std::to_string(minVal) + ", " +
                   std::to_string(maxVal) + "] must have int ends");
    const auto r = static_cast<unsigned long long>(range);
    const int lo = static_cast<int>(minVal);
    gen = {"poprand::UniformInt", estimates::uniformIntCycles,
           [=](Graph &g, VertexRef v) {
             g.setInitialValue(v["minVal"], lo);
             g.setInitialValue(v["range"], r);
           }};
  } else {
    gen = {poputil::templateVertex("poprand::Uniform", outType),
           estimates::uniformCycles, [=](Graph &g, VertexRef v) {
             g.setInitialValue(v["minVal"], static_cast<float>(minVal));
             g.setInitialValue(v["scale"], static_cast<float>(maxVal - minVal));
           }};
  }
  Tensor out = graph.clone(outType, reference, {dc, "out"});
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

Tensor logUniform(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                  const Tensor &reference, const Type &outType, double minVal,
                  double maxVal, Sequence &prog, double base,
                  const DebugContext &debugContext) {
  const std::string fn = "logUniform";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, outType, {FLOAT, HALF, INT}, reference);
  if (!(minVal >= 1.0))
    fail(fn, "minVal " + std::to_string(minVal) + " is less than 1");
  if (!(maxVal > minVal))
    fail(fn, "maxVal " + std::to_string(maxVal) +
                 " is not greater than minVal " + std::to_string(minVal));
  if (!(base > 0.0) || base == 1.0 || !std::isfinite(base))
    fail(fn, "base " + std::to_string(base) + " is not a logarithm base");
  // Plain variables: a lambda below captures them.
  const auto interval = representableInterval(outType, minVal, maxVal);
  const double lo = interval.first, hi = interval.second;
  if (lo > hi)
    fail(fn, "no " + outType.toString().str() + " value lies in [" +
                 std::to_string(minVal) + ", " + std::to_string(maxVal) +
                 "] (reference tensor " + describe(reference) + ")");
  const float logMin = static_cast<float>(std::log(lo));
  const float logMax = static_cast<float>(std::log(hi));
  Generator gen{poputil::templateVertex("poprand::LogUniform", outType),
                estimates::logUniformCycles, [=](Graph &g, VertexRef v) {
                  g.setInitialValue(v["logMin"], logMin);
                  g.setInitialValue(v["logMax"], logMax);
                  g.setInitialValue(v["lo"], static_cast<float>(lo));
                  g.setInitialValue(v["hi"], static_cast<float>(hi));
                }};
  Tensor out = graph.clone(outType, reference, {dc, "out"});
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

Tensor bernoulli(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                 const Tensor &reference, const Type &outType, double prob,
                 Sequence &prog, const DebugContext &debugContext) {
  const std::string fn = "bernoulli";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, outType, {FLOAT, HALF, INT}, reference);
  checkProbability(fn, "prob", prob);
  const unsigned long long threshold = probabilityThreshold(prob);
  Generator gen{poputil::templateVertex("poprand::Bernoulli", outType),
                estimates::bernoulliCycles, [=](Graph &g, VertexRef v) {
                  g.setInitialValue(v["threshold"], threshold);
                }};
  Tensor out = graph.clone(outType, reference, {dc, "out"});
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

Tensor normal(Graph &graph, const Tensor *seed, uint32_t seedModifier,
              const Tensor &reference, const Type &outType, double mean,
              double stdDev, Sequence &prog, const DebugContext &debugContext) {
  const std::string fn = "normal";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, outType, {FLOAT, HALF}, reference);
  if (!(stdDev >= 0.0))
    fail(fn, "stdDev " + std::to_string(stdDev) + " is negative");
  Generator gen{poputil::templateVertex("poprand::Normal", outType),
                estimates::normalCycles, [=](Graph &g, VertexRef v) {
                  g.setInitialValue(v["mean"], static_cast<float>(mean));
                  g.setInitialValue(v["stdDev"], static_cast<float>(stdDev));
                }};
  Tensor out = graph.clone(outType, reference, {dc, "out"});
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

Tensor truncatedNormal(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                       const Tensor &reference, const Type &outType,
                       double mean, double stdDev, double alpha, Sequence &prog,
                       const DebugContext &debugContext) {
  const std::string fn = "truncatedNormal";
  const DebugContext dc(debugContext, fn);
  checkSeed(fn, seed);
  checkType(fn, outType, {FLOAT, HALF}, reference);
  if (!(stdDev >= 0.0))
    fail(fn, "stdDev " + std::to_string(stdDev) + " is negative");
  if (!(alpha > 0.0))
    fail(fn, "alpha " + std::to_string(alpha) + " is not positive");
  Generator gen{poputil::templateVertex("poprand::TruncatedNormal", outType),
                estimates::truncatedNormalCycles, [=](Graph &g, VertexRef v) {
                  g.setInitialValue(v["mean"], static_cast<float>(mean));
                  g.setInitialValue(v["stdDev"], static_cast<float>(stdDev));
                  g.setInitialValue(v["alpha"], static_cast<float>(alpha));
                }};
  Tensor out = graph.clone(outType, reference, {dc, "out"});
  generate(graph, fn, out, seed, seedModifier, gen, prog, dc);
  return out;
}

void setSeed(Graph &graph, const Tensor &masterSeed, uint32_t seedModifier,
             Sequence &prog, const DebugContext &debugContext) {
  const DebugContext dc(debugContext, "setSeed");
  checkSeed("setSeed", &masterSeed);
  setHwSeeds(graph, callState(graph, &masterSeed, seedModifier, prog, dc), prog,
             dc);
}

} // namespace poprand
