// popops::map, mapInPlace and mapWithOutput: fused expressions (one
// compute set, a generated codelet) against the host reference and against
// the same expression op by op; typing of constants, casts and conditions;
// broadcasting, aliasing and several expressions at once.
#include "ElementwiseReference.hpp"
#include "HostHalf.hpp"
#include "TestDevice.hpp"
#include "TestRig.hpp"
#include "TestValues.hpp"

#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {

// The number of compute sets an operation adds to the graph, from the ids
// of compute sets made before and after it.
template <class F> unsigned computeSetsAddedBy(Graph &graph, F &&f) {
  const ComputeSet before = graph.addComputeSet("before");
  f();
  const ComputeSet after = graph.addComputeSet("after");
  return after.getId() - before.getId() - 1;
}

// The vertex name of the codelet map generates, from its source.
std::string generatedVertex(const Target &target, const Expr &e,
                            const std::vector<Tensor> &ts) {
  std::ostringstream os;
  popops::outputGeneratedCodelet(target, e, ts, {}, os);
  const std::string s = os.str();
  const auto at = s.find("class Expr_");
  REQUIRE(at != std::string::npos);
  const auto end = s.find(' ', at + 6);
  return "popops::map::" + s.substr(at + 6, end - at - 6);
}

} // namespace

TEST_CASE("A multi-operation map runs as one generated codelet",
          "[popops][map]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values va = {-2, -1, 0, 1, 2, 3, 4.5, 8};
  const Values vb = {1, 2, 3, 4, 5, 6, 7, 8};
  const Values vc = {0.5, -0.5, 1, -1, 2, -2, 3, -3};
  const Tensor a = rig.input("a", FLOAT, {8}, va);
  const Tensor b = rig.input("b", FLOAT, {8}, vb);
  const Tensor c = rig.input("c", FLOAT, {8}, vc);
  const auto e = (_1 * _2 + 3.0f) - Abs(_3) / Max(_2, Const(2.0f));

  Tensor fused;
  CHECK(computeSetsAddedBy(graph, [&] {
          fused = popops::map(graph, e, {a, b, c}, rig.prog());
        }) == 1);
  CHECK(graph.hasCodelet(generatedVertex(rig.target(), e, {a, b, c})));
  rig.read("fused", fused);

  // The same expression op by op: six operations, six compute sets (and
  // the shared one, unused).
  Tensor unfused;
  CHECK(computeSetsAddedBy(graph, [&] {
          unfused = popops::map(graph, e, {a, b, c}, rig.prog(), {},
                                {{"enableGenerateCodelet", "false"}});
        }) == 7);
  rig.read("unfused", unfused);
  rig.run();

  Values ref;
  for (std::size_t i = 0; i != va.size(); ++i) {
    const float x = float(va[i]) * float(vb[i]) + 3.0f;
    const float y = std::fabs(float(vc[i])) / std::max(float(vb[i]), 2.0f);
    ref.push_back(x - y);
  }
  CHECK(compare(rig.values("fused"), ref, true, 0) == "");
  CHECK(compare(rig.values("unfused"), ref, true, 0) == "");
}

TEST_CASE("Fused and unfused half expressions round alike",
          "[popops][map][half]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values va = {0.1, 1000, 3.3, -7.7, 2049, 0.001};
  const Values vb = {0.2, 0.3, 1.1, 2.2, 1, 3};
  const Tensor a = rig.input("a", HALF, {6}, va);
  const Tensor b = rig.input("b", HALF, {6}, vb);
  const auto e = Square(_1 + _2) * 0.3_half - _2;
  rig.read("fused", popops::map(graph, e, {a, b}, rig.prog()));
  rig.read("unfused", popops::map(graph, e, {a, b}, rig.prog(), {},
                                  {{"enableGenerateCodelet", "false"}}));
  rig.run();
  Values ref;
  auto h = [](float x) { return sdktest::nearestHalf(x); };
  for (std::size_t i = 0; i != va.size(); ++i) {
    const float x = h(float(va[i])), y = h(float(vb[i]));
    const float s = h(x + y);
    ref.push_back(h(h(h(s * s) * h(0.3f)) - y));
  }
  CHECK(compare(rig.values("fused"), ref, true, 0) == "");
  CHECK(compare(rig.values("unfused"), ref, true, 0) == "");
}

