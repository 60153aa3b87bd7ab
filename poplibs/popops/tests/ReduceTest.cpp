// popops::reduce against a host loop: every operation, sets of dimensions,
// one- and two-stage plans, scale and update, reduceMany, and errors.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>

using namespace poplar;
using namespace popops;
using Catch::Matchers::Contains;

namespace {

// The host reference: reduce a row-major array over `dims`.
std::vector<double> hostReduce(const std::vector<double> &in,
                               const std::vector<std::size_t> &shape,
                               const std::vector<std::size_t> &dims,
                               Operation op) {
  std::vector<std::size_t> outShape, keep;
  for (std::size_t d = 0; d != shape.size(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
      outShape.push_back(shape[d]);
      keep.push_back(d);
    }
  const std::size_t outN = std::accumulate(outShape.begin(), outShape.end(),
                                           std::size_t(1), std::multiplies<>());
  std::vector<std::vector<double>> rows(outN);
  std::vector<std::size_t> idx(shape.size(), 0);
  for (std::size_t flat = 0; flat != in.size(); ++flat) {
    std::size_t o = 0;
    for (auto d : keep)
      o = o * shape[d] + idx[d];
    rows[o].push_back(in[flat]);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  std::vector<double> out;
  for (const auto &r : rows) {
    double acc;
    switch (op) {
    case Operation::ADD:
      acc = std::accumulate(r.begin(), r.end(), 0.0);
      break;
    case Operation::SQUARE_ADD:
      acc = 0;
      for (double x : r)
        acc += x * x;
      break;
    case Operation::MUL:
      acc = 1;
      for (double x : r)
        acc *= x;
      break;
    case Operation::MIN:
      acc = r.empty() ? INFINITY : *std::min_element(r.begin(), r.end());
      break;
    case Operation::MAX:
      acc = r.empty() ? -INFINITY : *std::max_element(r.begin(), r.end());
      break;
    case Operation::LOGICAL_AND:
      acc = std::all_of(r.begin(), r.end(), [](double x) { return x != 0; });
      break;
    case Operation::LOGICAL_OR:
      acc = std::any_of(r.begin(), r.end(), [](double x) { return x != 0; });
      break;
    case Operation::LOG_ADD:
      acc = 0;
      for (double x : r)
        acc += std::exp(x);
      acc = std::log(acc);
      break;
    }
    out.push_back(acc);
  }
  return out;
}

struct ReduceCase {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  ReduceCase() { popops::addCodelets(graph); }

  // Runs the program, writing `values` (as `type`) to `in`, and returns
  // `out` read back as doubles.
  std::vector<double> run(const program::Program &prog, const Tensor &in,
                          const std::vector<double> &values, const Tensor &out,
                          const std::vector<double> &outInit = {}) {
    graph.createHostWrite("in", in);
    graph.createHostWrite("out-w", out);
    graph.createHostRead("out", out);
    Engine engine(graph, prog);
    engine.load(device);
    write(engine, "in", in.elementType(), values);
    if (!outInit.empty())
      write(engine, "out-w", out.elementType(), outInit);
    engine.run();
    return read(engine, "out", out.elementType(), out.numElements());
  }

  void write(Engine &e, const std::string &h, const Type &t,
             const std::vector<double> &v) {
    if (t == FLOAT) {
      std::vector<float> x(v.begin(), v.end());
      e.writeTensor(h, x.data(), x.data() + x.size());
    } else if (t == HALF) {
      std::vector<float> f(v.begin(), v.end());
      std::vector<std::uint16_t> x(v.size());
      copyFloatToDeviceHalf(graph.getTarget(), f.data(), x.data(), x.size());
      e.writeTensor(h, x.data(), x.data() + x.size());
    } else if (t == INT) {
      std::vector<int> x(v.begin(), v.end());
      e.writeTensor(h, x.data(), x.data() + x.size());
    } else {
      std::vector<char> x(v.size());
      for (std::size_t i = 0; i != v.size(); ++i)
        x[i] = v[i] != 0;
      e.writeTensor(h, x.data(), x.data() + x.size());
    }
  }

  std::vector<double> read(Engine &e, const std::string &h, const Type &t,
                           std::size_t n) {
    if (t == FLOAT) {
      std::vector<float> x(n);
      e.readTensor(h, x.data(), x.data() + n);
      return {x.begin(), x.end()};
    }
    if (t == HALF) {
      std::vector<std::uint16_t> x(n);
      std::vector<float> f(n);
      e.readTensor(h, x.data(), x.data() + n);
      copyDeviceHalfToFloat(graph.getTarget(), x.data(), f.data(), n);
      return {f.begin(), f.end()};
    }
    if (t == INT) {
      std::vector<int> x(n);
      e.readTensor(h, x.data(), x.data() + n);
      return {x.begin(), x.end()};
    }
    std::vector<char> x(n);
    e.readTensor(h, x.data(), x.data() + n);
    return {x.begin(), x.end()};
  }
};

std::vector<double> randomValues(std::size_t n, Operation op, const Type &t,
                                 unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<double> v(n);
  for (auto &x : v) {
    if (t == BOOL)
      x = rng() % 4 != 0;
    else if (t == INT)
      x = int(rng() % 7) - 3;
    else if (op == Operation::MUL)
      x = 0.5 + (rng() % 100) / 100.0; // keep products in range
    else
      x = (int(rng() % 2001) - 1000) / 256.0; // exact in half
  }
  return v;
}

void checkClose(const std::vector<double> &got, const std::vector<double> &want,
                double relTol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i != got.size(); ++i) {
    if (std::isinf(want[i])) {
      CHECK(got[i] == want[i]);
      continue;
    }
    CHECK(got[i] == Approx(want[i]).epsilon(relTol).margin(relTol));
  }
}

} // namespace

TEST_CASE("Every operation over several sets of dimensions", "[popops][reduce]") {
  const std::vector<std::size_t> shape{3, 4, 5};
  const std::vector<std::vector<std::size_t>> dimSets{
      {0}, {1}, {2}, {0, 2}, {2, 0, 1}, {}};
  struct OpType {
    Operation op;
    Type type;
  };
  const std::vector<OpType> cases{
      {Operation::ADD, FLOAT},        {Operation::ADD, HALF},
      {Operation::ADD, INT},          {Operation::SQUARE_ADD, FLOAT},
      {Operation::MUL, FLOAT},        {Operation::MIN, FLOAT},
      {Operation::MAX, INT},          {Operation::LOGICAL_AND, BOOL},
      {Operation::LOGICAL_OR, BOOL},  {Operation::LOG_ADD, FLOAT}};
  unsigned seed = 1;
  for (const auto &c : cases)
    for (const auto &dims : dimSets) {
      ReduceCase t;
      Tensor in = t.graph.addVariable(c.type, shape, "in");
      // Spread every row over several tiles so most plans take two stages.
      poputil::mapTensorLinearly(t.graph, in, 1, 1);
      program::Sequence prog;
      Tensor out = reduce(t.graph, in, dims, c.op, prog, "r");
      const auto values = randomValues(60, c.op, c.type, seed++);
      const auto got = t.run(prog, in, values, out);
      INFO("op " << int(c.op) << " type " << c.type.toString().str()
                 << " dims " << dims.size());
      checkClose(got, hostReduce(values, shape, dims, c.op),
                 c.type == HALF ? 2e-3 : 1e-5);
    }
}

TEST_CASE("Scale, update and the output type", "[popops][reduce]") {
  ReduceCase t;
  Tensor in = t.graph.addVariable(FLOAT, {6, 8}, "in");
  poputil::mapTensorLinearly(t.graph, in, 1, 1);
  Tensor out = t.graph.addVariable(HALF, {6}, "out");
  poputil::mapTensorLinearly(t.graph, out, 1, 1);
  Tensor scale = t.graph.addConstant(FLOAT, {}, 0.5f, "scale");
  t.graph.setTileMapping(scale, 0);
  program::Sequence prog;
  reduceWithOutput(t.graph, in, out, {1},
                   ReduceParams(Operation::ADD, true, scale), prog, "r");
  const auto values = randomValues(48, Operation::ADD, FLOAT, 9);
  const std::vector<double> init{1, 2, 3, 4, 5, 6};
  const auto got = t.run(prog, in, values, out, init);
  const auto sums = hostReduce(values, {6, 8}, {1}, Operation::ADD);
  std::vector<double> want(6);
  for (std::size_t i = 0; i != 6; ++i)
    want[i] = init[i] + 0.5 * sums[i];
  checkClose(got, want, 2e-3);
}

TEST_CASE("reduceMany shares compute sets", "[popops][reduce]") {
  ReduceCase t;
  Tensor a = t.graph.addVariable(FLOAT, {4, 6}, "a");
  poputil::mapTensorLinearly(t.graph, a, 1, 1);
  std::vector<Tensor> outs;
  program::Sequence prog;
  reduceMany(t.graph,
             {SingleReduceOp(a, {0}, Operation::MAX, "max"),
              SingleReduceOp(a, {1}, Operation::ADD, FLOAT, "sum")},
             outs, prog, "many");
  REQUIRE(outs.size() == 2);
  CHECK(outs[0].shape() == std::vector<std::size_t>{6});
  CHECK(outs[1].shape() == std::vector<std::size_t>{4});
  t.graph.createHostRead("sum", outs[1]);
  const auto values = randomValues(24, Operation::ADD, FLOAT, 3);
  const auto got = t.run(prog, a, values, outs[0]);
  checkClose(got, hostReduce(values, {4, 6}, {0}, Operation::MAX), 1e-6);
}

TEST_CASE("A large reduction to a scalar", "[popops][reduce]") {
  ReduceCase t;
  const std::size_t n = 100000;
  Tensor in = t.graph.addVariable(FLOAT, {n}, "in");
  poputil::mapTensorLinearly(t.graph, in);
  program::Sequence prog;
  Tensor out = reduce(t.graph, in, {0}, Operation::ADD, prog, "sum");
  CHECK(out.rank() == 0);
  std::vector<double> values(n);
  for (std::size_t i = 0; i != n; ++i)
    values[i] = double(i % 7);
  const auto got = t.run(prog, in, values, out);
  CHECK(got[0] == Approx(std::accumulate(values.begin(), values.end(), 0.0)));
}

TEST_CASE("Reductions that cannot be made", "[popops][reduce]") {
  ReduceCase t;
  Tensor in = t.graph.addVariable(FLOAT, {2, 3}, "in");
  Tensor b = t.graph.addVariable(BOOL, {2, 3}, "b");
  program::Sequence prog;
  CHECK_THROWS_AS(reduce(t.graph, in, {2}, Operation::ADD, prog),
                  poputil::poplibs_error);
  CHECK_THROWS_WITH(reduce(t.graph, in, {2}, Operation::ADD, prog),
                    Contains("'in'") && Contains("no dimension 2"));
  CHECK_THROWS_WITH(reduce(t.graph, in, {0, 0}, Operation::ADD, prog),
                    Contains("twice"));
  CHECK_THROWS_WITH(reduce(t.graph, in, {0}, Operation::LOGICAL_AND, prog),
                    Contains("LOGICAL_AND") && Contains("float"));
  CHECK_THROWS_WITH(reduce(t.graph, b, {0}, Operation::ADD, prog),
                    Contains("ADD") && Contains("bool"));
  Tensor wrong = t.graph.addVariable(FLOAT, {4}, "wrong");
  CHECK_THROWS_WITH(
      reduceWithOutput(t.graph, in, wrong, {1}, Operation::ADD, prog),
      Contains("'wrong'") && Contains("{4}") && Contains("{2}"));
}

TEST_CASE("Reductions of empty tensors", "[popops][reduce][empty]") {
  ReduceCase t;
  program::Sequence prog;
  // Reducing an empty dimension gives each output the operation's identity.
  Tensor noRows = t.graph.addVariable(FLOAT, {0, 4}, "noRows");
  Tensor sums = reduce(t.graph, noRows, {0}, Operation::ADD, prog, "sum");
  Tensor maxes = reduce(t.graph, noRows, {0}, Operation::MAX, prog, "max");
  Tensor noCols = t.graph.addVariable(HALF, {3, 0}, "noCols");
  Tensor products =
      reduce(t.graph, noCols, FLOAT, {1}, Operation::MUL, prog, "mul");
  // Keeping the empty dimension gives an empty result and no work.
  Tensor none = reduce(t.graph, noRows, {1}, Operation::ADD, prog, "none");
  CHECK(sums.shape() == std::vector<std::size_t>{4});
  CHECK(products.shape() == std::vector<std::size_t>{3});
  CHECK(none.shape() == std::vector<std::size_t>{0});
  t.graph.createHostRead("sums", sums);
  t.graph.createHostRead("maxes", maxes);
  t.graph.createHostRead("products", products);
  Engine engine(t.graph, prog);
  engine.load(t.device);
  engine.run();
  CHECK(t.read(engine, "sums", FLOAT, 4) == std::vector<double>(4, 0.0));
  CHECK(t.read(engine, "maxes", FLOAT, 4) == std::vector<double>(4, -INFINITY));
  CHECK(t.read(engine, "products", FLOAT, 3) == std::vector<double>(3, 1.0));
}

TEST_CASE("Transposed and strided inputs", "[popops][reduce][layout]") {
  // The input is a view whose elements are not contiguous in memory: each
  // output's elements are scattered over the tiles.
  struct LayoutCase {
    Type in, out;
    Operation op;
  };
  const std::vector<LayoutCase> cases{{FLOAT, FLOAT, Operation::ADD},
                                      {HALF, HALF, Operation::MAX},
                                      {HALF, FLOAT, Operation::ADD},
                                      {INT, INT, Operation::MIN}};
  unsigned seed = 40;
  for (const auto &c : cases) {
    INFO("in " << c.in.toString().str() << " out " << c.out.toString().str());
    ReduceCase t;
    Tensor in = t.graph.addVariable(c.in, {6, 10}, "in");
    poputil::mapTensorLinearly(t.graph, in, 1, 3);
    program::Sequence prog;
    // Transposed, [10, 6]: reducing its dimension 1 sums each column.
    Tensor cols = reduce(t.graph, in.transpose(), c.out, {1}, c.op, prog, "t");
    // Every other column, [6, 5], reduced along the rows.
    Tensor strided =
        reduce(t.graph, in.subSample(2, 1), c.out, {1}, c.op, prog, "s");
    t.graph.createHostWrite("in", in);
    t.graph.createHostRead("cols", cols);
    t.graph.createHostRead("strided", strided);
    const auto values = randomValues(60, c.op, c.in, seed++);
    Engine engine(t.graph, prog);
    engine.load(t.device);
    t.write(engine, "in", c.in, values);
    engine.run();
    const double tol = c.in == HALF ? 2e-3 : 1e-5;
    checkClose(t.read(engine, "cols", c.out, 10),
               hostReduce(values, {6, 10}, {0}, c.op), tol);
    std::vector<double> every2;
    for (std::size_t r = 0; r != 6; ++r)
      for (std::size_t col = 0; col < 10; col += 2)
        every2.push_back(values[r * 10 + col]);
    checkClose(t.read(engine, "strided", c.out, 6),
               hostReduce(every2, {6, 5}, {1}, c.op), tol);
  }
}

TEST_CASE("Half reductions accumulate in float", "[popops][reduce][half]") {
  // 2048 followed by 511 values of 0.25: a half accumulator would lose
  // every 0.25 (halves near 2048 are 2 apart), a float one keeps them.
  ReduceCase t;
  Tensor in = t.graph.addVariable(HALF, {2, 512}, "in");
  poputil::mapTensorLinearly(t.graph, in, 1, 64);
  program::Sequence prog;
  Tensor out = reduce(t.graph, in, FLOAT, {1}, Operation::ADD, prog, "sum");
  std::vector<double> values(1024, 0.25);
  values[0] = 2048;
  values[512] = -2048;
  const auto got = t.run(prog, in, values, out);
  CHECK(got[0] == 2048 + 511 * 0.25);
  CHECK(got[1] == -2048 + 511 * 0.25);
}
