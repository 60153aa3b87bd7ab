// On the CPU device, whose one tile holds a whole product: a product large
// enough to be shared over the host's threads: the same bits for 1, 2 and 8
// threads, FLOAT and HALF, with float and half partials, close to a host
// loop; and a floating-point exception raised by a part that another
// thread computed still stops the run.
#include "TestDevice.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include "TestValues.hpp"
#include <cmath>
#include <cstdint>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

struct Shape {
  std::size_t m, k, n;
};

// At least the 4M multiply-accumulates from which MatMulPartial shares a
// block out: few wide panels split into row blocks, and many panels.
constexpr Shape kShapes[] = {{600, 64, 120}, {130, 40, 1030}};

struct Product {
  Type inType, outType;
  OptionFlags options;
};

// C = A . B on the test device's one tile with `threads` host threads; the
// result's bits (half results widened to float).
std::vector<float> run(const Shape &s, const Product &p,
                       const std::vector<float> &a, const std::vector<float> &b,
                       unsigned threads, const FloatingPointBehaviour *fp) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  Device device = sdktest::createTestDevice(1);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  if (fp)
    setFloatingPointBehaviour(graph, prog, *fp, "fp");
  Tensor A = graph.addVariable(p.inType, {s.m, s.k}, "A");
  Tensor B = graph.addVariable(p.inType, {s.k, s.n}, "B");
  graph.setTileMapping(A, 0);
  graph.setTileMapping(B, 0);
  Tensor C = poplin::matMul(graph, A, B, prog, p.outType, "C", p.options);
  graph.createHostWrite("a", A);
  graph.createHostWrite("b", B);
  graph.createHostRead("c", C);
  Engine engine(graph, prog);
  engine.load(device);
  auto write = [&](const std::string &handle, const std::vector<float> &v) {
    if (p.inType == FLOAT) {
      engine.writeTensor(handle, v.data(), v.data() + v.size());
      return;
    }
    std::vector<std::uint16_t> h(v.size());
    copyFloatToDeviceHalf(graph.getTarget(), v.data(), h.data(), h.size());
    engine.writeTensor(handle, h.data(), h.data() + h.size());
  };
  write("a", a);
  write("b", b);
  engine.run(0);
  std::vector<float> c(s.m * s.n);
  if (p.outType == FLOAT) {
    engine.readTensor("c", c.data(), c.data() + c.size());
  } else {
    std::vector<std::uint16_t> h(c.size());
    engine.readTensor("c", h.data(), h.data() + h.size());
    copyDeviceHalfToFloat(graph.getTarget(), h.data(), c.data(), c.size());
  }
  return c;
}

// The operands as the device holds them (rounded to half for HALF).
std::vector<float> asStored(const std::vector<float> &v, const Type &type) {
  if (type == FLOAT)
    return v;
  const Target target = Target::createCPUTarget();
  std::vector<std::uint16_t> h(v.size());
  std::vector<float> out(v.size());
  copyFloatToDeviceHalf(target, v.data(), h.data(), h.size());
  copyDeviceHalfToFloat(target, h.data(), out.data(), out.size());
  return out;
}

} // namespace

TEST_CASE("A product shared over the host threads gives the same bits for "
          "any thread count",
          "[poplin][matmul]") {
  const Product products[] = {
      {FLOAT, FLOAT, {}},
      {HALF, FLOAT, {}},
      {HALF, HALF, {{"partialsType", "half"}}},
  };
  unsigned seed = 1;
  for (const Shape &s : kShapes) {
    REQUIRE(double(s.m) * s.k * s.n >= double(1 << 22));
    for (const Product &p : products) {
      INFO(s.m << "x" << s.k << "x" << s.n << " " << p.inType.toString().str()
               << " -> " << p.outType.toString().str());
      const auto a = asStored(poplin_test::uniformValues(s.m * s.k, seed++),
                              p.inType);
      const auto b = asStored(poplin_test::uniformValues(s.k * s.n, seed++),
                              p.inType);
      const std::vector<float> one = run(s, p, a, b, 1, nullptr);
      CHECK(poplin_test::sameBits(one, run(s, p, a, b, 2, nullptr)));
      CHECK(poplin_test::sameBits(one, run(s, p, a, b, 8, nullptr)));
      // Against a double-precision host loop: float sums over k, and one
      // rounding to half for HALF results.
      const double tolerance = p.outType == HALF ? 2e-3 : 1e-5;
      for (std::size_t i = 0; i < s.m; i += 7)
        for (std::size_t j = 0; j != s.n; ++j) {
          double want = 0, scale = 0;
          for (std::size_t l = 0; l != s.k; ++l) {
            want += double(a[i * s.k + l]) * double(b[l * s.n + j]);
            scale += std::abs(double(a[i * s.k + l]) * double(b[l * s.n + j]));
          }
          INFO("element " << i << ", " << j);
          REQUIRE(std::abs(double(one[i * s.n + j]) - want) <=
                  tolerance * (scale + 1e-30));
        }
    }
  }
}

TEST_CASE("An overflow in a part another host thread computed stops the run",
          "[poplin][matmul]") {
  const Shape s = kShapes[1];
  // Only the last element of C overflows: the last row of A times the
  // last column of B.
  std::vector<float> a(s.m * s.k, 0.5f), b(s.k * s.n, 0.25f);
  for (std::size_t l = 0; l != s.k; ++l) {
    a[(s.m - 1) * s.k + l] = 1e30f;
    b[l * s.n + s.n - 1] = 1e30f;
  }
  FloatingPointBehaviour overflowTraps(false, false, true, false, false);
  const Product product{FLOAT, FLOAT, {}};
  for (const unsigned threads : {1u, 2u, 8u}) {
    INFO(threads << " threads");
    try {
      run(s, product, a, b, threads, &overflowTraps);
      FAIL("the run did not throw");
    } catch (const application_runtime_error &e) {
      CHECK_THAT(e.what(), Contains("overflow"));
    }
  }
  // Without the exception enabled the element is infinite and the rest
  // are the exact sums.
  const std::vector<float> c = run(s, product, a, b, 2, nullptr);
  CHECK(std::isinf(c.back()));
  CHECK(c.front() == float(s.k) * 0.125f);
}