TEST_CASE("Expression typing: constants, casts, comparisons and select",
          "[popops][map]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Tensor i = rig.input("i", INT, {6}, {-3, -1, 0, 2, 5, 9});
  const Tensor h = rig.input("h", HALF, {6}, {-1.5, -0.5, 0, 0.5, 1.5, 2.5});
  const Tensor f = rig.input("f", FLOAT, {6}, {10, 20, 30, 40, 50, 60});
  // A constant takes the type of the operand it meets.
  rig.read("int", popops::map(graph, _1 * 2 + 1, {i}, rig.prog()));
  rig.read("half", popops::map(graph, _1 * 0.5 + 1, {h}, rig.prog()));
  // Casts and a bool condition.
  const Tensor mixed =
      popops::map(graph, Select(Cast(_2, FLOAT) * _3, _3, _1 % 2 == 0),
                  {i, h, f}, rig.prog());
  CHECK(mixed.elementType() == FLOAT);
  rig.read("mixed", mixed);
  // A bool result.
  const Tensor isBig = popops::map(graph, Or(_1 > 4, Not(IsFinite(Log(_2)))),
                                   {i, h}, rig.prog());
  CHECK(isBig.elementType() == BOOL);
  rig.read("isBig", isBig);
  // Constants of unsigned types, whose C++ names have spaces.
  const Tensor u = rig.input("u", UNSIGNED_INT, {6}, {0, 1, 2, 3, 4, 5});
  rig.read("unsigned", popops::map(graph, _1 * 3 + 2, {u}, rig.prog()));
  // Clamp with constant bounds, and integer division and shifts fused.
  rig.read("clamp",
           popops::map(graph,
                       Clamp(_1, Const(-1), Const(4)) + (_1 / 2) + (_1 << 1),
                       {i}, rig.prog()));
  rig.run();
  const Values vi = {-3, -1, 0, 2, 5, 9}, vh = {-1.5, -0.5, 0, 0.5, 1.5, 2.5},
               vf = {10, 20, 30, 40, 50, 60};
  Values rInt, rHalf, rMixed, rBig, rClamp, rUnsigned;
  for (std::size_t k = 0; k != 6; ++k) {
    rInt.push_back(vi[k] * 2 + 1);
    rUnsigned.push_back(double(k) * 3 + 2);
    rHalf.push_back(vh[k] * 0.5 + 1);
    const bool even = std::fmod(vi[k], 2) == 0;
    rMixed.push_back(even ? vh[k] * vf[k] : vf[k]);
    rBig.push_back(vi[k] > 4 || !std::isfinite(std::log(vh[k])));
    rClamp.push_back(std::min(std::max(vi[k], -1.0), 4.0) +
                     std::trunc(vi[k] / 2) + vi[k] * 2);
  }
  CHECK(compare(rig.values("int"), rInt, true, 0) == "");
  CHECK(compare(rig.values("half"), rHalf, true, 0) == "");
  CHECK(compare(rig.values("mixed"), rMixed, true, 0) == "");
  CHECK(compare(rig.values("isBig"), rBig, true, 0) == "");
  CHECK(compare(rig.values("clamp"), rClamp, true, 0) == "");
  CHECK(compare(rig.values("unsigned"), rUnsigned, true, 0) == "");
}

