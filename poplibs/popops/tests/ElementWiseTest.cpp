// popops/ElementWise.hpp: every named unary and binary operation, in its
// three forms, on every element type it supports, against the host
// reference; constant operands, broadcasting, views, aliasing in-place
// operands, empty tensors, half rounding and the error paths.
#include "ElementwiseReference.hpp"
#include "HostHalf.hpp"
#include "TestDevice.hpp"
#include "TestRig.hpp"
#include "TestValues.hpp"

#include "ExprOpInfo.hpp"
#include "TileRegions.hpp"

#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <catch2/catch.hpp>

#include <functional>

using namespace poplar;
using namespace poplar::program;
using namespace popops_test;
using Catch::Matchers::Contains;
using popops::expr::BinaryOpType;
using popops::expr::TernaryOpType;
using popops::expr::UnaryOpType;

namespace {

using UnaryFn = Tensor (*)(Graph &, const Tensor &, Sequence &,
                           const DebugContext &, const OptionFlags &);
using UnaryInPlaceFn = void (*)(Graph &, const Tensor &, Sequence &,
                                const DebugContext &, const OptionFlags &);
using UnaryOutFn = void (*)(Graph &, const Tensor &, const Tensor &, Sequence &,
                            const DebugContext &, const OptionFlags &);
struct UnaryCase {
  UnaryOpType op;
  UnaryFn fn;
  UnaryInPlaceFn inPlace; // null for isFinite
  UnaryOutFn withOutput;
};

const UnaryCase unaryCases[] = {
    {UnaryOpType::ABSOLUTE, popops::abs, popops::absInPlace,
     popops::absWithOutput},
    {UnaryOpType::ASIN, popops::asin, popops::asinInPlace,
     popops::asinWithOutput},
    {UnaryOpType::BITWISE_NOT, popops::bitwiseNot, popops::bitwiseNotInPlace,
     popops::bitwiseNotWithOutput},
    {UnaryOpType::CBRT, popops::cbrt, popops::cbrtInPlace,
     popops::cbrtWithOutput},
    {UnaryOpType::CEIL, popops::ceil, popops::ceilInPlace,
     popops::ceilWithOutput},
    {UnaryOpType::COS, popops::cos, popops::cosInPlace, popops::cosWithOutput},
    {UnaryOpType::COUNT_LEADING_ZEROS, popops::countLeadingZeros,
     popops::countLeadingZerosInPlace, popops::countLeadingZerosWithOutput},
    {UnaryOpType::ERF, popops::erf, popops::erfInPlace, popops::erfWithOutput},
    {UnaryOpType::EXPONENT, popops::exp, popops::expInPlace,
     popops::expWithOutput},
    {UnaryOpType::EXPONENT2, popops::exp2, popops::exp2InPlace,
     popops::exp2WithOutput},
    {UnaryOpType::EXPONENT_MINUS_ONE, popops::expm1, popops::expm1InPlace,
     popops::expm1WithOutput},
    {UnaryOpType::FLOOR, popops::floor, popops::floorInPlace,
     popops::floorWithOutput},
    {UnaryOpType::GELU_ERF, popops::geluErf, popops::geluErfInPlace,
     popops::geluErfWithOutput},
    {UnaryOpType::INVERSE, popops::inv, popops::invInPlace,
     popops::invWithOutput},
    {UnaryOpType::IS_FINITE, popops::isFinite, nullptr,
     popops::isFiniteWithOutput},
    {UnaryOpType::LOGARITHM, popops::log, popops::logInPlace,
     popops::logWithOutput},
    {UnaryOpType::LOGARITHM_ONE_PLUS, popops::log1p, popops::log1pInPlace,
     popops::log1pWithOutput},
    {UnaryOpType::LOGICAL_NOT, popops::logicalNot, popops::logicalNotInPlace,
     popops::logicalNotWithOutput},
    {UnaryOpType::NEARBY_INT, popops::nearbyint, popops::nearbyintInPlace,
     popops::nearbyintWithOutput},
    {UnaryOpType::NEGATE, popops::neg, popops::negInPlace,
     popops::negWithOutput},
    {UnaryOpType::POPCOUNT, popops::popcount, popops::popcountInPlace,
     popops::popcountWithOutput},
    {UnaryOpType::ROUND, popops::round, popops::roundInPlace,
     popops::roundWithOutput},
    {UnaryOpType::RSQRT, popops::rsqrt, popops::rsqrtInPlace,
     popops::rsqrtWithOutput},
    {UnaryOpType::SIGMOID, popops::sigmoid, popops::sigmoidInPlace,
     popops::sigmoidWithOutput},
    {UnaryOpType::SIGNUM, popops::signum, popops::signumInPlace,
     popops::signumWithOutput},
    {UnaryOpType::SIN, popops::sin, popops::sinInPlace, popops::sinWithOutput},
    {UnaryOpType::SQRT, popops::sqrt, popops::sqrtInPlace,
     popops::sqrtWithOutput},
    {UnaryOpType::SQUARE, popops::square, popops::squareInPlace,
     popops::squareWithOutput},
    {UnaryOpType::TAN, popops::tan, popops::tanInPlace, popops::tanWithOutput},
    {UnaryOpType::TANH, popops::tanh, popops::tanhInPlace,
     popops::tanhWithOutput},
};

using BinaryFn = Tensor (*)(Graph &, const Tensor &, const Tensor &, Sequence &,
                            const DebugContext &, const OptionFlags &);
using BinaryInPlaceFn = void (*)(Graph &, const Tensor &, const Tensor &,
                                 Sequence &, const DebugContext &,
                                 const OptionFlags &);
using BinaryOutFn = void (*)(Graph &, const Tensor &, const Tensor &,
                             const Tensor &, Sequence &, const DebugContext &,
                             const OptionFlags &);
struct BinaryCase {
  BinaryOpType op;
  BinaryFn fn;
  BinaryInPlaceFn inPlace;
  BinaryOutFn withOutput;
};

const BinaryCase binaryCases[] = {
    {BinaryOpType::ADD, popops::add, popops::addInPlace, popops::addWithOutput},
    {BinaryOpType::ATAN2, popops::atan2, popops::atan2InPlace,
     popops::atan2WithOutput},
    {BinaryOpType::BITWISE_AND, popops::bitwiseAnd, popops::bitwiseAndInPlace,
     popops::bitwiseAndWithOutput},
    {BinaryOpType::BITWISE_OR, popops::bitwiseOr, popops::bitwiseOrInPlace,
     popops::bitwiseOrWithOutput},
    {BinaryOpType::BITWISE_XOR, popops::bitwiseXor, popops::bitwiseXorInPlace,
     popops::bitwiseXorWithOutput},
    {BinaryOpType::BITWISE_XNOR, popops::bitwiseXnor,
     popops::bitwiseXnorInPlace, popops::bitwiseXnorWithOutput},
    {BinaryOpType::DIVIDE, popops::div, popops::divInPlace,
     popops::divWithOutput},
    {BinaryOpType::EQUAL, popops::eq, popops::eqInPlace, popops::eqWithOutput},
    {BinaryOpType::GREATER_THAN, popops::gt, popops::gtInPlace,
     popops::gtWithOutput},
    {BinaryOpType::GREATER_THAN_EQUAL, popops::gteq, popops::gteqInPlace,
     popops::gteqWithOutput},
    {BinaryOpType::LOGICAL_AND, popops::logicalAnd, popops::logicalAndInPlace,
     popops::logicalAndWithOutput},
    {BinaryOpType::LOGICAL_OR, popops::logicalOr, popops::logicalOrInPlace,
     popops::logicalOrWithOutput},
    {BinaryOpType::LESS_THAN, popops::lt, popops::ltInPlace,
     popops::ltWithOutput},
    {BinaryOpType::LESS_THAN_EQUAL, popops::lteq, popops::lteqInPlace,
     popops::lteqWithOutput},
    {BinaryOpType::MAXIMUM, popops::max, popops::maxInPlace,
     popops::maxWithOutput},
    {BinaryOpType::MINIMUM, popops::min, popops::minInPlace,
     popops::minWithOutput},
    {BinaryOpType::MULTIPLY, popops::mul, popops::mulInPlace,
     popops::mulWithOutput},
    {BinaryOpType::NOT_EQUAL, popops::neq, popops::neqInPlace,
     popops::neqWithOutput},
    {BinaryOpType::POWER, popops::pow, popops::powInPlace,
     popops::powWithOutput},
    {BinaryOpType::REMAINDER, popops::rem, popops::remInPlace,
     popops::remWithOutput},
    {BinaryOpType::SHIFT_LEFT, popops::shiftLeft, popops::shiftLeftInPlace,
     popops::shiftLeftWithOutput},
    {BinaryOpType::SHIFT_RIGHT, popops::shiftRight, popops::shiftRightInPlace,
     popops::shiftRightWithOutput},
    {BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND, popops::shiftRightSignExtend,
     popops::shiftRightSignExtendInPlace,
     popops::shiftRightSignExtendWithOutput},
    {BinaryOpType::SUBTRACT, popops::sub, popops::subInPlace,
     popops::subWithOutput},
};

// A check run after the engine: compares what was read with a reference.
struct Expectation {
  std::string name;
  Values expected;
  bool exact;
  double relTol;
};

void checkAll(Rig &rig, const std::vector<Expectation> &expectations) {
  rig.run();
  for (const auto &e : expectations) {
    INFO(e.name);
    CHECK(compare(rig.values(e.name), e.expected, e.exact, e.relTol) == "");
  }
}

std::string label(const char *op, const Type &type, const char *form) {
  return std::string(op) + "<" + type.toString().str() + ">/" + form;
}

} // namespace

