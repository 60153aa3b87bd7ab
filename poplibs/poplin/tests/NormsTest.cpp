// poplin's normalisation functions against host loops in double: the
// statistics from their definitions, the gradients through the statistics
// by central differences of the host's whitening; the distributed forms
// with a callback standing for replicas that hold the same batch; errors.
#include "TestDevice.hpp"
#include "TestValues.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/Norms.hpp>
#include <popops/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using poplin_test::uniformValues;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t N = 3, C = 4, F = 5; // acts [N][C][F] seen as [N][C][1][F]

std::size_t at(std::size_t n, std::size_t c, std::size_t f) {
  return (n * C + c) * F + f;
}

struct Stats {
  std::vector<double> mean, invStd;
};

Stats hostStats(const std::vector<double> &x, double eps, bool unbiased,
                std::size_t replicas = 1) {
  Stats s{std::vector<double>(C), std::vector<double>(C)};
  const double count = double(N * F * replicas);
  for (std::size_t c = 0; c != C; ++c) {
    double sum = 0, sq = 0;
    for (std::size_t n = 0; n != N; ++n)
      for (std::size_t f = 0; f != F; ++f)
        sum += x[at(n, c, f)];
    s.mean[c] = sum * replicas / count;
    for (std::size_t n = 0; n != N; ++n)
      for (std::size_t f = 0; f != F; ++f)
        sq += std::pow(x[at(n, c, f)] - s.mean[c], 2);
    const double var = sq * replicas / (unbiased ? count - 1 : count);
    s.invStd[c] = 1.0 / std::sqrt(var + eps);
  }
  return s;
}

std::vector<double> whiten(const std::vector<double> &x, double eps) {
  const Stats s = hostStats(x, eps, false);
  std::vector<double> w(x.size());
  for (std::size_t n = 0; n != N; ++n)
    for (std::size_t c = 0; c != C; ++c)
      for (std::size_t f = 0; f != F; ++f)
        w[at(n, c, f)] = (x[at(n, c, f)] - s.mean[c]) * s.invStd[c];
  return w;
}

// d/dx of sum(g * whiten(x)), by central differences.
std::vector<double> numericGradient(const std::vector<double> &x,
                                    const std::vector<double> &g, double eps) {
  std::vector<double> d(x.size());
  const double h = 1e-6;
  for (std::size_t i = 0; i != x.size(); ++i) {
    auto xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    const auto wp = whiten(xp, eps), wm = whiten(xm, eps);
    double lp = 0, lm = 0;
    for (std::size_t j = 0; j != x.size(); ++j) {
      lp += g[j] * wp[j];
      lm += g[j] * wm[j];
    }
    d[i] = (lp - lm) / (2 * h);
  }
  return d;
}

std::vector<double> toDouble(const std::vector<float> &v) {
  return {v.begin(), v.end()};
}

struct Rig {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  Sequence prog;
  std::map<std::string, std::pair<Tensor, std::vector<float>>> in;
  std::map<std::string, Tensor> out;
  Rig() { popops::addCodelets(graph); }
  Tensor input(std::vector<std::size_t> shape, const std::string &name,
               std::vector<float> v) {
    Tensor t = graph.addVariable(FLOAT, shape, name);
    poputil::mapTensorLinearly(graph, t);
    in[name] = {t, std::move(v)};
    return t;
  }
  std::map<std::string, std::vector<float>> run() {
    for (auto &[name, p] : in)
      graph.createHostWrite("w" + name, p.first);
    for (auto &[name, t] : out)
      graph.createHostRead("r" + name, t);
    Engine engine(graph, prog);
    engine.load(device);
    for (auto &[name, p] : in)
      engine.writeTensor("w" + name, p.second.data(),
                         p.second.data() + p.second.size());
    engine.run(0);
    std::map<std::string, std::vector<float>> res;
    for (auto &[name, t] : out) {
      std::vector<float> v(t.numElements());
      engine.readTensor("r" + name, v.data(), v.data() + v.size());
      res[name] = v;
    }
    return res;
  }
};

void checkClose(const std::vector<float> &got, const std::vector<double> &want,
                double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(tol).epsilon(tol));
  }
}

} // namespace

