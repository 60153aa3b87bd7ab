// popops/Cast.hpp, Fill.hpp, Zero.hpp, Encoding.hpp (iota) and
// ScaledAdd.hpp against the host reference.
#include "ElementwiseReference.hpp"
#include "TestRig.hpp"
#include "TestValues.hpp"

#include "ExprOpInfo.hpp"

#include <popops/Cast.hpp>
#include <popops/Encoding.hpp>
#include <popops/Fill.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <poplar/detail/HalfBits.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>

using namespace poplar;
using namespace poplar::program;
using namespace popops_test;
using Catch::Matchers::Contains;

namespace {

// Values to cast from each type: the type's own and ones beyond other
// types' ranges.
Values castValues(const Type &type) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (type == FLOAT || type == HALF)
    return {-40000, -300.75, -1.5, -0.5, 0, 0.5, 1.99, 200.5, 65504, nan};
  if (type == BOOL)
    return {0, 1};
  if (type == CHAR || type == SIGNED_CHAR)
    return {-128, -1, 0, 1, 127};
  if (type == UNSIGNED_CHAR)
    return {0, 1, 128, 255};
  return unaryValues(type);
}

std::string name(const Type &from, const Type &to) {
  return from.toString().str() + "->" + to.toString().str();
}

} // namespace

TEST_CASE("Casts between every pair of types", "[popops][cast]") {
  Rig rig;
  Graph &graph = rig.graph();
  const auto &types = popops::detail::castTypes();
  std::map<std::string, Values> expected;
  for (const Type &from : types) {
    const Values in = castValues(from);
    Values stored;
    for (double x : in)
      stored.push_back(storeAs(from, x));
    const Tensor src =
        rig.input("src" + from.toString().str(), from, {in.size()}, in);
    for (const Type &to : types) {
      rig.read(name(from, to), popops::cast(graph, src, to, rig.prog()));
      Values ref;
      for (double x : stored)
        ref.push_back(cast(from, to, x));
      expected[name(from, to)] = ref;
    }
  }
  rig.run();
  for (const auto &[n, ref] : expected) {
    INFO(n);
    CHECK(compare(rig.values(n), ref, true, 0) == "");
  }
}

// Floats of every kind a HALF result can take: random ones from half's
// subnormals to its largest value, exact ties between two halves, the
// largest finite half and the last float below overflow, zeros, infinities,
// float subnormals and NaNs (alone and in runs).
Values floatsForHalf(std::size_t n) {
  std::mt19937 gen(2024);
  std::uniform_int_distribution<int> exponent(-30, 15);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> kind(0, 19);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Values v;
  while (v.size() < n) {
    const double sign = gen() & 1 ? -1.0 : 1.0;
    switch (kind(gen)) {
    case 0: // a tie: halfway between two halves of the same exponent
      v.push_back(sign * std::ldexp(1024 + (gen() % 1024) + 0.5,
                                    exponent(gen) - 10));
      break;
    case 1:
      v.push_back(sign * std::vector<double>{65504, 65519.99, 0, 6e-8,
                                             1e-40, inf}[gen() % 6]);
      break;
    case 2:
      for (unsigned k = gen() % 12; k-- != 0 && v.size() < n;)
        v.push_back(nan);
      break;
    default:
      v.push_back(float(sign * std::ldexp(mantissa(gen), exponent(gen))));
    }
  }
  v.resize(n);
  return v;
}

TEST_CASE("FLOAT to HALF casts give the scalar rule's bits", "[popops][cast]") {
  // On the CPU device's one tile, large enough to be cast on the host
  // threads; on the IPU Models as much as their tiles hold, cast by each
  // tile's workers. Odd, so that runs end mid-vector.
  for (bool large : {false, true}) {
    Rig rig;
    const bool cpu = rig.target().getTargetType() == TargetType::CPU;
    const std::size_t n = !large ? 37 : cpu ? 300001 : 40001;
    INFO(n << " elements");
    const Values in = floatsForHalf(n);
    const Tensor src = rig.input("src", FLOAT, {n}, in);
    rig.read("half", popops::cast(rig.graph(), src, HALF, rig.prog()));
    rig.run();
    Values ref;
    for (double x : in)
      ref.push_back(poplar::detail::halfBitsToFloat(
          poplar::detail::floatToHalfBits(float(x))));
    CHECK(compare(rig.values("half"), ref, true, 0) == "");
  }
}