TEST_CASE("Every supported operation and type has a vertex",
          "[popops][elementwise]") {
  Graph graph(Target::createCPUTarget());
  popops::addCodelets(graph);
  popops::addCodelets(graph); // a second call changes nothing
  using poputil::templateVertex;
  for (const auto &c : unaryCases)
    for (const Type &t : popops::detail::supportedTypes(c.op))
      CHECK(graph.hasCodelet(templateVertex("popops::UnaryOp2D", c.op, t)));
  for (const auto op : {UnaryOpType::IS_INF, UnaryOpType::IS_NAN,
                        UnaryOpType::RELU, UnaryOpType::TRUNC})
    for (const Type &t : popops::detail::supportedTypes(op))
      CHECK(graph.hasCodelet(templateVertex("popops::UnaryOp2D", op, t)));
  std::vector<BinaryOpType> binaryOps;
  for (const auto &c : binaryCases)
    binaryOps.push_back(c.op);
  binaryOps.push_back(BinaryOpType::INV_STD_DEV_TO_VARIANCE);
  binaryOps.push_back(BinaryOpType::VARIANCE_TO_INV_STD_DEV);
  for (const auto op : binaryOps) {
    const bool ordered = !popops::detail::isCommutative(op) &&
                         !popops::detail::swappedComparison(op);
    for (const Type &t : popops::detail::supportedTypes(op)) {
      INFO(popops::detail::opName(op) << " " << t);
      CHECK(graph.hasCodelet(templateVertex("popops::BinaryOp2D", op, t)));
      CHECK(graph.hasCodelet(
          templateVertex("popops::BroadcastScalar2D", op, t, false)));
      CHECK(graph.hasCodelet(templateVertex("popops::BroadcastScalar2D", op, t,
                                            true)) == ordered);
    }
  }
  for (const Type &t : popops::detail::supportedTypes(TernaryOpType::SELECT))
    CHECK(graph.hasCodelet(templateVertex("popops::Select2D", t)));
  for (const Type &t : popops::detail::supportedTypes(TernaryOpType::CLAMP))
    CHECK(graph.hasCodelet(templateVertex("popops::Clamp2D", t)));
  for (const Type &from : popops::detail::castTypes()) {
    CHECK(graph.hasCodelet(templateVertex("popops::Fill2D", from)));
    for (const Type &to : popops::detail::castTypes())
      CHECK(graph.hasCodelet(templateVertex("popops::Cast2D", from, to)));
  }
}