TEST_CASE("poplin norm statistics, whitening and normalising",
          "[poplin][norms]") {
  const float eps = 1e-3f;
  const auto x = uniformValues(N * C * F, 1, -2, 3);
  const auto gamma = uniformValues(C, 2, 0.5f, 1.5f);
  const auto beta = uniformValues(C, 3, -1, 1);
  for (bool unbiased : {false, true}) {
    for (bool stable : {false, true}) {
      DYNAMIC_SECTION("unbiased " << unbiased << ", stable " << stable) {
        Rig rig;
        Tensor acts = rig.input({N, C, 1, F}, "x", x);
        Tensor g = rig.input({C}, "gamma", gamma);
        Tensor b = rig.input({C}, "beta", beta);
        auto [mean, invStd] = poplin::normStatistics(rig.graph, acts, eps,
                                                     rig.prog, unbiased, stable);
        Tensor whitened =
            poplin::normWhiten(rig.graph, acts, mean, invStd, rig.prog);
        Tensor y = poplin::normalise(rig.graph, whitened, g, b, rig.prog);
        rig.out["mean"] = mean;
        rig.out["invStd"] = invStd;
        rig.out["y"] = y;
        auto got = rig.run();
        const Stats s = hostStats(toDouble(x), eps, unbiased);
        checkClose(got["mean"], s.mean, 1e-5);
        checkClose(got["invStd"], s.invStd, 1e-4);
        std::vector<double> want(x.size());
        for (std::size_t n = 0; n != N; ++n)
          for (std::size_t c = 0; c != C; ++c)
            for (std::size_t f = 0; f != F; ++f)
              want[at(n, c, f)] =
                  (x[at(n, c, f)] - s.mean[c]) * s.invStd[c] * gamma[c] + beta[c];
        checkClose(got["y"], want, 1e-4);
      }
    }
  }
}

TEST_CASE("poplin norm gradients", "[poplin][norms]") {
  const float eps = 1e-3f;
  const auto x = uniformValues(N * C * F, 4, -2, 3);
  const auto gy = uniformValues(N * C * F, 5, -1, 1);
  const auto gamma = uniformValues(C, 6, 0.5f, 1.5f);
  Rig rig;
  Tensor acts = rig.input({N, C, F}, "x", x);
  Tensor gradsIn = rig.input({N, C, F}, "gy", gy);
  Tensor g = rig.input({C}, "gamma", gamma);
  auto [mean, invStd] =
      poplin::normStatistics(rig.graph, acts, eps, rig.prog, false);
  Tensor whitened = poplin::normWhiten(rig.graph, acts, mean, invStd, rig.prog);
  auto [gammaDelta, betaDelta] =
      poplin::normParamGradients(rig.graph, whitened, gradsIn, rig.prog);
  Tensor gWhitened = poplin::normGradients(rig.graph, gradsIn, g, rig.prog);
  Tensor dx = poplin::normStatisticsGradients(rig.graph, whitened, gWhitened,
                                              invStd, rig.prog);
  rig.out["gammaDelta"] = gammaDelta;
  rig.out["betaDelta"] = betaDelta;
  rig.out["gWhitened"] = gWhitened;
  rig.out["dx"] = dx;
  auto got = rig.run();
  const auto w = whiten(toDouble(x), eps);
  std::vector<double> wantGamma(C), wantBeta(C), wantGW(x.size()),
      gScaled(x.size());
  for (std::size_t n = 0; n != N; ++n)
    for (std::size_t c = 0; c != C; ++c)
      for (std::size_t f = 0; f != F; ++f) {
        const std::size_t i = at(n, c, f);
        wantGamma[c] += gy[i] * w[i];
        wantBeta[c] += gy[i];
        wantGW[i] = gScaled[i] = double(gy[i]) * gamma[c];
      }
  checkClose(got["gammaDelta"], wantGamma, 1e-4);
  checkClose(got["betaDelta"], wantBeta, 1e-5);
  checkClose(got["gWhitened"], wantGW, 1e-6);
  checkClose(got["dx"], numericGradient(toDouble(x), gScaled, eps), 1e-4);
}