TEST_CASE("Cast forms", "[popops][cast]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values v = {-2.5, -1, 0, 1.75, 3};
  const Tensor f = rig.input("f", FLOAT, {5}, v);
  const Tensor i = graph.clone(INT, f);
  popops::castWithOutput(graph, f, i, rig.prog());
  rig.read("castWithOutput", i);
  const Tensor h = graph.clone(HALF, f);
  rig.prog().add(popops::cast(graph, f, h));
  rig.read("program", h);
  const ComputeSet cs = graph.addComputeSet("casts");
  const Tensor b = popops::cast(graph, f, BOOL, cs);
  const Tensor u = graph.clone(UNSIGNED_INT, f);
  popops::cast(graph, f, u, cs);
  rig.prog().add(Execute(cs));
  rig.read("cs", b);
  rig.read("csOut", u);
  // Casting to the same type copies.
  rig.read("same", popops::cast(graph, f, FLOAT, rig.prog()));
  rig.run();
  CHECK(compare(rig.values("castWithOutput"), {-2, -1, 0, 1, 3}, true, 0) ==
        "");
  CHECK(compare(rig.values("program"), v, true, 0) == "");
  CHECK(compare(rig.values("cs"), {1, 1, 0, 1, 1}, true, 0) == "");
  CHECK(compare(rig.values("csOut"), {0, 0, 0, 1, 3}, true, 0) == "");
  CHECK(compare(rig.values("same"), v, true, 0) == "");

  Sequence prog;
  CHECK_THROWS_WITH(popops::cast(graph, f, LONGLONG, prog),
                    Contains("popops::cast") && Contains("'f'") &&
                        Contains("long long"));
  CHECK_THROWS_WITH(
      popops::castWithOutput(graph, f, graph.addVariable(INT, {4}), prog),
      Contains("popops::cast") && Contains("'f'"));
}