TEST_CASE("Fused expressions broadcast, including single elements",
          "[popops][map][broadcast]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values va = {1, 2, 3}, vb = {10, 20, 30, 40}, vs = {0.5};
  const Tensor a = rig.input("a", FLOAT, {3, 1}, va);
  const Tensor b = rig.input("b", FLOAT, {1, 4}, vb);
  const Tensor s = rig.input("s", FLOAT, {}, vs);
  const Tensor y =
      popops::map(graph, (_1 + _2) * _3 - _3, {a, b, s}, rig.prog());
  CHECK(y.shape() == std::vector<std::size_t>{3, 4});
  rig.read("y", y);
  // mapWithOutput into a tensor the caller maps.
  const Tensor out = graph.addVariable(FLOAT, {3, 4}, "out");
  graph.setTileMapping(out, rig.numTiles() - 1);
  popops::mapWithOutput(graph, Exp(_1) + _2, {a, b}, out, rig.prog());
  rig.read("out", out);
  rig.run();
  Values ref, refOut;
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned c = 0; c != 4; ++c) {
      ref.push_back((va[r] + vb[c]) * 0.5 - 0.5);
      refOut.push_back(float(std::exp(va[r])) + vb[c]);
    }
  CHECK(compare(rig.values("y"), ref, true, 0) == "");
  CHECK(compare(rig.values("out"), refOut, false, 1e-6) == "");
}

TEST_CASE("mapInPlace reads every operand before writing",
          "[popops][map][inplace]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values v = iotaValues(6, 1);
  const Tensor a = rig.input("a", FLOAT, {6}, v);
  popops::mapInPlace(graph, _1 * 10 + _2, {a, a.reverse(0)}, rig.prog());
  rig.read("a", a);
  // Several expressions in place: swap two tensors.
  const Tensor p = rig.input("p", INT, {4}, {1, 2, 3, 4});
  const Tensor q = rig.input("q", INT, {4}, {5, 6, 7, 8});
  popops::mapInPlace(graph, {Any(_2), Any(_1)}, {p, q}, rig.prog());
  rig.read("p", p);
  rig.read("q", q);
  // Several expressions to new tensors, in one compute set.
  std::vector<Tensor> outs;
  CHECK(computeSetsAddedBy(graph, [&] {
          outs = popops::map(graph, {_1 + _2, _1 * _2, Neg(_1)}, {p, q},
                             rig.prog());
        }) == 1);
  REQUIRE(outs.size() == 3);
  rig.read("sum", outs[0]);
  rig.read("product", outs[1]);
  rig.read("negated", outs[2]);
  // And to given tensors.
  const Tensor o1 = graph.clone(p), o2 = graph.clone(p);
  popops::mapWithOutput(graph, {_1 - _2, _2 - _1}, {p, q}, {o1, o2},
                        rig.prog());
  rig.read("o1", o1);
  rig.read("o2", o2);
  // A single operation forced through the code generator.
  const Tensor g = popops::map(graph, _1 + 1, {p}, rig.prog(), {},
                               {{"forceGenerateCodelet", "true"}});
  rig.read("g", g);
  // A bare placeholder copies.
  rig.read("copy", popops::map(graph, _2, {p, q}, rig.prog()));
  rig.run();
  Values ra;
  for (std::size_t i = 0; i != v.size(); ++i)
    ra.push_back(v[i] * 10 + v[v.size() - 1 - i]);
  CHECK(compare(rig.values("a"), ra, true, 0) == "");
  // The program runs in order: the swap first, then the rest.
  CHECK(compare(rig.values("p"), {5, 6, 7, 8}, true, 0) == "");
  CHECK(compare(rig.values("q"), {1, 2, 3, 4}, true, 0) == "");
  CHECK(compare(rig.values("sum"), {6, 8, 10, 12}, true, 0) == "");
  CHECK(compare(rig.values("product"), {5, 12, 21, 32}, true, 0) == "");
  CHECK(compare(rig.values("negated"), {-5, -6, -7, -8}, true, 0) == "");
  CHECK(compare(rig.values("o1"), {4, 4, 4, 4}, true, 0) == "");
  CHECK(compare(rig.values("o2"), {-4, -4, -4, -4}, true, 0) == "");
  CHECK(compare(rig.values("g"), {6, 7, 8, 9}, true, 0) == "");
  CHECK(compare(rig.values("copy"), {1, 2, 3, 4}, true, 0) == "");
}

