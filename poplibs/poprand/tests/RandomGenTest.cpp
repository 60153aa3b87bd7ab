// poprand on every test device: the distributions' statistics (mean,
// variance and a Kolmogorov-Smirnov bound against the exact CDF, with fixed
// seeds), ranges, dropout, the seed semantics (same seed same values, the
// graph's state advancing from call to call and run to run), independence
// from tile mapping and host thread count, and the errors.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/RandomSeed.hpp>
#include <poplar/exceptions.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

constexpr std::uint32_t hostSeed[2] = {0xDEADBEEF, 0x12345678};

struct Rig {
  Device device;
  Graph graph;
  Sequence prog;
  Tensor seed;
  explicit Rig(unsigned tiles = 4)
      : device(sdktest::createTestDevice(tiles)), graph(device.getTarget()) {
    popops::addCodelets(graph);
    poprand::addCodelets(graph);
    seed = graph.addVariable(UNSIGNED_INT, {2}, "seed");
    graph.setTileMapping(seed, 0);
    graph.createHostWrite("seed", seed);
  }
  Tensor reference(std::vector<std::size_t> shape, const Type &type = FLOAT) {
    Tensor t = graph.addVariable(type, shape, "ref");
    poputil::mapTensorLinearly(graph, t);
    return t;
  }
};

/// The values of `outs` (read as doubles) after `runs` runs of the rig's
/// program in one Engine, run by run.
std::vector<std::vector<std::vector<double>>>
runAndRead(Rig &r, const std::vector<Tensor> &outs, unsigned runs = 1,
           const OptionFlags &engineOptions = {}) {
  for (std::size_t i = 0; i != outs.size(); ++i)
    r.graph.createHostRead("out" + std::to_string(i), outs[i]);
  Engine e(r.graph, r.prog, engineOptions);
  e.load(r.device);
  e.writeTensor("seed", hostSeed, hostSeed + 2);
  std::vector<std::vector<std::vector<double>>> result;
  for (unsigned run = 0; run != runs; ++run) {
    e.run(0);
    std::vector<std::vector<double>> values;
    for (std::size_t i = 0; i != outs.size(); ++i) {
      const std::string h = "out" + std::to_string(i);
      const std::size_t n = outs[i].numElements();
      std::vector<double> v(n);
      const Type t = outs[i].elementType();
      if (t == FLOAT) {
        std::vector<float> x(n);
        e.readTensor(h, x.data(), x.data() + n);
        std::copy(x.begin(), x.end(), v.begin());
      } else if (t == HALF) {
        std::vector<std::uint16_t> x(n);
        std::vector<float> f(n);
        e.readTensor(h, x.data(), x.data() + n);
        copyDeviceHalfToFloat(r.graph.getTarget(), x.data(), f.data(), n);
        std::copy(f.begin(), f.end(), v.begin());
      } else if (t == INT) {
        std::vector<int> x(n);
        e.readTensor(h, x.data(), x.data() + n);
        std::copy(x.begin(), x.end(), v.begin());
      } else {
        std::vector<unsigned> x(n);
        e.readTensor(h, x.data(), x.data() + n);
        std::copy(x.begin(), x.end(), v.begin());
      }
      values.push_back(std::move(v));
    }
    result.push_back(std::move(values));
  }
  return result;
}

std::vector<double> runOne(Rig &r, const Tensor &out) {
  return runAndRead(r, {out})[0][0];
}

double mean(const std::vector<double> &v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

double variance(const std::vector<double> &v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v)
    s += (x - m) * (x - m);
  return s / double(v.size() - 1);
}

/// The Kolmogorov-Smirnov statistic of the sample against a CDF.
double ksStatistic(std::vector<double> v,
                   const std::function<double(double)> &cdf) {
  std::sort(v.begin(), v.end());
  const double n = double(v.size());
  double d = 0;
  for (std::size_t i = 0; i != v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, double(i + 1) / n - f, f - double(i) / n});
  }
  return d;
}

/// The KS critical value at significance 0.001 (1.95 / sqrt(n)); a correct
/// generator exceeds it once in a thousand seeds, and the seeds are fixed.
double ksBound(std::size_t n) { return 1.95 / std::sqrt(double(n)); }