TEST_CASE("Fill and zero", "[popops][fill]") {
  Rig rig;
  Graph &graph = rig.graph();
  std::map<std::string, Values> expected;
  for (const Type &type : popops::detail::castTypes()) {
    const Tensor t =
        rig.input("t" + type.toString().str(), type, {2, 5}, Values(10, 0));
    popops::fill(graph, t, rig.prog(), 7);
    rig.read(type.toString().str(), t);
    expected[type.toString().str()] = Values(10, type == BOOL ? 1 : 7);
  }
  const Tensor f = rig.input("f", FLOAT, {8}, iotaValues(8, 1));
  popops::fill(graph, f.slice(2, 5), rig.prog(), -1.5f);
  popops::zero(graph, f.slice(6, 8), rig.prog());
  rig.read("f", f);
  expected["f"] = {1, 2, -1.5, -1.5, -1.5, 6, 0, 0};

  // The compute set forms: everything on one tile, regions of one tile,
  // and a whole mapping.
  const Tensor g = graph.addVariable(INT, {3, 4}, "g");
  graph.setTileMapping(g, 0);
  rig.setValues(g, iotaValues(12));
  const ComputeSet cs = graph.addComputeSet("fills");
  popops::fill(graph, g[0].slice(0, 3), 0, cs, 5);
  popops::zero(graph, g.transpose()[3], {{0, 2}}, 0, cs);
  popops::fill<int>(graph, g.slice(1, 3).flatten().slice(0, 3),
                    graph.getTileMapping(g.slice(1, 3).flatten().slice(0, 3)),
                    cs, -4);
  rig.prog().add(Execute(cs));
  rig.read("g", g);
  expected["g"] = {5, 5, 5, 0, -4, -4, -4, 0, 8, 9, 10, 11};

  // Only the elements on the tile given (all of them on the CPU's one).
  const Tensor spread = rig.input("spread", INT, {8}, iotaValues(8, 1));
  const ComputeSet onTile = graph.addComputeSet("onTile");
  const unsigned tile = rig.numTiles() - 1;
  popops::zero(graph, spread, tile, onTile);
  rig.prog().add(Execute(onTile));
  rig.read("spread", spread);
  Values spreadRef = iotaValues(8, 1);
  const auto spreadMapping = graph.getTileMapping(spread);
  for (const auto &interval : spreadMapping[tile])
    for (auto e = interval.begin(); e != interval.end(); ++e)
      spreadRef[e] = 0;
  CHECK(spreadRef != iotaValues(8, 1));
  expected["spread"] = spreadRef;

  const Tensor z = rig.input("z", HALF, {6}, iotaValues(6, 1));
  popops::zero(graph, z, rig.prog());
  rig.read("z", z);
  expected["z"] = Values(6, 0);
  rig.run();
  for (const auto &[n, ref] : expected) {
    INFO(n);
    CHECK(compare(rig.values(n), ref, true, 0) == "");
  }

  Sequence prog;
  CHECK_THROWS_WITH(
      popops::fill(graph, graph.addConstant(FLOAT, {2}, 1.0f, "c"), prog, 0),
      Contains("popops::fill") && Contains("'c'"));
}

TEST_CASE("iota", "[popops][iota]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Tensor u = rig.input("u", UNSIGNED_INT, {10}, Values(10, 0));
  popops::iota(graph, u, 5u, rig.prog());
  rig.read("u", u);
  const Tensor i = rig.input("i", INT, {12}, Values(12, 0));
  popops::iota(graph, i.slice(2, 12).subSample(2, 0), -3, rig.prog());
  rig.read("i", i);
  rig.run();
  CHECK(compare(rig.values("u"), iotaValues(10, 5), true, 0) == "");
  CHECK(compare(rig.values("i"), {0, 0, -3, 0, -2, 0, -1, 0, 0, 0, 1, 0}, true,
                0) == "");

  Sequence prog;
  CHECK_THROWS_WITH(popops::iota(graph, u, -1, prog),
                    Contains("popops::iota") && Contains("'u'") &&
                        Contains("unsigned int"));
  CHECK_THROWS_WITH(popops::iota(graph, i.reshape({3, 4}), 0, prog),
                    Contains("rank"));
}