TEST_CASE("map's errors name the operation, the tensor and the type",
          "[popops][map][errors]") {
  Graph graph(Target::createCPUTarget());
  popops::addCodelets(graph);
  Sequence prog;
  const Tensor f = graph.addVariable(FLOAT, {4}, "f");
  const Tensor i = graph.addVariable(INT, {4}, "i");
  CHECK_THROWS_WITH(popops::map(graph, _1 + _3, {f, f}, prog),
                    Contains("popops::map") && Contains("_3"));
  CHECK_THROWS_WITH(popops::map(graph, Exp(_1) + _2, {f, i}, prog),
                    Contains("ADD") && Contains("'i'") && Contains("int"));
  CHECK_THROWS_WITH(popops::map(graph, Select(_1, _1, _1), {f}, prog),
                    Contains("condition") && Contains("float"));
  CHECK_THROWS_WITH(popops::map(graph, Const(1) + Const(2), {f}, prog),
                    Contains("placeholder"));
  CHECK_THROWS_WITH(popops::map(graph, Sqrt(_1 * 2), {i}, prog),
                    Contains("SQRT") && Contains("int") && Contains("'i'"));
  CHECK_THROWS_WITH(popops::mapInPlace(graph, _1 > 0, {f}, prog),
                    Contains("mapInPlace") && Contains("bool"));
  CHECK_THROWS_AS(popops::map(graph, Cast(_1, LONGLONG), {f}, prog),
                  poputil::poplibs_error);
}

TEST_CASE("Expressions print, compare and copy", "[popops][expr]") {
  const auto e = Add(Mul(_1, Const(2.5f)), Neg(_2));
  std::ostringstream os;
  os << e;
  CHECK(os.str() == "ADD(MULTIPLY(_1, Const(2.5)), NEGATE(_2))");
  CHECK(e.isA<BinaryOp>());
  CHECK(e.getAs<BinaryOp>()->getOpType() == popops::expr::BinaryOpType::ADD);
  CHECK(e.getAs<UnaryOp>() == nullptr);
  CHECK(popops::expr::deepEquals(e, _1 * 2.5f + -_2));
  CHECK_FALSE(popops::expr::deepEquals(e, _1 * 2.5 + -_2)); // a double
  const Any any(e);
  const Any copy = any;
  CHECK(static_cast<const Expr &>(copy).deepEquals(e));
  const Const c(-7);
  CHECK(c.getType() == INT);
  CHECK(c.getDataAsDouble() == -7);
  CHECK(c.printValue() == "-7");
  CHECK(ConstHalf(1.5f).getType() == HALF);
  CHECK((3.0_half).getType() == HALF);
}