double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

constexpr std::size_t sampleSize = 20000;

} // namespace

TEST_CASE("uniform float: range, moments and distribution",
          "[poprand][uniform]") {
  Rig r;
  const Tensor out =
      poprand::uniform(r.graph, &r.seed, 7, r.reference({100, 200}), FLOAT,
                       -2.0, 3.0, r.prog, "u");
  REQUIRE(out.shape() == std::vector<std::size_t>{100, 200});
  const auto v = runOne(r, out);
  for (double x : v) {
    REQUIRE(x >= -2.0);
    REQUIRE(x <= 3.0);
  }
  // The mean's standard error is 5 / sqrt(12 n) = 0.01.
  CHECK(std::abs(mean(v) - 0.5) < 0.05);
  CHECK(std::abs(variance(v) - 25.0 / 12.0) < 0.1);
  CHECK(ksStatistic(v, [](double x) { return (x + 2.0) / 5.0; }) <
        ksBound(v.size()));
}

TEST_CASE("uniform float follows the documented Philox formula",
          "[poprand][uniform]") {
  Rig r;
  const Tensor out = poprand::uniform(r.graph, &r.seed, 3, r.reference({1000}),
                                      FLOAT, 0.0, 1.0, r.prog);
  const auto v = runOne(r, out);
  // Values are multiples of 2^-24 in [0, 1): a 24-bit draw.
  for (double x : v) {
    REQUIRE(x >= 0.0);
    REQUIRE(x < 1.0);
    REQUIRE(std::ldexp(x, 24) == std::floor(std::ldexp(x, 24)));
  }
}

TEST_CASE("uniform half and int", "[poprand][uniform]") {
  Rig r;
  const Tensor ref = r.reference({sampleSize});
  const Tensor h =
      poprand::uniform(r.graph, &r.seed, 1, ref, HALF, 1.0, 2.0, r.prog, "h");
  const Tensor i =
      poprand::uniform(r.graph, &r.seed, 2, ref, INT, -3, 4, r.prog, "i");
  const Tensor one = poprand::uniform(r.graph, &r.seed, 2, r.reference({10}),
                                      INT, 5, 5, r.prog, "one");
  CHECK(h.elementType() == HALF);
  CHECK(i.elementType() == INT);
  const auto v = runAndRead(r, {h, i, one})[0];
  for (double x : v[0]) {
    REQUIRE(x >= 1.0);
    REQUIRE(x <= 2.0);
  }
  CHECK(std::abs(mean(v[0]) - 1.5) < 0.02);
  // Eight values, each with probability 1/8: a count's standard deviation
  // is sqrt(n * 1/8 * 7/8) = 47; allow 5 of them.
  std::vector<std::size_t> counts(8, 0);
  for (double x : v[1]) {
    REQUIRE(x >= -3);
    REQUIRE(x <= 4);
    REQUIRE(x == std::floor(x));
    ++counts[std::size_t(x + 3)];
  }
  for (std::size_t c : counts)
    CHECK(std::abs(double(c) - sampleSize / 8.0) < 5 * 47);
  for (double x : v[2])
    CHECK(x == 5);
}

TEST_CASE("normal: moments and distribution", "[poprand][normal]") {
  Rig r;
  const Tensor ref = r.reference({sampleSize});
  const Tensor f =
      poprand::normal(r.graph, &r.seed, 0, ref, FLOAT, 1.5, 2.0, r.prog, "n");
  const Tensor h =
      poprand::normal(r.graph, &r.seed, 1, ref, HALF, -1.0, 0.5, r.prog, "nh");
  const auto v = runAndRead(r, {f, h})[0];
  // Standard error of the mean 2 / sqrt(n) = 0.014.
  CHECK(std::abs(mean(v[0]) - 1.5) < 0.07);
  CHECK(std::abs(variance(v[0]) - 4.0) < 0.2);
  CHECK(ksStatistic(v[0], [](double x) { return normalCdf((x - 1.5) / 2.0); }) <
        ksBound(sampleSize));
  CHECK(std::abs(mean(v[1]) + 1.0) < 0.02);
  CHECK(std::abs(std::sqrt(variance(v[1])) - 0.5) < 0.02);
}