TEST_CASE("poplin distributed norm statistics and gradients",
          "[poplin][norms]") {
  // Two replicas holding the same batch: the callback's sum over a group is
  // the partial result times the group size.
  const float eps = 1e-3f;
  const auto x = uniformValues(N * C * F, 7, -2, 3);
  const auto gy = uniformValues(N * C * F, 8, -1, 1);
  Rig rig;
  std::vector<unsigned> groupSizes;
  poplin::DistributedNormReduceCallback sameOnEveryReplica =
      [&](Graph &graph, const std::vector<Tensor> &inputs, Sequence &prog,
          unsigned groupSize, const DebugContext &dc, const OptionFlags &) {
        groupSizes.push_back(groupSize);
        std::vector<Tensor> sums;
        for (const auto &t : inputs)
          sums.push_back(popops::mul(graph, t, float(groupSize), prog, dc));
        return sums;
      };
  Tensor acts = rig.input({N, C, F}, "x", x);
  Tensor gradsIn = rig.input({N, C, F}, "gy", gy);
  auto [mean, invStd] = poplin::distributedNormStatistics(
      rig.graph, acts, eps, rig.prog, true, sameOnEveryReplica, 2 * N);
  auto [meanStable, invStdStable] = poplin::distributedNormStatistics(
      rig.graph, acts, eps, rig.prog, true, sameOnEveryReplica, 2 * N, true);
  auto [local, localInvStd] = poplin::distributedNormStatistics(
      rig.graph, acts, eps, rig.prog, false, sameOnEveryReplica, N);
  CHECK(groupSizes == std::vector<unsigned>{2, 2, 2}); // not called for N
  Tensor whitened = poplin::normWhiten(rig.graph, acts, local, localInvStd,
                                       rig.prog);
  Tensor dx = poplin::distributedNormStatisticsGradients(
      rig.graph, whitened, gradsIn, localInvStd, rig.prog, sameOnEveryReplica,
      2 * N);
  rig.out["mean"] = mean;
  rig.out["invStd"] = invStd;
  rig.out["meanStable"] = meanStable;
  rig.out["invStdStable"] = invStdStable;
  rig.out["dx"] = dx;
  auto got = rig.run();
  // The statistics of the doubled batch: the same mean, the unbiased
  // variance over 2 N F elements.
  const Stats s = hostStats(toDouble(x), eps, true, 2);
  checkClose(got["mean"], s.mean, 1e-5);
  checkClose(got["invStd"], s.invStd, 1e-4);
  checkClose(got["meanStable"], s.mean, 1e-5);
  checkClose(got["invStdStable"], s.invStd, 1e-4);
  // With the same batch everywhere the means are the local ones, so the
  // gradient is the local one.
  checkClose(got["dx"], numericGradient(toDouble(x), toDouble(gy), eps), 1e-4);
}

TEST_CASE("poplin norm errors", "[poplin][norms]") {
  Rig rig;
  Graph &g = rig.graph;
  auto var = [&](std::vector<std::size_t> shape, const std::string &name,
                 const Type &type = FLOAT) {
    Tensor t = g.addVariable(type, shape, name);
    g.setTileMapping(t, 0);
    return t;
  };
  Tensor acts = var({N, C, F}, "acts");
  CHECK_THROWS_AS(poplin::normStatistics(g, var({5}, "flat"), 1e-3f, rig.prog,
                                         false),
                  poputil::poplibs_error);
  CHECK_THROWS_WITH(poplin::normStatistics(g, var({2, 3}, "ints", INT), 1e-3f,
                                           rig.prog, false),
                    Contains("ints") && Contains("poplin::normStatistics"));
  CHECK_THROWS_WITH(poplin::normWhiten(g, acts, var({C + 1}, "badMean"),
                                       var({C}, "istd"), rig.prog),
                    Contains("badMean"));
  CHECK_THROWS_WITH(poplin::normalise(g, acts, var({C}, "gamma"),
                                      var({2}, "badBeta"), rig.prog),
                    Contains("badBeta"));
  CHECK_THROWS_WITH(poplin::normParamGradients(g, acts, var({N, C, 2}, "badGrads"),
                                               rig.prog),
                    Contains("badGrads"));
  CHECK_THROWS_WITH(poplin::normStatistics(g, acts, 1e-3f, rig.prog, false,
                                           false, INT),
                    Contains("partialsType"));
  poplin::DistributedNormReduceCallback sum =
      [](Graph &, const std::vector<Tensor> &in, Sequence &, unsigned,
         const DebugContext &, const OptionFlags &) { return in; };
  CHECK_THROWS_WITH(poplin::distributedNormStatistics(g, acts, 1e-3f, rig.prog,
                                                      false, sum, N + 1),
                    Contains("normSize"));
  CHECK_THROWS_WITH(poplin::createNormGamma(g, var({4}, "vector")),
                    Contains("vector"));
}