TEST_CASE("The operation-type overloads and the ternary forms",
          "[popops][map]") {
  Rig rig;
  Graph &graph = rig.graph();
  auto &prog = rig.prog();
  const Values va = {-2, -0.5, 1, 4}, vb = {1, 0.5, -1, 2};
  const Tensor a = rig.input("a", FLOAT, {4}, va);
  const Tensor b = rig.input("b", FLOAT, {4}, vb);
  const Tensor cond = rig.input("cond", BOOL, {4}, {1, 0, 0, 1});
  const Tensor lo = rig.input("lo", FLOAT, {}, {-1});
  const Tensor hi = rig.input("hi", FLOAT, {}, {2});

  rig.read("neg", popops::map(graph, UnaryOpType::NEGATE, a, prog));
  rig.read("sub", popops::map(graph, BinaryOpType::SUBTRACT, a, b, prog));
  rig.read("sel", popops::map(graph, TernaryOpType::SELECT, a, b, cond, prog));
  const Tensor m1 = rig.input("m1", FLOAT, {4}, va);
  popops::mapInPlace(graph, UnaryOpType::SQUARE, m1, prog);
  rig.read("m1", m1);
  const Tensor m2 = rig.input("m2", FLOAT, {4}, va);
  popops::mapInPlace(graph, BinaryOpType::MULTIPLY, m2, b, prog);
  rig.read("m2", m2);
  const Tensor m3 = rig.input("m3", FLOAT, {4}, va);
  popops::mapInPlace(graph, TernaryOpType::CLAMP, m3, lo, hi, prog);
  rig.read("m3", m3);
  const Tensor o1 = graph.clone(a), o2 = graph.clone(a), o3 = graph.clone(a);
  popops::mapWithOutput(graph, UnaryOpType::ABSOLUTE, a, o1, prog);
  popops::mapWithOutput(graph, BinaryOpType::MAXIMUM, a, b, o2, prog);
  popops::mapWithOutput(graph, TernaryOpType::CLAMP, a, lo, hi, o3, prog);
  rig.read("o1", o1);
  rig.read("o2", o2);
  rig.read("o3", o3);

  const Tensor s1 = rig.input("s1", FLOAT, {4}, va);
  popops::selectInPlace(graph, s1, b, cond, prog);
  rig.read("s1", s1);
  const Tensor s2 = graph.clone(a);
  popops::selectWithOutput(graph, a, b, cond, s2, prog);
  rig.read("s2", s2);
  rig.read("c0", popops::clamp(graph, a, lo, hi, prog));
  const Tensor c1 = rig.input("c1", FLOAT, {4}, va);
  popops::clampInPlace(graph, c1, lo, hi, prog);
  rig.read("c1", c1);
  const Tensor c2 = graph.clone(a);
  popops::clampWithOutput(graph, a, lo, hi, c2, prog);
  rig.read("c2", c2);

  const Tensor eps = rig.input("eps", FLOAT, {1}, {0.25});
  const Tensor v1 = rig.input("v1", FLOAT, {4}, {0.75, 3.75, 15.75, 8.75});
  popops::varianceToInvStdDevInPlace(graph, v1, eps, prog);
  rig.read("v1", v1);
  const Tensor v2 = graph.clone(a);
  popops::varianceToInvStdDevWithOutput(
      graph, rig.input("v", FLOAT, {4}, {0.75, 3.75, 15.75, 8.75}), eps, v2,
      prog);
  rig.read("v2", v2);
  const Tensor v3 = graph.clone(a);
  popops::invStdDevToVarianceWithOutput(
      graph, rig.input("w", FLOAT, {4}, {1, 2, 4, 0.5}), eps, v3, prog);
  rig.read("v3", v3);
  rig.run();

  const Values clamped = {-1, -0.5, 1, 2}, selected = {-2, 0.5, -1, 4};
  CHECK(compare(rig.values("neg"), {2, 0.5, -1, -4}, true, 0) == "");
  CHECK(compare(rig.values("sub"), {-3, -1, 2, 2}, true, 0) == "");
  CHECK(compare(rig.values("sel"), selected, true, 0) == "");
  CHECK(compare(rig.values("m1"), {4, 0.25, 1, 16}, true, 0) == "");
  CHECK(compare(rig.values("m2"), {-2, -0.25, -1, 8}, true, 0) == "");
  CHECK(compare(rig.values("m3"), clamped, true, 0) == "");
  CHECK(compare(rig.values("o1"), {2, 0.5, 1, 4}, true, 0) == "");
  CHECK(compare(rig.values("o2"), {1, 0.5, 1, 4}, true, 0) == "");
  CHECK(compare(rig.values("o3"), clamped, true, 0) == "");
  CHECK(compare(rig.values("s1"), selected, true, 0) == "");
  CHECK(compare(rig.values("s2"), selected, true, 0) == "");
  CHECK(compare(rig.values("c0"), clamped, true, 0) == "");
  CHECK(compare(rig.values("c1"), clamped, true, 0) == "");
  CHECK(compare(rig.values("c2"), clamped, true, 0) == "");
  CHECK(compare(rig.values("v1"), {1, 0.5, 0.25, 1.0 / 3}, false, 1e-6) == "");
  CHECK(compare(rig.values("v2"), {1, 0.5, 0.25, 1.0 / 3}, false, 1e-6) == "");
  CHECK(compare(rig.values("v3"), {0.75, 0, -0.1875, 3.75}, false, 1e-6) == "");
}