TEST_CASE("truncatedNormal: bounds and distribution", "[poprand][normal]") {
  for (double alpha : {0.3, 2.0}) {
    INFO("alpha " << alpha);
    Rig r;
    const Tensor out =
        poprand::truncatedNormal(r.graph, &r.seed, 5, r.reference({sampleSize}),
                                 FLOAT, 10.0, 3.0, alpha, r.prog, "t");
    const auto v = runOne(r, out);
    const double lo = 10.0 - alpha * 3.0, hi = 10.0 + alpha * 3.0;
    for (double x : v) {
      REQUIRE(x >= lo - 1e-5);
      REQUIRE(x <= hi + 1e-5);
    }
    const double a = normalCdf(-alpha), b = normalCdf(alpha);
    CHECK(ksStatistic(v, [&](double x) {
            return (normalCdf((x - 10.0) / 3.0) - a) / (b - a);
          }) < ksBound(sampleSize));
    CHECK(std::abs(mean(v) - 10.0) < 0.1);
  }
}

TEST_CASE("bernoulli: frequency, the certain cases and int output",
          "[poprand][bernoulli]") {
  Rig r;
  const Tensor ref = r.reference({sampleSize});
  const Tensor p =
      poprand::bernoulli(r.graph, &r.seed, 0, ref, FLOAT, 0.3, r.prog, "b");
  const Tensor zero =
      poprand::bernoulli(r.graph, &r.seed, 0, ref, HALF, 0.0, r.prog);
  const Tensor one =
      poprand::bernoulli(r.graph, &r.seed, 0, ref, INT, 1.0, r.prog);
  const auto v = runAndRead(r, {p, zero, one})[0];
  for (double x : v[0])
    REQUIRE((x == 0.0 || x == 1.0));
  // Standard deviation of the frequency sqrt(0.21 / n) = 0.0032.
  CHECK(std::abs(mean(v[0]) - 0.3) < 0.016);
  CHECK(std::all_of(v[1].begin(), v[1].end(), [](double x) { return x == 0; }));
  CHECK(std::all_of(v[2].begin(), v[2].end(), [](double x) { return x == 1; }));
}

TEST_CASE("logUniform: range, log-uniformity, int and half squeezing",
          "[poprand][logUniform]") {
  Rig r;
  const Tensor ref = r.reference({sampleSize});
  const Tensor f = poprand::logUniform(r.graph, &r.seed, 0, ref, FLOAT, 1.0,
                                       1000.0, r.prog, 10.0, "lu");
  const Tensor i =
      poprand::logUniform(r.graph, &r.seed, 1, ref, INT, 1.5, 100.2, r.prog);
  const Tensor h = poprand::logUniform(r.graph, &r.seed, 2, ref, HALF, 2049.0,
                                       4098.0, r.prog);
  const auto v = runAndRead(r, {f, i, h})[0];
  for (double x : v[0]) {
    REQUIRE(x >= 1.0);
    REQUIRE(x <= 1000.0);
  }
  CHECK(ksStatistic(v[0], [](double x) {
          return std::log(x) / std::log(1000.0);
        }) < ksBound(sampleSize));
  for (double x : v[1]) {
    REQUIRE(x >= 2);
    REQUIRE(x <= 100);
    REQUIRE(x == std::floor(x));
  }
  // Half's representable ends of [2049, 4098] are 2050 and 4096.
  for (double x : v[2]) {
    REQUIRE(x >= 2050.0);
    REQUIRE(x <= 4096.0);
  }
  CHECK(*std::min_element(v[2].begin(), v[2].end()) < 2100.0);
  CHECK(*std::max_element(v[2].begin(), v[2].end()) > 4000.0);
}

