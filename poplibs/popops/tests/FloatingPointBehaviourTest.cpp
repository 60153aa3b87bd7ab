// poplar/CSRFunctions.hpp as the devices honour it, through popops'
// vertices: enabled floating-point exceptions stop the run with
// poplar::application_runtime_error naming the vertex and the exception;
// NaN on overflow; stochastic rounding of float to half (its mean is the
// value rounded); the behaviour saved and restored; the engine option.
#include "TestDevice.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace poplar;
using Catch::Matchers::Contains;

namespace {

struct Case {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  program::Sequence prog;
  Case() { popops::addCodelets(graph); }

  Tensor constant(const Type &type, std::size_t n, float value) {
    Tensor t = graph.addVariable(type, {n}, "x");
    poputil::mapTensorLinearly(graph, t, 1, 1);
    std::vector<float> values(n, value);
    if (type == FLOAT) {
      graph.setInitialValue(t, ArrayRef<float>(values));
    } else {
      std::vector<std::uint16_t> h(n);
      copyFloatToDeviceHalf(graph.getTarget(), values.data(), h.data(), n);
      graph.setInitialValueHalf(t, ArrayRef<std::uint16_t>(h));
    }
    return t;
  }

  // Runs the program; the values of `out` as floats.
  std::vector<float> run(const Tensor &out, const OptionFlags &options = {}) {
    graph.createHostRead("out", out);
    Engine engine(graph, prog, options);
    engine.load(device);
    engine.run();
    const std::size_t n = out.numElements();
    std::vector<float> v(n);
    if (out.elementType() == FLOAT) {
      engine.readTensor("out", v.data(), v.data() + n);
    } else {
      std::vector<std::uint16_t> h(n);
      engine.readTensor("out", h.data(), h.data() + n);
      copyDeviceHalfToFloat(graph.getTarget(), h.data(), v.data(), n);
    }
    return v;
  }
};

} // namespace

TEST_CASE("Floating-point exceptions stop the run when enabled",
          "[popops][csr]") {
  struct Op {
    const char *what;
    Type type;
    float a, b;
    bool divide;
  };
  for (const Op op : {Op{"overflow", FLOAT, 1e30f, 1e30f, false},
                      Op{"overflow", HALF, 60000.0f, 60000.0f, false},
                      Op{"invalid operation", FLOAT, 0.0f, 0.0f, true},
                      Op{"division by zero", FLOAT, 1.0f, 0.0f, true}}) {
    for (const bool enabled : {false, true}) {
      INFO(op.what << " " << op.type.toString().str() << " enabled "
                   << enabled);
      Case c;
      FloatingPointBehaviour behaviour; // all on
      behaviour.esr = false;
      if (!enabled)
        behaviour = FloatingPointBehaviour(false, false, false, false, false);
      setFloatingPointBehaviour(c.graph, c.prog, behaviour, "fp");
      Tensor a = c.constant(op.type, 8, op.a), b = c.constant(op.type, 8, op.b);
      Tensor out = op.divide ? popops::div(c.graph, a, b, c.prog, "divide")
                             : popops::mul(c.graph, a, b, c.prog, "multiply");
      if (!enabled) {
        const auto v = c.run(out);
        CHECK((op.divide && op.a == 0.0f ? std::isnan(v[0])
                                         : std::isinf(v[0])));
        continue;
      }
      try {
        c.run(out);
        FAIL("the run did not throw");
      } catch (const application_runtime_error &e) {
        CHECK_THAT(e.what(), Contains(op.what) && Contains("Vertex") &&
                                 Contains(op.divide ? "divide" : "multiply") &&
                                 Contains("tile"));
      }
    }
  }
}

TEST_CASE("NaN on overflow gives NaN for a half overflow, infinity without",
          "[popops][csr]") {
  for (const bool nanoo : {false, true}) {
    INFO("nanoo " << nanoo);
    Case c;
    setFloatingPointBehaviour(c.graph, c.prog, {false, false, false, false, nanoo});
    Tensor a = c.constant(HALF, 4, 60000.0f);
    const auto v = c.run(popops::mul(c.graph, a, a, c.prog));
    CHECK((nanoo ? std::isnan(v[0]) : std::isinf(v[0])));
  }
}

TEST_CASE("Stochastic rounding rounds float to half with mean the value",
          "[popops][csr]") {
  // 1 + 2^-12 lies a quarter of the way from half's 1 to 1 + 2^-10.
  const float value = 1.0f + std::ldexp(1.0f, -12);
  const float up = 1.0f + std::ldexp(1.0f, -10);
  for (const bool esr : {false, true}) {
    INFO("stochastic rounding " << esr);
    Case c;
    setStochasticRounding(c.graph, c.prog, esr, "sr");
    Tensor x = c.constant(FLOAT, 4000, value);
    const auto v = c.run(popops::cast(c.graph, x, HALF, c.prog, "toHalf"));
    std::size_t ups = 0;
    for (float h : v) {
      REQUIRE((h == 1.0f || h == up));
      ups += h == up;
    }
    if (!esr) {
      CHECK(ups == 0);
    } else {
      // Binomial(4000, 0.25): mean 1000, standard deviation 27.
      CHECK(ups > 850);
      CHECK(ups < 1150);
    }
  }
}

TEST_CASE("The behaviour is saved, changed and restored", "[popops][csr]") {
  Case c;
  setFloatingPointBehaviour(c.graph, c.prog, FloatingPointBehaviour());
  // Exceptions off around an overflowing product, then back on.
  Tensor saved = getAndModifyFloatingPointBehaviour(
      c.graph, c.prog, FloatingPointBehaviour(true, true, true, false, false),
      FloatingPointBehaviour(false, false, false, false, false), "save");
  REQUIRE(saved.elementType() == UNSIGNED_INT);
  Tensor a = c.constant(FLOAT, 4, 1e30f);
  Tensor out = popops::mul(c.graph, a, a, c.prog, "quiet");
  setFloatingPointBehaviour(c.graph, c.prog, saved, "restore");
  popops::mulInPlace(c.graph, a, a, c.prog, "loud");
  try {
    c.run(out);
    FAIL("the run did not throw");
  } catch (const application_runtime_error &e) {
    CHECK_THAT(e.what(), Contains("loud") && Contains("overflow"));
  }
  Case bad;
  Tensor f = bad.graph.addVariable(FLOAT, {}, "notABehaviour");
  CHECK_THROWS_WITH(setFloatingPointBehaviour(bad.graph, bad.prog, f),
                    Contains("notABehaviour"));
}

TEST_CASE("debug.floatPointOpException enables exceptions from the start",
          "[popops][csr]") {
  for (const bool option : {false, true}) {
    Case c;
    Tensor a = c.constant(FLOAT, 4, 1e30f);
    Tensor out = popops::mul(c.graph, a, a, c.prog, "product");
    OptionFlags options{{"debug.floatPointOpException",
                         option ? "true" : "false"}};
    if (option)
      CHECK_THROWS_AS(c.run(out, options), application_runtime_error);
    else
      CHECK(std::isinf(c.run(out, options)[0]));
  }
}