TEST_CASE("Unary operations in every form and type", "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  std::vector<Expectation> expect;
  for (const auto &c : unaryCases) {
    const char *name = popops::detail::opName(c.op);
    for (const Type &type : popops::detail::supportedTypes(c.op)) {
      const Values in = unaryValues(type);
      const std::size_t n = in.size();
      Values ref(n);
      for (std::size_t i = 0; i != n; ++i)
        ref[i] = unary(c.op, type, in[i]);
      const bool exact = isExact(c.op);
      const double tol = tolerance(type);
      const Type resultType = unaryResultType(c.op, type);

      const Tensor x = rig.input(label(name, type, "x"), type, {n}, in);
      const Tensor y = c.fn(graph, x, rig.prog(), label(name, type, "fn"), {});
      CHECK(y.elementType() == resultType);
      CHECK(y.shape() == x.shape());
      rig.read(label(name, type, "fn"), y);
      expect.push_back({label(name, type, "fn"), ref, exact, tol});

      const Tensor out = graph.clone(resultType, x);
      c.withOutput(graph, x, out, rig.prog(), {}, {});
      rig.read(label(name, type, "out"), out);
      expect.push_back({label(name, type, "out"), ref, exact, tol});

      if (c.inPlace && resultType == type) {
        const Tensor z = rig.input(label(name, type, "z"), type, {n}, in);
        c.inPlace(graph, z, rig.prog(), {}, {});
        rig.read(label(name, type, "inPlace"), z);
        expect.push_back({label(name, type, "inPlace"), ref, exact, tol});
      }
    }
  }
  checkAll(rig, expect);
}

TEST_CASE("Binary operations in every form and type", "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  std::vector<Expectation> expect;
  for (const auto &c : binaryCases) {
    const char *name = popops::detail::opName(c.op);
    for (const Type &type : popops::detail::supportedTypes(c.op)) {
      const Values a = binaryLhs(type), b = binaryRhs(type);
      const std::size_t n = a.size();
      Values ref(n);
      for (std::size_t i = 0; i != n; ++i)
        ref[i] = binary(c.op, type, a[i], b[i]);
      const bool exact = isExact(c.op);
      const double tol = tolerance(type);
      const Type resultType = binaryResultType(c.op, type);

      const Tensor ta = rig.input(label(name, type, "a"), type, {n}, a);
      const Tensor tb = rig.input(label(name, type, "b"), type, {n}, b);
      const Tensor y = c.fn(graph, ta, tb, rig.prog(), {}, {});
      CHECK(y.elementType() == resultType);
      rig.read(label(name, type, "fn"), y);
      expect.push_back({label(name, type, "fn"), ref, exact, tol});

      const Tensor out = graph.clone(resultType, ta);
      c.withOutput(graph, ta, tb, out, rig.prog(), {}, {});
      rig.read(label(name, type, "out"), out);
      expect.push_back({label(name, type, "out"), ref, exact, tol});

      if (resultType == type) {
        const Tensor z = rig.input(label(name, type, "z"), type, {n}, a);
        c.inPlace(graph, z, tb, rig.prog(), {}, {});
        rig.read(label(name, type, "inPlace"), z);
        expect.push_back({label(name, type, "inPlace"), ref, exact, tol});
      }

      // The second operand as a single element broadcast over the first
      // (BroadcastScalar2D), on both sides.
      const Tensor s = rig.input(label(name, type, "s"), type, {1}, {b[1]});
      Values refScalar(n), refScalarFirst(n);
      for (std::size_t i = 0; i != n; ++i) {
        refScalar[i] = binary(c.op, type, a[i], b[1]);
        refScalarFirst[i] = binary(c.op, type, b[1], a[i]);
      }
      rig.read(label(name, type, "scalar"),
               c.fn(graph, ta, s, rig.prog(), {}, {}));
      expect.push_back({label(name, type, "scalar"), refScalar, exact, tol});
      rig.read(label(name, type, "scalarFirst"),
               c.fn(graph, s, ta, rig.prog(), {}, {}));
      expect.push_back(
          {label(name, type, "scalarFirst"), refScalarFirst, exact, tol});
    }
  }
  checkAll(rig, expect);
}