TEST_CASE("Scaled additions", "[popops][scaledAdd]") {
  Rig rig;
  Graph &graph = rig.graph();
  const Values va = {1, 2, 3, 4, 5, 6}, vb = {0.5, -1, 2, 0, 8, -3};
  auto A = [&](const std::string &n, const Type &t) {
    return rig.input(n, t, {2, 3}, va);
  };
  const Tensor b = rig.input("b", FLOAT, {2, 3}, vb);
  const Tensor bh = rig.input("bh", HALF, {2, 3}, vb);
  const Tensor scale = rig.input("scale", FLOAT, {1}, {0.25});
  const Tensor scaleH = rig.input("scaleH", HALF, {}, {4});

  std::map<std::string, std::function<double(double, double)>> fns;
  std::map<std::string, Tensor> tensors;
  const Tensor a1 = A("a1", FLOAT);
  tensors["a1"] = a1;
  popops::scaledAddTo(graph, a1, b, 2.0f, rig.prog());
  fns["a1"] = [](double a, double b) { return a + 2 * b; };
  const Tensor a2 = A("a2", FLOAT);
  tensors["a2"] = a2;
  popops::scaledAddTo(graph, a2, b, scale, rig.prog());
  fns["a2"] = [](double a, double b) { return a + 0.25 * b; };
  const Tensor a3 = A("a3", FLOAT);
  tensors["a3"] = a3;
  popops::scaledSubtractFrom(graph, a3, b, 3.0f, rig.prog());
  fns["a3"] = [](double a, double b) { return a - 3 * b; };
  const Tensor a4 = A("a4", HALF);
  tensors["a4"] = a4;
  popops::scaledSubtractFrom(graph, a4, bh, scaleH, rig.prog());
  fns["a4"] = [](double a, double b) { return a - 4 * b; };
  const Tensor a5 = A("a5", FLOAT);
  tensors["a5"] = a5;
  popops::scaledAddTo(graph, a5, scale, b, scale, rig.prog());
  fns["a5"] = [](double a, double b) { return 0.25 * a + 0.25 * b; };
  const Tensor a6 = A("a6", FLOAT);
  tensors["a6"] = a6;
  popops::scaledAddTo(graph, a6, scale, b, scale, rig.prog(),
                      popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  fns["a6"] = [](double a, double b) { return 0.75 * a + 0.25 * b; };
  const Tensor a7 = A("a7", HALF);
  tensors["a7"] = a7;
  popops::scaledAddTo(graph, a7, 0.5f, b, -2.0f, rig.prog());
  fns["a7"] = [](double a, double b) { return 0.5 * a - 2 * b; };
  const Tensor a8 = A("a8", FLOAT);
  tensors["a8"] = a8;
  popops::scaledSubtractFrom(graph, a8, 2.0f, b, 0.5f, rig.prog());
  fns["a8"] = [](double a, double b) { return 2 * a - 0.5 * b; };
  const Tensor a9 = A("a9", FLOAT);
  tensors["a9"] = a9;
  popops::scaledSubtractFrom(graph, a9, scale, b, scale, rig.prog());
  fns["a9"] = [](double a, double b) { return 0.25 * a - 0.25 * b; };
  const Tensor a10 = A("a10", INT);
  tensors["a10"] = a10;
  popops::scaledAddTo(graph, a10, b, 3.0f, rig.prog()); // b cast to int
  fns["a10"] = [](double a, double b) { return a + 3 * std::trunc(b); };
  const Tensor a11 = A("a11", FLOAT);
  tensors["a11"] = a11;
  popops::scaledAddTo(graph, a11, 0.5f, b, 2.0f, rig.prog(),
                      popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  fns["a11"] = [](double a, double b) { return 0.5 * a + 2 * b; };
  // B aliasing A: A += 2 * A.
  const Tensor a12 = A("a12", FLOAT);
  tensors["a12"] = a12;
  popops::scaledAddTo(graph, a12, a12, 2.0f, rig.prog());
  fns["a12"] = [](double a, double) { return 3 * a; };
  for (const auto &[n, t] : tensors)
    rig.read(n, t);
  rig.run();
  for (const auto &[n, fn] : fns) {
    INFO(n);
    const Type type = tensors[n].elementType();
    Values ref;
    for (std::size_t i = 0; i != va.size(); ++i)
      ref.push_back(storeAs(type, fn(va[i], vb[i])));
    CHECK(compare(rig.values(n), ref, true, 0) == "");
  }

  Sequence prog;
  const Tensor small = A("small", FLOAT).slice(0, 1, 1);
  CHECK_THROWS_WITH(popops::scaledAddTo(graph, small, b, 1.0f, prog),
                    Contains("popops::scaledAddTo") && Contains("'b'") &&
                        Contains("shape"));
  CHECK_THROWS_WITH(popops::scaledAddTo(graph, A("bools", BOOL), b, 1.0f, prog),
                    Contains("popops::scaledAddTo") && Contains("bool"));
  CHECK_THROWS_WITH(popops::scaledAddTo(graph, a1, b, b, prog),
                    Contains("scaleB") && Contains("one element"));
}