TEST_CASE("dropout keeps the right fraction, scales it, and repeats its mask",
          "[poprand][dropout]") {
  for (const Type &type : {FLOAT, HALF}) {
    INFO(type.toString().str());
    Rig r;
    Tensor in = r.reference({50, 400}, type);
    std::vector<float> hostIn(in.numElements());
    for (std::size_t i = 0; i != hostIn.size(); ++i)
      hostIn[i] = float(int(i % 7) + 1);
    Tensor inConst = r.graph.addConstant(type, in.shape(), hostIn.data(), "x");
    poputil::mapTensorLinearly(r.graph, inConst);
    const Tensor a = poprand::dropout(r.graph, &r.seed, 9, inConst, in, 0.8,
                                      1.25, r.prog, "drop");
    const Tensor b = poprand::dropout(r.graph, &r.seed, 9, inConst, in, 0.8,
                                      1.25, false, r.prog, "again");
    const Tensor c = poprand::dropout(r.graph, &r.seed, 10, inConst, in, 0.8,
                                      1.25, r.prog, "other");
    const auto v = runAndRead(r, {a, b, c})[0];
    std::size_t kept = 0, differ = 0;
    for (std::size_t i = 0; i != hostIn.size(); ++i) {
      const double x = v[0][i];
      REQUIRE((x == 0.0 || x == double(hostIn[i]) * 1.25));
      kept += x != 0.0;
      REQUIRE(v[1][i] == x); // same seed and modifier, same mask
      differ += (v[2][i] != 0.0) != (x != 0.0);
    }
    // Standard deviation of the kept fraction sqrt(0.16 / n) = 0.0028.
    CHECK(std::abs(double(kept) / double(hostIn.size()) - 0.8) < 0.015);
    CHECK(differ > hostIn.size() / 10);
  }
}

TEST_CASE("shapedDropout drops whole rows", "[poprand][dropout]") {
  Rig r;
  Tensor in = r.reference({400, 5});
  std::vector<float> ones(in.numElements(), 1.0f);
  Tensor x = r.graph.addConstant(FLOAT, in.shape(), ones.data(), "x");
  poputil::mapTensorLinearly(r.graph, x);
  const Tensor out = poprand::shapedDropout(
      r.graph, &r.seed, 0, x, r.reference({400, 1}), 0.5, 2.0, r.prog, "sd");
  REQUIRE(out.shape() == in.shape());
  const auto v = runOne(r, out);
  std::size_t keptRows = 0;
  for (std::size_t row = 0; row != 400; ++row) {
    for (std::size_t col = 0; col != 5; ++col)
      REQUIRE(v[row * 5 + col] == v[row * 5]);
    REQUIRE((v[row * 5] == 0.0 || v[row * 5] == 2.0));
    keptRows += v[row * 5] != 0.0;
  }
  CHECK(keptRows > 150);
  CHECK(keptRows < 250);
}

TEST_CASE("A null seed uses the graph's state: new values each call and "
          "run, the same from one Engine to the next",
          "[poprand][seed]") {
  auto build = [](Rig &r) {
    const Tensor ref = r.reference({64});
    return std::vector<Tensor>{
        poprand::uniform(r.graph, nullptr, 0, ref, FLOAT, 0, 1, r.prog),
        poprand::uniform(r.graph, nullptr, 0, ref, FLOAT, 0, 1, r.prog)};
  };
  Rig r1, r2;
  const auto first = runAndRead(r1, build(r1), 2);
  const auto second = runAndRead(r2, build(r2), 2);
  CHECK(first == second);
  CHECK(first[0][0] != first[0][1]); // call to call
  CHECK(first[0][0] != first[1][0]); // run to run
}

TEST_CASE("setSeed then a null seed gives the values of that seed given "
          "directly; getHwSeeds/setHwSeeds save and restore the state",
          "[poprand][seed]") {
  Rig r;
  const Tensor ref = r.reference({500});
  poprand::setSeed(r.graph, r.seed, 42, r.prog, "setSeed");
  const Tensor saved = getHwSeeds(r.graph, r.prog, "saved");
  const Tensor viaState =
      poprand::normal(r.graph, nullptr, 0, ref, FLOAT, 0, 1, r.prog);
  const Tensor direct =
      poprand::normal(r.graph, &r.seed, 42, ref, FLOAT, 0, 1, r.prog);
  const Tensor advanced =
      poprand::normal(r.graph, nullptr, 0, ref, FLOAT, 0, 1, r.prog);
  setHwSeeds(r.graph, saved, r.prog, "restore");
  const Tensor replayed =
      poprand::normal(r.graph, nullptr, 0, ref, FLOAT, 0, 1, r.prog);
  const auto v =
      runAndRead(r, {viaState, direct, advanced, replayed, saved})[0];
  CHECK(v[0] == v[1]);
  CHECK(v[2] != v[0]);
  CHECK(v[3] == v[0]);
  CHECK(v[4][2] == 0); // a new seed's counter starts at 0
  CHECK(v[4][3] == 0);
}

