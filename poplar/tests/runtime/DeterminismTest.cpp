// Results do not depend on the number of host threads.
#include <catch2/catch.hpp>

#include "EngineTestUtil.hpp"

#include <tbb/global_control.h>

#include <numeric>
#include <random>

using namespace poplar;
using namespace poplar::program;

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
