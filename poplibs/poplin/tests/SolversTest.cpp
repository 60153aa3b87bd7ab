// cholesky, triangularSolve and triangularMask, checked by what they
// promise: L L^T = A (U^T U = A), A X = B (X A = B), computed on the host.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplin/Cholesky.hpp>
#include <poplin/TriangularSolve.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace poplar;
using Catch::Matchers::Contains;
using Floats = std::vector<float>;

namespace {

struct Rig {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  program::Sequence prog;
  std::map<std::string, std::pair<Tensor, Floats>> inputs;
  std::map<std::string, Tensor> outputs;
  Rig() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
  }
  void input(const std::string &name, Tensor t, Floats values) {
    graph.createHostWrite(name, t);
    inputs[name] = {t, std::move(values)};
  }
  void output(const std::string &name, Tensor t) {
    graph.createHostRead(name, t);
    outputs[name] = t;
  }
  std::map<std::string, Floats> run() {
    Engine engine(graph, prog);
    engine.load(device);
    const Target &target = graph.getTarget();
    for (auto &in : inputs) {
      const Floats &v = in.second.second;
      if (in.second.first.elementType() == HALF) {
        std::vector<std::uint16_t> h(v.size());
        copyFloatToDeviceHalf(target, v.data(), h.data(), v.size());
        engine.writeTensor(in.first, h.data(), h.data() + h.size());
      } else {
        engine.writeTensor(in.first, v.data(), v.data() + v.size());
      }
    }
    engine.run(0);
    std::map<std::string, Floats> results;
    for (auto &out : outputs) {
      Floats v(out.second.numElements());
      if (out.second.elementType() == HALF) {
        std::vector<std::uint16_t> h(v.size());
        engine.readTensor(out.first, h.data(), h.data() + h.size());
        copyDeviceHalfToFloat(target, h.data(), v.data(), v.size());
      } else {
        engine.readTensor(out.first, v.data(), v.data() + v.size());
      }
      results[out.first] = v;
    }
    return results;
  }
};

// batch symmetric positive definite n x n matrices: M M^T + n I.
Floats spdMatrices(std::size_t batch, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  Floats out(batch * n * n);
  for (std::size_t b = 0; b != batch; ++b) {
    Floats m(n * n);
    for (auto &v : m)
      v = dist(rng);
    for (std::size_t i = 0; i != n; ++i)
      for (std::size_t j = 0; j != n; ++j) {
        double s = i == j ? double(n) : 0.0;
        for (std::size_t k = 0; k != n; ++k)
          s += double(m[i * n + k]) * m[j * n + k];
        out[(b * n + i) * n + j] = float(s);
      }
  }
  return out;
}

} // namespace

TEST_CASE("cholesky: L L^T = A, U^T U = A", "[poplin][solvers]") {
  const std::size_t batch = 3, n = 6;
  for (const Type type : {FLOAT, HALF}) {
    for (const bool lower : {true, false}) {
      INFO(type.toString().str() << (lower ? " lower" : " upper"));
      const Floats a = spdMatrices(batch, n, 11);
      Rig rig;
      Tensor t = poplin::createCholeskyInput(rig.graph, type, {batch, n, n},
                                             lower, "a");
      rig.input("a", t, a);
      rig.output("factor", poplin::cholesky(rig.graph, t, lower, rig.prog));
      const Floats f = rig.run()["factor"];
      const double tol = type == HALF ? 2e-2 : 1e-4;
      for (std::size_t b = 0; b != batch; ++b) {
        auto F = [&](std::size_t i, std::size_t j) { return f[(b * n + i) * n + j]; };
        for (std::size_t i = 0; i != n; ++i)
          for (std::size_t j = 0; j != n; ++j) {
            if (lower ? j > i : j < i)
              CHECK(F(i, j) == 0.0f);
            double s = 0;
            for (std::size_t k = 0; k != n; ++k)
              s += lower ? double(F(i, k)) * F(j, k) : double(F(k, i)) * F(k, j);
            CHECK(s == Approx(a[(b * n + i) * n + j]).epsilon(tol).margin(tol));
          }
      }
    }
  }
}