TEST_CASE("Values do not depend on tile mapping or host thread count",
          "[poprand][determinism]") {
  // The same 40x30 reference mapped three ways: linearly on 4 tiles, all on
  // tile 1, and in interleaved pieces on tiles 3, 0, 2.
  auto build = [](Rig &r, int mapping) {
    Tensor ref = r.graph.addVariable(FLOAT, {40, 30}, "ref");
    const unsigned numTiles = r.graph.getTarget().getNumTiles(); // 1 on Cpu
    if (mapping == 0) {
      poputil::mapTensorLinearly(r.graph, ref);
    } else if (mapping == 1) {
      r.graph.setTileMapping(ref, 1 % numTiles);
    } else {
      const unsigned tiles[3] = {3, 0, 2};
      for (std::size_t row = 0; row != 40; ++row)
        r.graph.setTileMapping(ref[row], tiles[row % 3] % numTiles);
    }
    return std::vector<Tensor>{
        poprand::uniform(r.graph, &r.seed, 1, ref, FLOAT, -1, 1, r.prog),
        poprand::normal(r.graph, nullptr, 0, ref, HALF, 0, 1, r.prog),
        poprand::truncatedNormal(r.graph, &r.seed, 2, ref, FLOAT, 0, 1, 1.5,
                                 r.prog),
        poprand::bernoulli(r.graph, nullptr, 0, ref, INT, 0.5, r.prog)};
  };
  std::vector<std::vector<std::vector<double>>> results;
  for (int mapping = 0; mapping != 3; ++mapping) {
    Rig r;
    results.push_back(runAndRead(r, build(r, mapping))[0]);
  }
  {
    tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism,
                                  1);
    Rig r;
    results.push_back(runAndRead(r, build(r, 2))[0]);
  }
  {
    tbb::global_control twoThreads(tbb::global_control::max_allowed_parallelism,
                                   2);
    Rig r(16);
    results.push_back(runAndRead(r, build(r, 0))[0]);
  }
  for (std::size_t i = 1; i != results.size(); ++i) {
    INFO("variant " << i);
    CHECK(results[i] == results[0]);
  }
}