TEST_CASE("A float constant's integer value saturates",
          "[popops][map]") {
  // Clip's default bound, FLT_MAX, went through an undefined conversion
  // (found by fuzz_onnx_model under UBSan).
  CHECK(Const(3.4028234663852886e38f).getDataForUnsignedIntegral() ==
        ~std::uint64_t(0));
  CHECK(Const(-3.4028234663852886e38f).getDataForUnsignedIntegral() ==
        std::uint64_t(1) << 63);
  CHECK(Const(std::nanf("")).getDataForUnsignedIntegral() == 0);
  CHECK(Const(-2.0f).getDataForUnsignedIntegral() == ~std::uint64_t(1));
  CHECK(Const(7.9f).getDataForUnsignedIntegral() == 7);
}

TEST_CASE("RELU of floats keeps the bits of NaNs, signed zeros and "
          "infinities",
          "[popops][map]") {
  // On one tile, 37 contiguous elements (not a whole number of the
  // codelet's 8-float steps), the special values at every position
  // modulo 8; out of place and in place.
  Rig rig(1);
  Graph &graph = rig.graph();
  const double nan = std::nan("0x2a");
  const double specials[] = {nan,      -nan,       -0.0,   0.0,
                             INFINITY, -INFINITY, 1e-45, -1e-45};
  Values vx(37);
  for (std::size_t i = 0; i != vx.size(); ++i)
    vx[i] = i % 5 == 0 ? specials[(i / 5) % 8] : double(int(i) - 18) * 0.25;
  const Tensor x = rig.input("x", FLOAT, {vx.size()}, vx);
  const Tensor y = popops::map(graph, UnaryOp(UnaryOpType::RELU, _1), {x},
                               rig.prog());
  const Tensor z = rig.input("z", FLOAT, {vx.size()}, vx);
  popops::mapInPlace(graph, UnaryOp(UnaryOpType::RELU, _1), {z}, rig.prog());
  rig.read("y", y);
  rig.read("z", z);
  rig.run();
  for (std::size_t i = 0; i != vx.size(); ++i) {
    const float in = float(vx[i]);
    const float want = in < 0 ? 0.0f : in;
    for (const char *name : {"y", "z"}) {
      INFO(name << " element " << i << " = " << in);
      const float got = float(rig.values(name)[i]);
      CHECK(std::memcmp(&got, &want, sizeof want) == 0);
    }
  }
}