TEST_CASE("Constant operands", "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  auto &prog = rig.prog();
  const Values a = {-3, -1.5, 0, 0.5, 2, 7};
  const Tensor f = rig.input("f", FLOAT, {6}, a);
  const Tensor h = rig.input("h", HALF, {2, 3}, a);
  const Tensor i = rig.input("i", INT, {6}, {-7, -2, 0, 1, 5, 9});
  const Tensor u = rig.input("u", UNSIGNED_INT, {6}, {0, 1, 2, 3, 64, 100});
  const Tensor bl = rig.input("bl", BOOL, {4}, {0, 1, 0, 1});

  rig.read("f+2", popops::add(graph, f, 2.0f, prog));
  rig.read("10-f", popops::sub(graph, 10.0, f, prog));
  rig.read("h*0.5", popops::mul(graph, h, 0.5f, prog));
  rig.read("3/i", popops::div(graph, 3, i, prog));
  rig.read("i%4", popops::rem(graph, i, 4, prog));
  rig.read("u<<3", popops::shiftLeft(graph, u, 3u, prog));
  rig.read("2>f", popops::gt(graph, 2.0f, f, prog));
  rig.read("bl&&true", popops::logicalAnd(graph, bl, true, prog));
  const Tensor fi = rig.input("fi", FLOAT, {6}, a);
  popops::maxInPlace(graph, fi, 0.0f, prog);
  rig.read("fi", fi);
  const Tensor fo = graph.clone(f);
  popops::powWithOutput(graph, 2.0f, f, fo, prog);
  rig.read("2^f", fo);
  const Tensor fo2 = graph.clone(f);
  popops::subWithOutput(graph, f, 1.0f, fo2, prog);
  rig.read("f-1", fo2);

  auto each = [](const Values &v, const std::function<double(double)> &fn) {
    Values r;
    for (double x : v)
      r.push_back(fn(x));
    return r;
  };
  checkAll(
      rig,
      {{"f+2", each(a, [](double x) { return x + 2; }), true, 0},
       {"10-f", each(a, [](double x) { return 10 - x; }), true, 0},
       {"h*0.5", each(a, [](double x) { return x * 0.5; }), true, 0},
       {"3/i", {0, -1, 0, 3, 0, 0}, true, 0},
       {"i%4", {-3, -2, 0, 1, 1, 1}, true, 0},
       {"u<<3", {0, 8, 16, 24, 512, 800}, true, 0},
       {"2>f", each(a, [](double x) { return 2 > x; }), true, 0},
       {"bl&&true", {0, 1, 0, 1}, true, 0},
       {"fi", each(a, [](double x) { return x < 0 ? 0 : x; }), true, 0},
       {"2^f", each(a, [](double x) { return std::pow(2.0, x); }), false, 1e-6},
       {"f-1", each(a, [](double x) { return x - 1; }), true, 0}});

  // The constant's C++ type must match the tensor's (as the original
  // checkTypes requires).
  Sequence p;
  CHECK_THROWS_WITH(popops::add(graph, f, 1, p), Contains("add") &&
                                                     Contains("'f'") &&
                                                     Contains("Type mismatch"));
  CHECK_THROWS_AS(popops::checkTypes(INT, 1.0f), poputil::poplibs_error);
  CHECK_NOTHROW(popops::checkTypes(HALF, 1.0f));
}

TEST_CASE("Broadcasting follows numpy", "[popops][elementwise][broadcast]") {
  Rig rig;
  Graph &graph = rig.graph();
  struct Case {
    std::vector<std::size_t> a, b;
  };
  const Case cases[] = {
      {{3, 1}, {1, 4}}, {{2, 3, 4}, {4}}, {{4}, {2, 3, 4}}, {{2, 1, 3}, {2, 3}},
      {{5}, {1}},       {{1}, {5}},       {{}, {3}}};
  std::vector<Expectation> expect;
  for (std::size_t k = 0; k != std::size(cases); ++k) {
    const auto &c = cases[k];
    std::size_t na = 1, nb = 1;
    for (auto d : c.a)
      na *= d;
    for (auto d : c.b)
      nb *= d;
    const Values va = iotaValues(na, 1, 1), vb = iotaValues(nb, 100, 10);
    const Tensor a = rig.input("a" + std::to_string(k), FLOAT, c.a, va);
    const Tensor b = rig.input("b" + std::to_string(k), FLOAT, c.b, vb);
    const Tensor y = popops::sub(graph, a, b, rig.prog());
    const std::vector<std::size_t> shape = y.shape();
    Values ref(y.numElements());
    for (std::size_t i = 0; i != ref.size(); ++i)
      ref[i] =
          va[broadcastIndex(c.a, shape, i)] - vb[broadcastIndex(c.b, shape, i)];
    rig.read("y" + std::to_string(k), y);
    expect.push_back({"y" + std::to_string(k), ref, true, 0});
  }
  // Ternary operations broadcast all three operands.
  const Tensor x = rig.input("x", INT, {2, 3}, {-5, 0, 5, 10, 15, 20});
  const Tensor lo = rig.input("lo", INT, {3}, {0, 1, 2});
  const Tensor hi = rig.input("hi", INT, {2, 1}, {4, 12});
  rig.read("clamp", popops::clamp(graph, x, lo, hi, rig.prog()));
  const Tensor cond = rig.input("cond", BOOL, {2, 1}, {1, 0});
  rig.read("select", popops::select(graph, x, lo, cond, rig.prog()));
  expect.push_back({"clamp", {0, 1, 4, 10, 12, 12}, true, 0});
  expect.push_back({"select", {-5, 0, 5, 0, 1, 2}, true, 0});
  checkAll(rig, expect);
}