TEST_CASE("poprand errors name the tensor and the fault", "[poprand][errors]") {
  Rig r;
  const Tensor ref = r.reference({8});
  const Tensor badSeed = r.graph.addVariable(INT, {2}, "badSeed");
  r.graph.setTileMapping(badSeed, 0);
  using poputil::poplibs_error;
  REQUIRE_THROWS_WITH(
      poprand::normal(r.graph, &r.seed, 0, ref, INT, 0, 1, r.prog),
      Contains("poprand::normal") && Contains("int") && Contains("'ref'"));
  REQUIRE_THROWS_AS(
      poprand::uniform(r.graph, &badSeed, 0, ref, FLOAT, 0, 1, r.prog),
      poplibs_error);
  REQUIRE_THROWS_WITH(
      poprand::uniform(r.graph, &badSeed, 0, ref, FLOAT, 0, 1, r.prog),
      Contains("badSeed"));
  REQUIRE_THROWS_WITH(
      poprand::uniform(r.graph, &r.seed, 0, ref, FLOAT, 2, 1, r.prog),
      Contains("maxVal"));
  REQUIRE_THROWS_WITH(
      poprand::uniform(r.graph, &r.seed, 0, ref, INT, 0.5, 3, r.prog),
      Contains("int ends"));
  REQUIRE_THROWS_WITH(
      poprand::bernoulli(r.graph, &r.seed, 0, ref, FLOAT, 1.5, r.prog),
      Contains("not a probability"));
  const Tensor other = r.reference({9});
  REQUIRE_THROWS_WITH(
      poprand::dropout(r.graph, &r.seed, 0, other, ref, 0.5, 2, r.prog),
      Contains("same shape") && Contains("'ref'"));
  REQUIRE_THROWS_WITH(poprand::shapedDropout(r.graph, &r.seed, 0, ref,
                                             r.reference({3}), 0.5, 2, r.prog),
                      Contains("cannot be broadcast"));
  REQUIRE_THROWS_WITH(
      poprand::logUniform(r.graph, &r.seed, 0, ref, FLOAT, 0.5, 4, r.prog),
      Contains("less than 1"));
  REQUIRE_THROWS_WITH(
      poprand::logUniform(r.graph, &r.seed, 0, ref, INT, 2.2, 2.8, r.prog),
      Contains("no int value"));
  REQUIRE_THROWS_WITH(poprand::truncatedNormal(r.graph, &r.seed, 0, ref, FLOAT,
                                               0, 1, 0, r.prog),
                      Contains("alpha"));
  REQUIRE_THROWS_AS(setHwSeeds(r.graph, ref, r.prog), poplar_error);
  const Tensor unmapped = r.graph.addVariable(FLOAT, {4}, "unmapped");
  REQUIRE_THROWS_WITH(
      poprand::uniform(r.graph, &r.seed, 0, unmapped, FLOAT, 0, 1, r.prog),
      Contains("not completely mapped"));
}

TEST_CASE("A tile holding more than one vertex's worth gives the same values",
          "[poprand][determinism]") {
  // 150,000 elements on one tile take three vertices (at most 65,536
  // elements each); spread linearly they take one per tile. (One tile
  // cannot hold them all on the IPU Models: the memory check is off.)
  std::vector<std::vector<double>> values;
  for (bool oneTile : {true, false}) {
    Rig r;
    Tensor ref = r.graph.addVariable(FLOAT, {150000}, "ref");
    if (oneTile)
      r.graph.setTileMapping(ref, 0);
    else
      poputil::mapTensorLinearly(r.graph, ref);
    const Tensor out =
        poprand::uniform(r.graph, &r.seed, 4, ref, FLOAT, 0, 1, r.prog);
    values.push_back(
        runAndRead(r, {out}, 1, {{"debug.allowOutOfMemory", "true"}})[0][0]);
  }
  CHECK(values[0] == values[1]);
  CHECK(std::abs(mean(values[0]) - 0.5) < 0.01);
}

TEST_CASE("Replicas draw their own numbers from the graph's generator and "
          "the same numbers from a given seed",
          "[poprand][replication]") {
  constexpr unsigned replicas = 2;
  Device device = sdktest::createTestDevice(
      sdktest::deviceTypeFromEnvironment(), replicas, 4);
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  poprand::addCodelets(graph);
  Tensor ref = graph.addVariable(FLOAT, {64}, "ref");
  poputil::mapTensorLinearly(graph, ref);
  Tensor seed = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {7u, 9u});
  graph.setTileMapping(seed, 0);
  Sequence prog;
  Tensor fromGraph = poprand::uniform(graph, nullptr, 0, ref, FLOAT, 0.0, 1.0, prog);
  Tensor fromSeed = poprand::uniform(graph, &seed, 0, ref, FLOAT, 0.0, 1.0, prog);
  graph.createHostRead("fromGraph", fromGraph);
  graph.createHostRead("fromSeed", fromSeed);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  std::vector<float> a(64 * replicas), b(64 * replicas);
  engine.readTensor("fromGraph", a.data(), a.data() + a.size());
  engine.readTensor("fromSeed", b.data(), b.data() + b.size());
  CHECK(std::vector<float>(a.begin(), a.begin() + 64) !=
        std::vector<float>(a.begin() + 64, a.end()));
  CHECK(std::vector<float>(b.begin(), b.begin() + 64) ==
        std::vector<float>(b.begin() + 64, b.end()));
}
