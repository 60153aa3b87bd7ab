// The ai.graphcore printtensor, call, packedDataBlock, batchnormalization
// and collectives from C++ (the Python tests, test_graphcore_ops_extras.py
// and test_packed_data_block.py, cover their layouts, gradients and
// replicated runs in more depth): values against
// host loops, the printed text, a gradient through a call against central
// differences, and the errors naming the op.
#include "GraphcoreOpsHarness.hpp"

#include <iostream>
#include <sstream>

using namespace popart;
using namespace gcops;

namespace {

// Standard output (the engine's print stream) captured while alive.
class CapturedStdout {
public:
  CapturedStdout() : saved(std::cout.rdbuf(text.rdbuf())) {}
  ~CapturedStdout() { std::cout.rdbuf(saved); }
  std::string str() const { return text.str(); }

private:
  std::ostringstream text;
  std::streambuf *saved;
};

} // namespace

TEST_CASE("printtensor prints in the original's layout and passes its "
          "input through") {
  Model m;
  const TensorId x = m.input(DataType::INT32, {2, 3});
  const TensorId y = m.gc().printtensor({x}, 1, {}, "x");
  const TensorId f = m.input(DataType::FLOAT, {3});
  const TensorId g = m.gc().printtensor({f}, 1, {}, "f", 1000, 3, 75, 4, 1,
                                        ',', '<', '>');
  Values v;
  std::string printed;
  {
    CapturedStdout out;
    v = run(m, {y, g},
            {{x, {1, -20, 300, 4, 5, 6}}, {f, {1.5, -0.25, 12.0}}});
    printed = out.str();
  }
  requireClose(v[y], {1, -20, 300, 4, 5, 6});
  requireClose(v[g], {1.5, -0.25, 12.0});
  // Right-aligned to the widest; rows as numpy lays them out.
  CHECK(printed.find("x: [[  1 -20 300]\n [  4   5   6]]\n") !=
        std::string::npos);
  // 4 digits, 2 before the point: 2 after.
  CHECK(printed.find("f: < 1.50,-0.25,12.00>\n") != std::string::npos);
}

TEST_CASE("call runs the subgraph builder's graph, and differentiates "
          "through it") {
  Model m;
  Builder &sub = m.builder->createSubgraphBuilder();
  const TensorId a = sub.addInputTensor(TensorInfo(DataType::FLOAT, {4}));
  const TensorId b = sub.addInputTensor(TensorInfo(DataType::FLOAT, {4}));
  auto so = sub.aiOnnxOpset11();
  sub.addOutputTensor(so.mul({so.exp({a}), b}));
  const TensorId x = m.input(DataType::FLOAT, {4});
  const TensorId w = m.input(DataType::FLOAT, {4});
  const auto outs = m.gc().call({x, w}, 1, sub);
  REQUIRE(outs.size() == 1);
  const std::vector<double> xs = {0.1, -0.5, 1.0, 0.3},
                            ws = {2.0, -1.0, 0.5, 3.0},
                            r = {1.0, 2.0, -1.0, 0.5};
  const auto host = [](const std::vector<double> &p,
                       const std::vector<double> &q) {
    std::vector<double> y;
    for (std::size_t i = 0; i < p.size(); ++i)
      y.push_back(std::exp(p[i]) * q[i]);
    return y;
  };
  const Values v = run(m, outs, {{x, xs}, {w, ws}}, &r);
  requireClose(v[outs[0]], host(xs, ws));
  // Central differences of sum(call(x, w) * r).
  const double h = 1e-6;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    auto up = xs, down = xs;
    up[i] += h;
    down[i] -= h;
    double dx = 0, dw = 0;
    const auto yu = host(up, ws), yd = host(down, ws);
    auto wu = ws, wd = ws;
    wu[i] += h;
    wd[i] -= h;
    const auto zu = host(xs, wu), zd = host(xs, wd);
    for (std::size_t k = 0; k < r.size(); ++k) {
      dx += (yu[k] - yd[k]) * r[k] / (2 * h);
      dw += (zu[k] - zd[k]) * r[k] / (2 * h);
    }
    INFO("element " << i);
    CHECK(std::abs(v[getGradId(x)][i] - dx) < 1e-4 * (1 + std::abs(dx)));
    CHECK(std::abs(v[getGradId(w)][i] - dw) < 1e-4 * (1 + std::abs(dw)));
  }
}

