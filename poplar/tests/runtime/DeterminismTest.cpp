// Results do not depend on the number of host threads.
#include <catch2/catch.hpp>

#include "EngineTestUtil.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/detail/CrossReplica.hpp>

#include <tbb/global_control.h>

#include <cmath>

#include <numeric>
#include <random>

using namespace poplar;
using namespace poplar::program;
using CrossReplicaOp = poplar::detail::CrossReplicaOperator;

namespace {

// A large shuffle of a 512x1024 variable through views, run with the given
// number of threads; returns the result.
std::vector<float> shuffle(unsigned threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  sdktest::TestGraph g;
  Tensor a = g.variable(FLOAT, {512, 1024}, "a");
  Tensor b = g.variable(FLOAT, {1024, 512}, "b");
  Sequence prog;
  prog.add(Copy(a.transpose(), b));
  prog.add(Copy(b.reverse(0).slice(0, 256, 0).flatten(),
                a.slice(0, 512, 1).subSample(2, 0).flatten()));
  prog.add(Copy(a.slice(0, 1000, 1), a.slice(24, 1024, 1))); // overlapping
  // 4 MB on four tiles is more than the IPU Model's tiles hold.
  Engine engine(g.graph, prog, {{"debug.allowOutOfMemory", "true"}});
  engine.load(g.device);
  std::vector<float> in(512 * 1024);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (auto &x : in)
    x = dist(rng);
  sdktest::writeTo(engine, "a", in);
  engine.run();
  return sdktest::readBack<float>(engine, "a", in.size());
}

} // namespace

TEST_CASE("Copies give the same bits for any thread count",
          "[poplar][engine][determinism]") {
  const auto one = shuffle(1);
  const auto two = shuffle(2);
  const auto many = shuffle(8);
  CHECK(one == two);
  CHECK(one == many);
}

namespace {

// An all-reduce of 4 replicas' 200,000 floats of mixed magnitude (above the
// size at which the host's threads share the reduction).
std::vector<float> allReduce(unsigned threads, CrossReplicaOp op) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  constexpr unsigned replicas = 4;
  constexpr std::size_t n = 200000;
  IPUModel model("ipu2");
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  graph.setTileMapping(x, 0);
  graph.createHostWrite("x", x);
  graph.createHostRead("x", x);
  Engine engine(graph,
                poplar::detail::crossReplicaCollective(
                    poplar::detail::CrossReplicaCollective::AllReduce, op, x,
                    x),
                {{"debug.allowOutOfMemory", "true"}});
  engine.load(device);
  std::vector<float> in(n * replicas);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-8, 8);
  for (auto &v : in)
    v = std::ldexp(1.0f, int(dist(rng))) * dist(rng);
  engine.writeTensor("x", in.data(), in.data() + in.size());
  engine.run();
  engine.readTensor("x", in.data(), in.data() + in.size());
  return in;
}

} // namespace

TEST_CASE("Cross-replica reductions give the same bits for any thread count",
          "[poplar][engine][determinism][replication]") {
  for (auto op : {CrossReplicaOp::ADD, CrossReplicaOp::SQUARE_ADD}) {
    const auto one = allReduce(1, op);
    CHECK(one == allReduce(2, op));
    CHECK(one == allReduce(8, op));
  }
}