TEST_CASE("Max and Min of floats propagate NaN and order signed zeros as "
          "before",
          "[popops][map]") {
  // A clip to [0, 6] (ONNX Clip, ReLU6) and Max/Min of two tensors, over
  // NaNs, infinities and signed zeros in both operands: every pair four
  // times over, so that each of the six workers has whole vectors of the
  // widest size (16 floats) as well as a scalar tail.
  Rig rig(1);
  Graph &graph = rig.graph();
  const double nan = std::nan("");
  const double specials[] = {nan, -nan, -0.0, 0.0, INFINITY, -INFINITY, 7.0,
                             -1.5, 3.25};
  Values va, vb;
  for (int copy = 0; copy != 4; ++copy)
    for (double a : specials)
      for (double b : specials) {
        va.push_back(a);
        vb.push_back(b);
      }
  const Tensor a = rig.input("a", FLOAT, {va.size()}, va);
  const Tensor b = rig.input("b", FLOAT, {vb.size()}, vb);
  rig.read("clip", popops::map(graph, Max(Min(_1, Const(6.0f)), Const(0.0f)),
                               {a}, rig.prog()));
  rig.read("max", popops::map(graph, Max(_1, _2), {a, b}, rig.prog()));
  rig.read("min", popops::map(graph, Min(_1, _2), {a, b}, rig.prog()));
  rig.run();
  // The definitions: a NaN operand is the result (the first if both are);
  // otherwise max(x, y) = x < y ? y : x and min(x, y) = y < x ? y : x.
  auto isNaN = [](float x) { return x != x; };
  auto refMax = [&](float x, float y) {
    return isNaN(x) ? x : isNaN(y) ? y : x < y ? y : x;
  };
  auto refMin = [&](float x, float y) {
    return isNaN(x) ? x : isNaN(y) ? y : y < x ? y : x;
  };
  auto sameBits = [](float x, float y) {
    return std::memcmp(&x, &y, sizeof x) == 0;
  };
  for (std::size_t i = 0; i != va.size(); ++i) {
    const float x = float(va[i]), y = float(vb[i]);
    INFO("element " << i << ": " << x << ", " << y);
    CHECK(sameBits(float(rig.values("clip")[i]),
                   refMax(refMin(x, 6.0f), 0.0f)));
    CHECK(sameBits(float(rig.values("max")[i]), refMax(x, y)));
    CHECK(sameBits(float(rig.values("min")[i]), refMin(x, y)));
  }
}

TEST_CASE("A fused float clip raises invalid for signalling NaNs only, as "
          "element by element",
          "[popops][map]") {
  // 6 workers of 37 elements (two vectors of 16 and a scalar tail of 5,
  // or steps of 8 or 4 on hosts without AVX-512), a NaN at position `at`:
  // quiet, the run completes with the NaN's bits; signalling, the
  // comparisons of max and min raise invalid, which the tile traps.
  auto bitsOf = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  };
  auto fromBits = [](std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  };
  auto run = [&](std::uint32_t nanBits, std::size_t at) {
    Device device = sdktest::createTestDevice(1);
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    setFloatingPointBehaviour(
        graph, prog, FloatingPointBehaviour(true, false, false, false, false),
        "fp");
    const Tensor x = graph.addVariable(FLOAT, {222}, "x");
    graph.setTileMapping(x, 0);
    const Tensor y =
        popops::map(graph, Max(Min(_1, Const(6.0f)), Const(0.0f)), {x}, prog);
    graph.createHostWrite("x", x);
    graph.createHostRead("y", y);
    Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> in(222);
    for (std::size_t i = 0; i != in.size(); ++i)
      in[i] = float(int(i % 21) - 5) * 0.75f;
    in[at] = fromBits(nanBits);
    engine.writeTensor("x", in.data(), in.data() + in.size());
    engine.run(0);
    std::vector<float> out(222);
    engine.readTensor("y", out.data(), out.data() + out.size());
    for (std::size_t i = 0; i != out.size(); ++i) {
      const float v = in[i];
      const float want = i == at ? v : v < 0 ? 0.0f : v > 6 ? 6.0f : v;
      INFO("element " << i);
      CHECK(bitsOf(out[i]) == bitsOf(want));
    }
  };
  // In the first worker's first vector, its tail, and the last worker's
  // second vector.
  for (std::size_t at : {std::size_t(2), std::size_t(35), std::size_t(211)}) {
    INFO("NaN at " << at);
    run(0xffc00001u, at);
    REQUIRE_THROWS_WITH(run(0x7f800001u, at), Contains("invalid operation"));
  }
}