namespace {

// x op c and c op x against the host, on values rounded to the type, for
// the arithmetic that has broadcast forms (either operand first) and one
// that has none (max); `xi`, into which c was added in place (or
// subtracted, `subtracted`), is expected too. Names end in `t`.
void expectBroadcastOps(Rig &rig, const Tensor &x, const Tensor &c,
                        const Tensor &xi, bool subtracted, const Values &vx,
                        const Values &vc, const std::vector<std::size_t> &cs,
                        const std::string &t,
                        std::vector<Expectation> &expect) {
  Graph &graph = rig.graph();
  const bool half = x.elementType() == HALF;
  auto round = [&](double v) {
    const float f = static_cast<float>(v);
    return half ? double(sdktest::nearestHalf(f)) : double(f);
  };
  rig.read("inPlace" + t, xi);
  struct Op {
    const char *name;
    Tensor y;
    std::function<float(float, float)> f; // of (x, c)
  };
  const Op ops[] = {{"addX", popops::add(graph, x, c, rig.prog()),
                     [](float a, float b) { return a + b; }},
                    {"addC", popops::add(graph, c, x, rig.prog()),
                     [](float a, float b) { return a + b; }},
                    {"subX", popops::sub(graph, x, c, rig.prog()),
                     [](float a, float b) { return a - b; }},
                    {"subC", popops::sub(graph, c, x, rig.prog()),
                     [](float a, float b) { return b - a; }},
                    {"mulX", popops::mul(graph, x, c, rig.prog()),
                     [](float a, float b) { return a * b; }},
                    {"mulC", popops::mul(graph, c, x, rig.prog()),
                     [](float a, float b) { return a * b; }},
                    {"divX", popops::div(graph, x, c, rig.prog()),
                     [](float a, float b) { return a / b; }},
                    {"divC", popops::div(graph, c, x, rig.prog()),
                     [](float a, float b) { return b / a; }},
                    {"max", popops::max(graph, x, c, rig.prog()),
                     [](float a, float b) { return a > b ? a : b; }}};
  const std::string inPlaceOp = subtracted ? "subX" : "addX";
  Values inPlace(vx.size());
  for (const Op &op : ops) {
    rig.read(op.name + t, op.y);
    Values ref(vx.size());
    for (std::size_t i = 0; i != ref.size(); ++i) {
      const float a = float(round(vx[i]));
      const float b = float(round(vc[broadcastIndex(cs, x.shape(), i)]));
      ref[i] = round(op.f(a, b));
      if (op.name == inPlaceOp)
        inPlace[i] = ref[i];
    }
    expect.push_back({op.name + t, ref, true, 0});
  }
  expect.push_back({"inPlace" + t, inPlace, true, 0});
}

} // namespace

TEST_CASE("Operands broadcast over runs of the output",
          "[popops][elementwise][broadcast]") {
  // [3, 1, 1] over [2, 3, 5, 7]: each element covers runs of 35 (on the
  // CPU device, one scalar per run); either operand, in place too, and an
  // operation that has no per-run form.
  Rig rig;
  Graph &graph = rig.graph();
  const std::vector<std::size_t> xs{2, 3, 5, 7}, cs{3, 1, 1};
  const Values vx = iotaValues(210, -50.25, 0.5), vc = {2, -4, 0.5};
  std::vector<Expectation> expect;
  for (const Type &type : {FLOAT, HALF}) {
    const std::string t = type == HALF ? "half" : "float";
    const Tensor x = rig.input("x" + t, type, xs, vx);
    const Tensor c = rig.input("c" + t, type, cs, vc);
    const Tensor xi = rig.input("xi" + t, type, xs, vx);
    popops::addInPlace(graph, xi, c, rig.prog());
    expectBroadcastOps(rig, x, c, xi, false, vx, vc, cs, t, expect);
  }
  checkAll(rig, expect);
}