TEST_CASE("packedDataBlock runs the callback on batches of unpacked "
          "sequences and packs its output") {
  // Sequences of [9, 2] of lengths 2, 3, 1, 3, squared two at a time
  // (padded to 3 rows), packed back in the reverse order.
  Model m;
  Builder &callback = m.builder->createSubgraphBuilder();
  const TensorId in =
      callback.addInputTensor(TensorInfo(DataType::FLOAT, {2, 3, 2}));
  callback.addOutputTensor(callback.aiOnnxOpset11().mul({in, in}));
  const TensorId data = m.input(DataType::FLOAT, {9, 2});
  const TensorId offsets = m.input(DataType::UINT32, {4});
  const TensorId lengths = m.input(DataType::UINT32, {4});
  const TensorId resultOffsets = m.input(DataType::UINT32, {4});
  const TensorId out = m.gc().packedDataBlock(
      {data, offsets, lengths, resultOffsets, lengths}, {3}, 9, 2, callback);
  // The callback's typed output gives the result's shape.
  REQUIRE(m.builder->getTensorShape(out) == Shape{9, 2});
  const std::vector<double> xs = ramp(18, -2.0, 0.25),
                            offs = {0, 2, 5, 6}, lens = {2, 3, 1, 3},
                            resultOffs = {7, 4, 3, 0};
  const Values v = run(m, {out}, {{data, xs}, {offsets, offs},
                                  {lengths, lens},
                                  {resultOffsets, resultOffs}});
  std::vector<double> want(18, 0.0);
  for (std::size_t s = 0; s < 4; ++s)
    for (std::size_t r = 0; r < std::size_t(lens[s]); ++r)
      for (std::size_t e = 0; e < 2; ++e) {
        const double x = xs[(std::size_t(offs[s]) + r) * 2 + e];
        want[(std::size_t(resultOffs[s]) + r) * 2 + e] = x * x;
      }
  requireClose(v[out], want);
  REQUIRE_THROWS_WITH(
      m.gc().packedDataBlock({data, offsets, lengths}, {3}, 9, 2, callback,
                             "pdb"),
      Catch::Contains("PackedDataBlock 'pdb': 3 inputs given, but 1 "
                      "maxSequenceLengths need 5"));
}

TEST_CASE("batchnormalization (ai.graphcore) in inference") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {2, 2, 3});
  const std::vector<float> scale = {1.5f, 0.5f}, bias = {0.1f, -0.2f},
                           mean = {0.3f, -1.0f}, var = {2.0f, 0.25f};
  const auto outs = m.gc().batchnormalization(
      {x, m.constant(scale), m.constant(bias), m.constant(mean),
       m.constant(var)},
      1, 1e-3f);
  const std::vector<double> xs = ramp(12, -1.0, 0.25);
  const Values v = run(m, outs, {{x, xs}});
  std::vector<double> want;
  for (int64_t i = 0; i < 12; ++i) {
    const int64_t c = (i / 3) % 2;
    want.push_back((xs[i] - mean[c]) / std::sqrt(double(var[c]) + 1e-3) *
                       scale[c] +
                   bias[c]);
  }
  requireClose(v[outs[0]], want, 1e-5);
}

TEST_CASE("replicatedallreduce with one replica is the input") {
  // (With 2 and 4 replicas against NumPy: test_graphcore_ops_extras.py.)
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {3});
  const TensorId y = m.gc().replicatedallreduce(
      {x}, nonstd::optional<CollectiveOperator>(CollectiveOperator::Max),
      nonstd::optional<CommGroup>(CommGroup(CommGroupType::All, 0)));
  const Values v = run(m, {y}, {{x, {1.0, -2.0, 3.0}}});
  requireClose(v[y], {1.0, -2.0, 3.0});
}

TEST_CASE("the errors of printtensor, call, batchnormalization and the "
          "collectives name the op") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {2});
  Builder &sub = m.builder->createSubgraphBuilder();
  const TensorId a = sub.addInputTensor(TensorInfo(DataType::FLOAT, {2}));
  sub.addOutputTensor(sub.aiOnnxOpset11().neg({a}));
  REQUIRE_THROWS_WITH(m.gc().call({x}, 2, sub, "mycall"),
                      Catch::Contains("For CallOp 'mycall', number of outputs "
                                      "(2) does not match that of the callee "
                                      "subgraph (1)"));
  REQUIRE_THROWS_WITH(m.gc().call({x, x}, 1, sub),
                      Catch::Contains("number of inputs (2)"));
  REQUIRE_THROWS_WITH(m.gc().printtensor({x, x}),
                      Catch::Contains("PrintTensor takes 1 input"));
  REQUIRE_THROWS_WITH(m.gc().batchnormalization({x}, 1),
                      Catch::Contains("BatchNormalization takes 5 inputs"));
  REQUIRE_THROWS_WITH(
      m.gc().replicatedreducescatter({}, nonstd::nullopt, nonstd::nullopt),
      Catch::Contains("ReplicatedReduceScatter takes 1 input"));

  Model bad;
  const TensorId f = bad.input(DataType::FLOAT, {2});
  const TensorId p =
      bad.gc().printtensor({f}, 1, {}, "", 1000, 3, 75, 8, /*floatFormat=*/9);
  CHECK_THAT(errorOf(bad, p),
             Catch::Contains("PrintTensor") &&
                 Catch::Contains("floatFormat is 9"));

  Model grouped;
  const TensorId g = grouped.input(DataType::FLOAT, {2});
  const TensorId r = grouped.gc().replicatedallreduce(
      {g}, nonstd::nullopt,
      nonstd::optional<CommGroup>(CommGroup(CommGroupType::Consecutive, 2)));
  CHECK_THAT(errorOf(grouped, r),
             Catch::Contains("ReplicatedAllReduce") &&
                 Catch::Contains("does not divide the 1 replicas"));
}