TEST_CASE("cholesky of a matrix that is not positive definite gives NaN",
          "[poplin][solvers]") {
  Rig rig;
  Tensor t = poplin::createCholeskyInput(rig.graph, FLOAT, {2, 2}, true, "a");
  rig.input("a", t, {1, 2, 2, 1}); // eigenvalues 3 and -1
  rig.output("factor", poplin::cholesky(rig.graph, t, true, rig.prog));
  const Floats f = rig.run()["factor"];
  CHECK(f[0] == 1.0f);
  CHECK(std::isnan(f[3]));
}

TEST_CASE("triangularSolve: A X = B and X A = B", "[poplin][solvers]") {
  const std::size_t batch = 2, n = 5, k = 3;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (const bool leftSide : {true, false})
    for (const bool lower : {true, false})
      for (const bool unit : {false, true}) {
        INFO((leftSide ? "left" : "right") << (lower ? " lower" : " upper")
                                           << (unit ? " unit" : ""));
        Floats a(batch * n * n), b(batch * n * k);
        for (auto &v : a)
          v = dist(rng);
        for (std::size_t m = 0; m != batch; ++m)
          for (std::size_t i = 0; i != n; ++i)
            a[(m * n + i) * n + i] += 3.0f; // well conditioned
        for (auto &v : b)
          v = dist(rng);
        const std::vector<std::size_t> aShape = {batch, n, n};
        const std::vector<std::size_t> bShape =
            leftSide ? std::vector<std::size_t>{batch, n, k}
                     : std::vector<std::size_t>{batch, k, n};
        Rig rig;
        Tensor ta = poplin::createTriangularSolveInputLHS(
            rig.graph, FLOAT, FLOAT, aShape, bShape, leftSide, "a");
        Tensor tb = poplin::createTriangularSolveInputRHS(
            rig.graph, FLOAT, FLOAT, aShape, bShape, leftSide, "b");
        rig.input("a", ta, a);
        rig.input("b", tb, b);
        rig.output("x", poplin::triangularSolve(rig.graph, ta, tb, leftSide,
                                                lower, unit, rig.prog));
        rig.output("mask", poplin::triangularMask(rig.graph, ta, lower, unit,
                                                  rig.prog));
        auto got = rig.run();
        const Floats &x = got["x"], &mask = got["mask"];
        for (std::size_t m = 0; m != batch; ++m) {
          // The triangle of A that counts, as triangularMask gives it.
          auto T = [&](std::size_t i, std::size_t j) -> double {
            if (i == j && unit)
              return 1.0;
            if (lower ? j > i : j < i)
              return 0.0;
            return a[(m * n + i) * n + j];
          };
          for (std::size_t i = 0; i != n; ++i)
            for (std::size_t j = 0; j != n; ++j)
              CHECK(mask[(m * n + i) * n + j] == float(T(i, j)));
          for (std::size_t r = 0; r != (leftSide ? n : k); ++r)
            for (std::size_t c = 0; c != (leftSide ? k : n); ++c) {
              double s = 0;
              for (std::size_t q = 0; q != n; ++q)
                s += leftSide ? T(r, q) * x[(m * n + q) * k + c]
                              : x[(m * k + r) * n + q] * T(q, c);
              const std::size_t cols = leftSide ? k : n;
              CHECK(s == Approx(b[(m * (leftSide ? n : k) + r) * cols + c])
                             .margin(1e-4));
            }
        }
      }
}

TEST_CASE("The solvers' errors name what is wrong", "[poplin][solvers]") {
  Rig rig;
  Tensor sq = rig.graph.addVariable(FLOAT, {3, 3}, "sq");
  Tensor rect = rig.graph.addVariable(FLOAT, {3, 4}, "rect");
  Tensor ints = rig.graph.addVariable(INT, {3, 3}, "ints");
  CHECK_THROWS_WITH(poplin::cholesky(rig.graph, sq, true, rig.prog, {},
                                     {{"blockSize", "4"}}),
                    Contains("'blockSize'"));
  CHECK_THROWS_WITH(poplin::cholesky(rig.graph, rect, true, rig.prog),
                    Contains("[3, 4]"));
  CHECK_THROWS_WITH(poplin::cholesky(rig.graph, ints, true, rig.prog),
                    Contains("ints") && Contains("FLOAT or HALF"));
  CHECK_THROWS_WITH(
      poplin::triangularSolve(rig.graph, sq, rect, false, true, false, rig.prog),
      Contains("b [3, 4] does not match a [3, 3]"));
  CHECK(poplin::getCholeskyMatMulPrePlanParameters(FLOAT, {2, 3, 3}, true, {})
            .empty());
}