TEST_CASE("Operands that repeat a vector along the output",
          "[popops][elementwise][broadcast]") {
  // [17] and [3, 17] over [4, 3, 17]: the operand repeats every 17 or 51
  // elements (on the CPU device, read as that vector, each region and
  // worker starting part-way through it); either operand, in place too.
  Rig rig;
  Graph &graph = rig.graph();
  const std::vector<std::size_t> xs{4, 3, 17};
  const Values vx = iotaValues(204, -50.25, 0.5);
  std::vector<Expectation> expect;
  for (const std::vector<std::size_t> &cs :
       {std::vector<std::size_t>{17}, std::vector<std::size_t>{3, 17}}) {
    const Values vc = iotaValues(cs.size() == 1 ? 17 : 51, -3.5, 0.75);
    for (const Type &type : {FLOAT, HALF}) {
      const std::string t =
          std::to_string(cs.size()) + (type == HALF ? "half" : "float");
      const Tensor x = rig.input("x" + t, type, xs, vx);
      const Tensor c = rig.input("c" + t, type, cs, vc);
      // In place into two variables: the second region starts 100 elements
      // in, part-way through the vector.
      const Tensor xi =
          poplar::concat(rig.input("xiA" + t, type, {100},
                                   Values(vx.begin(), vx.begin() + 100)),
                         rig.input("xiB" + t, type, {104},
                                   Values(vx.begin() + 100, vx.end())))
              .reshape(xs);
      popops::subInPlace(graph, xi, c, rig.prog());
      expectBroadcastOps(rig, x, c, xi, true, vx, vc, cs, t, expect);
    }
  }
  checkAll(rig, expect);
}

TEST_CASE("Views: transposed, sliced, strided and reversed operands",
          "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values va = iotaValues(12, 1), vb = iotaValues(12, 0, 0.5);
  const Tensor a = rig.input("a", FLOAT, {3, 4}, va);
  const Tensor b = rig.input("b", FLOAT, {4, 3}, vb);
  // a + bᵀ: the second operand is not contiguous.
  rig.read("t", popops::add(graph, a, b.transpose(), rig.prog()));
  // a[:, ::2] * (rows 2, 1 of b)ᵀ: strided and reversed views.
  rig.read("s", popops::mul(graph, a.subSample(2, 1),
                            b.slice(1, 3).reverse(0).transpose(), rig.prog()));
  // The result of an operation on a view has the view's shape.
  const Tensor m = popops::neg(graph, a.transpose(), rig.prog());
  CHECK(m.shape() == std::vector<std::size_t>{4, 3});
  rig.read("m", m);
  // In place into a non-contiguous view.
  const Tensor c = rig.input("c", FLOAT, {3, 4}, va);
  popops::addInPlace(graph, c.transpose(), b, rig.prog());
  rig.read("c", c);
  rig.run();

  Values t(12), s(6), neg(12);
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned col = 0; col != 4; ++col) {
      t[r * 4 + col] = va[r * 4 + col] + vb[col * 3 + r];
      neg[col * 3 + r] = -va[r * 4 + col];
    }
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned k = 0; k != 2; ++k)
      s[r * 2 + k] = va[r * 4 + 2 * k] * vb[(2 - k) * 3 + r];
  CHECK(compare(rig.values("t"), t, true, 0) == "");
  CHECK(compare(rig.values("s"), s, true, 0) == "");
  CHECK(compare(rig.values("m"), neg, true, 0) == "");
  CHECK(compare(rig.values("c"), t, true, 0) == "");
}

TEST_CASE("In-place operations with aliasing operands",
          "[popops][elementwise][inplace]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values v = iotaValues(8, 1);
  const std::size_t n = v.size();
  // The same tensor on both sides: element for element, no copy needed.
  const Tensor a = rig.input("a", FLOAT, {n}, v);
  popops::addInPlace(graph, a, a, rig.prog());
  rig.read("a", a);
  // The operand reversed: every element reads one another vertex may
  // write; the result must use the values from before.
  const Tensor b = rig.input("b", FLOAT, {n}, v);
  popops::subInPlace(graph, b, b.reverse(0), rig.prog());
  rig.read("b", b);
  // A square matrix minus its transpose.
  const Tensor c = rig.input("c", INT, {3, 3}, iotaValues(9));
  popops::subInPlace(graph, c, c.transpose(), rig.prog());
  rig.read("c", c);
  // One element of the tensor broadcast over all of it.
  const Tensor d = rig.input("d", FLOAT, {n}, v);
  popops::mulInPlace(graph, d, d[3], rig.prog());
  rig.read("d", d);
  // An output overlapping an operand, shifted.
  const Tensor e = rig.input("e", INT, {n}, iotaValues(n));
  popops::addWithOutput(graph, e.slice(0, n - 2), e.slice(2, n),
                        e.slice(1, n - 1), rig.prog());
  rig.read("e", e);
  rig.run();

  Values ra(n), rb(n), rd(n), re = iotaValues(n);
  for (std::size_t i = 0; i != n; ++i) {
    ra[i] = 2 * v[i];
    rb[i] = v[i] - v[n - 1 - i];
    rd[i] = v[i] * v[3];
  }
  for (std::size_t i = 0; i + 2 < n; ++i)
    re[i + 1] = double(i) + double(i + 2);
  Values rc(9);
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned k = 0; k != 3; ++k)
      rc[r * 3 + k] = double(r * 3 + k) - double(k * 3 + r);
  CHECK(compare(rig.values("a"), ra, true, 0) == "");
  CHECK(compare(rig.values("b"), rb, true, 0) == "");
  CHECK(compare(rig.values("c"), rc, true, 0) == "");
  CHECK(compare(rig.values("d"), rd, true, 0) == "");
  CHECK(compare(rig.values("e"), re, true, 0) == "");
}

TEST_CASE("Empty tensors", "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Tensor a = rig.input("a", FLOAT, {0}, {});
  const Tensor b = rig.input("b", FLOAT, {0, 3}, {});
  const Tensor c = rig.input("c", FLOAT, {3}, {1, 2, 3});
  const Tensor y = popops::add(graph, a, a, rig.prog());
  CHECK(y.shape() == std::vector<std::size_t>{0});
  const Tensor z = popops::mul(graph, b, c, rig.prog());
  CHECK(z.shape() == std::vector<std::size_t>{0, 3});
  popops::expInPlace(graph, a, rig.prog());
  CHECK(popops::gt(graph, b, c, rig.prog()).elementType() == BOOL);
  rig.run();
}

TEST_CASE("Half results are rounded once per operation",
          "[popops][elementwise][half]") {
  Rig rig;
  Graph &graph = rig.graph();
  // 2048 + 1 is a tie between 2048 and 2050 (ties to even); 1 + 2^-11 is a
  // tie between 1 and 1 + 2^-10; 1 + 3 * 2^-12 rounds up.
  const Values a = {2048, 1, 1, 3, 65504, 0.1};
  const Values b = {1, 0.00048828125, 0.000732421875, 0.1, 65504, 0.2};
  const Tensor ha = rig.input("ha", HALF, {6}, a);
  const Tensor hb = rig.input("hb", HALF, {6}, b);
  rig.read("sum", popops::add(graph, ha, hb, rig.prog()));
  rig.read("product", popops::mul(graph, ha, hb, rig.prog()));
  rig.run();
  Values sum, product;
  for (std::size_t i = 0; i != a.size(); ++i) {
    const float x = sdktest::nearestHalf(static_cast<float>(a[i]));
    const float y = sdktest::nearestHalf(static_cast<float>(b[i]));
    sum.push_back(sdktest::nearestHalf(x + y));
    product.push_back(sdktest::nearestHalf(x * y));
  }
  CHECK(sum[0] == 2048);
  CHECK(sum[1] == 1);
  CHECK(sum[2] == 1.0009765625);
  CHECK(std::isinf(sum[4]));
  CHECK(compare(rig.values("sum"), sum, true, 0) == "");
  CHECK(compare(rig.values("product"), product, true, 0) == "");
}

TEST_CASE("Variance and inverse standard deviation", "[popops][elementwise]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values v = {0.25, 1, 4, 16};
  const Tensor f = rig.input("f", FLOAT, {4}, v);
  const Tensor h = rig.input("h", HALF, {4}, v);
  const Tensor eps = rig.input("eps", FLOAT, {1}, {0.5});
  const Tensor toHalf = popops::varianceToInvStdDev(graph, f, eps, rig.prog());
  CHECK(toHalf.elementType() == HALF);
  rig.read("toHalf", toHalf);
  rig.read("sameType",
           popops::varianceToInvStdDev(graph, f, 0.5f, rig.prog(), FLOAT));
  const Tensor toFloat =
      popops::invStdDevToVariance(graph, h, 0.5f, rig.prog());
  CHECK(toFloat.elementType() == FLOAT);
  rig.read("toFloat", toFloat);
  const Tensor g = rig.input("g", FLOAT, {4}, v);
  popops::invStdDevToVarianceInPlace(graph, g, eps, rig.prog());
  rig.read("g", g);
  rig.run();
  Values inv, var;
  for (double x : v) {
    inv.push_back(1 / std::sqrt(x + 0.5));
    var.push_back(1 / (x * x) - 0.5);
  }
  CHECK(compare(rig.values("toHalf"), inv, false, 2e-3) == "");
  CHECK(compare(rig.values("sameType"), inv, false, 1e-6) == "");
  CHECK(compare(rig.values("toFloat"), var, false, 1e-6) == "");
  CHECK(compare(rig.values("g"), var, false, 1e-6) == "");
  Sequence p;
  CHECK_THROWS_WITH(popops::varianceToInvStdDev(graph, f, f, p),
                    Contains("epsilon") && Contains("'f'"));
}

TEST_CASE("Unsupported types and shapes are poplibs_errors naming the "
          "operation, tensor and type",
          "[popops][elementwise][errors]") {
  Graph graph(Target::createCPUTarget());
  popops::addCodelets(graph);
  Sequence prog;
  const Tensor f = graph.addVariable(FLOAT, {2, 3}, "floats");
  const Tensor i = graph.addVariable(INT, {2, 3}, "ints");
  const Tensor b = graph.addVariable(BOOL, {2, 3}, "bools");
  const Tensor wide = graph.addVariable(FLOAT, {4}, "wide");
  const Tensor c = graph.addConstant(FLOAT, {2, 3}, 1.0f, "constants");

  CHECK_THROWS_WITH(popops::add(graph, f, i, prog),
                    Contains("popops::add") && Contains("float") &&
                        Contains("int") && Contains("'floats'") &&
                        Contains("'ints'"));
  CHECK_THROWS_WITH(popops::bitwiseAnd(graph, f, f, prog),
                    Contains("popops::bitwiseAnd") && Contains("BITWISE_AND") &&
                        Contains("float") && Contains("'floats'"));
  CHECK_THROWS_WITH(popops::sqrt(graph, i, prog), Contains("popops::sqrt") &&
                                                      Contains("int") &&
                                                      Contains("'ints'"));
  CHECK_THROWS_WITH(popops::add(graph, b, b, prog),
                    Contains("ADD") && Contains("bool"));
  CHECK_THROWS_WITH(popops::isFinite(graph, i, prog),
                    Contains("IS_FINITE") && Contains("int"));
  CHECK_THROWS_WITH(popops::mul(graph, f, wide, prog),
                    Contains("popops::mul") && Contains("'wide'") &&
                        Contains("{4}") && Contains("{2,3}") &&
                        Contains("broadcast"));
  CHECK_THROWS_WITH(popops::addInPlace(graph, wide.slice(0, 1), wide, prog),
                    Contains("addInPlace") && Contains("shape"));
  CHECK_THROWS_WITH(popops::addInPlace(graph, c, f, prog),
                    Contains("addInPlace") && Contains("'constants'") &&
                        Contains("parallel"));
  CHECK_THROWS_WITH(popops::addInPlace(graph,
                                       wide.reshape({1, 4}).broadcast(2, 0),
                                       wide, prog),
                    Contains("addInPlace") && Contains("parallel"));
  CHECK_THROWS_WITH(popops::eqWithOutput(graph, f, f, graph.clone(f), prog),
                    Contains("eqWithOutput") && Contains("bool") &&
                        Contains("float"));
  CHECK_THROWS_WITH(popops::add(graph, f, f, prog, {}, {{"noSuchOption", "1"}}),
                    Contains("noSuchOption"));
  CHECK_THROWS_WITH(
      popops::add(graph, f, f, prog, {}, {{"enableGenerateCodelet", "yes"}}),
      Contains("enableGenerateCodelet"));
  CHECK_THROWS_AS(popops::sub(graph, f, Tensor(), prog),
                  poputil::poplibs_error);
}

TEST_CASE("A large operation is spread over the tiles its output is on",
          "[popops][elementwise][tiles]") {
  if (sdktest::deviceTypeFromEnvironment() != sdktest::DeviceType::IpuModel1)
    return; // one run is enough: the device is made here
  IPUModel model("ipu1");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  const unsigned tiles = graph.getTarget().getNumTiles();
  REQUIRE(tiles == 1216);
  const std::size_t n = 1000000;
  const Tensor a = graph.addVariable(FLOAT, {n}, "a");
  const Tensor b = graph.addVariable(FLOAT, {n}, "b");
  // Spread in grains of one element, so that every tile holds some.
  poputil::mapTensorLinearly(graph, a, 1, 1);
  poputil::mapTensorLinearly(graph, b, 1, 1);
  Sequence prog;
  const Tensor y = popops::add(graph, a, b, prog);
  // The output is mapped like the operands, and the vertices go where the
  // output is: one group of regions (a vertex) on every tile.
  CHECK(graph.getTileMapping(y) == graph.getTileMapping(a));
  unsigned vertexTiles = 0, vertices = 0;
  std::vector<bool> seen(tiles, false);
  popops::detail::forEachVertexGroup(
      graph, y.flatten(), "test",
      [&](unsigned tile, const std::vector<Interval> &) {
        ++vertices;
        if (!seen[tile]) {
          seen[tile] = true;
          ++vertexTiles;
        }
      });
  CHECK(vertexTiles == tiles);
  CHECK(vertices == tiles);

  graph.setInitialValue(a, ArrayRef<float>(std::vector<float>(n, 1.5f)));
  graph.setInitialValue(b, ArrayRef<float>(std::vector<float>(n, 2.0f)));
  graph.createHostRead("y", y);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> result(n);
  engine.readTensor("y", result.data(), result.data() + n);
  CHECK(std::all_of(result.begin(), result.end(),
                    [](float x) { return x == 3.5f; }));
}

TEST_CASE("createOutputForElementWiseOp follows the best spread input",
          "[popops][elementwise]") {
  Device device = sdktest::createTestDevice(4);
  Graph graph(device.getTarget());
  Tensor onOne = graph.addVariable(FLOAT, {4, 8}, "onOne");
  graph.setTileMapping(onOne, 0);
  Tensor spread = graph.addVariable(FLOAT, {4, 8}, "spread");
  poputil::mapTensorLinearly(graph, spread, 1, 1);
  Tensor unmapped = graph.addVariable(FLOAT, {4, 8}, "unmapped");
  Tensor out = popops::createOutputForElementWiseOp(
      graph, {unmapped, onOne, spread}, HALF, "out");
  CHECK(out.elementType() == HALF);
  CHECK(out.shape() == spread.shape());
  CHECK(graph.getTileMapping(out) == graph.getTileMapping(spread));
  Tensor linear =
      popops::createOutputForElementWiseOp(graph, {unmapped}, INT, "linear");
  bool complete = false;
  graph.getTileMapping(linear, &complete);
  CHECK(complete);
  Tensor other = graph.addVariable(FLOAT, {8, 4}, "other");
  CHECK_THROWS_WITH(
      popops::createOutputForElementWiseOp(graph, {spread, other}, FLOAT),
      Contains("'other'"));
}
