// Replicated graphs on the device variant under test: per-replica and
// broadcast streams, host handles of every replica, the replication index,
// cross-replica copies and collectives, each checked against values worked
// out on the host.
#include <catch2/catch.hpp>

#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/RandomSeed.hpp>
#include <poplar/detail/CrossReplica.hpp>
#include <poplar/exceptions.hpp>

#include <cmath>
#include <numeric>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
using poplar::detail::CrossReplicaCollective;
using poplar::detail::crossReplicaCollective;
using poplar::detail::CrossReplicaOperator;

namespace {

// A device of `replicas` IPUs of the variant under test, with a graph
// replicated over them.
struct ReplicatedGraph {
  explicit ReplicatedGraph(unsigned replicas)
      : device(sdktest::createTestDevice(sdktest::deviceTypeFromEnvironment(),
                                         replicas, 4)),
        graph(device.getTarget(), replication_factor(replicas)) {}

  // A variable spread over the replica's tiles, with host handles.
  Tensor variable(const Type &type, std::size_t n, const std::string &name) {
    Tensor t = graph.addVariable(type, {n}, name);
    const unsigned tiles = graph.getTarget().getNumTiles();
    for (std::size_t i = 0; i != n; ++i)
      graph.setTileMapping(t[i], static_cast<unsigned>(i % tiles));
    graph.createHostWrite(name + "-write", t);
    graph.createHostRead(name + "-read", t);
    return t;
  }

  Device device;
  Graph graph;
};

template <class T>
std::vector<T> readAll(Engine &engine, const std::string &name, std::size_t n,
                       unsigned replicas) {
  std::vector<T> out(n * replicas);
  engine.readTensor(name + "-read", out.data(), out.data() + out.size());
  return out;
}

} // namespace

TEST_CASE("A replicated graph splits the target's IPUs between its replicas",
          "[poplar][replication]") {
  ReplicatedGraph g(2);
  CHECK(g.graph.getReplicationFactor() == 2);
  CHECK(g.graph.getTarget().getNumIPUs() == 1);
  CHECK(g.graph.getTarget().getNumTiles() ==
        g.device.getTarget().getNumTiles() / 2);
  Graph plain(g.device.getTarget());
  CHECK(plain.getReplicationFactor() == 1);

  // createReplicatedGraph on an empty two-IPU graph does the same.
  Graph parent(g.device.getTarget());
  Graph replicated = parent.createReplicatedGraph(2);
  CHECK(replicated.getReplicationFactor() == 2);
  CHECK(parent.getReplicationFactor() == 2);
  CHECK(replicated.getTarget().getNumIPUs() == 1);
  CHECK_THROWS_WITH(parent.createReplicatedGraph(2),
                    Contains("already replicated"));
  Graph busy(g.device.getTarget());
  busy.addVariable(FLOAT, {1}, "x");
  CHECK_THROWS_WITH(busy.createReplicatedGraph(2), Contains("already holds"));
  CHECK_THROWS_WITH(Graph(g.device.getTarget()).createReplicatedGraph(3),
                    Contains("does not divide"));
  if (g.device.getTarget().getNumIPUs() == 2)
    CHECK_THROWS_WITH(Graph(g.device.getTarget(), replication_factor(3)),
                      Contains("does not divide"));
  CHECK_THROWS_AS(g.graph.getNonReplicatedTensor(g.graph.addVariable(FLOAT, {1})),
                  poplar_error);
}

TEST_CASE("Each replica reads its own part of a replicated stream and a "
          "broadcast stream's one transfer",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor a = g.variable(INT, 3, "a");
  Tensor b = g.variable(INT, 3, "b");
  Tensor index = g.graph.addReplicationIndexConstant("index");
  g.graph.setTileMapping(index, 0);
  Tensor idx = g.variable(UNSIGNED_INT, 1, "idx");
  DataStream perReplica = g.graph.addHostToDeviceFIFO("perReplica", INT, 3);
  DataStream broadcast = g.graph.addHostToDeviceFIFO(
      "broadcast", INT, 3, ReplicatedStreamMode::BROADCAST);
  DataStream out = g.graph.addDeviceToHostFIFO("out", INT, 3);
  Engine engine(g.graph, Sequence{Copy(perReplica, a), Copy(broadcast, b),
                                  Copy(index, idx), Copy(a, out)});
  engine.load(g.device);
  std::vector<int> in = {1, 2, 3, 4, 5, 6}; // replica 0, replica 1
  std::vector<int> shared = {7, 8, 9};
  std::vector<int> outData(6, -1);
  engine.connectStream("perReplica", in.data()); // one transfer per replica
  engine.connectStream("broadcast", shared.data());
  engine.connectStream("out", outData.data(), outData.data() + 6);
  engine.run();
  CHECK(readAll<int>(engine, "a", 3, R) == in);
  CHECK(readAll<int>(engine, "b", 3, R) == std::vector<int>{7, 8, 9, 7, 8, 9});
  CHECK(readAll<unsigned>(engine, "idx", 1, R) == std::vector<unsigned>{0, 1});
  CHECK(outData == in);

  // writeTensor: one copy for every replica, or one per replica.
  std::vector<int> one = {-1, -2, -3};
  engine.writeTensor("a-write", one.data(), one.data() + 3);
  CHECK(readAll<int>(engine, "a", 3, R) ==
        std::vector<int>{-1, -2, -3, -1, -2, -3});
  std::vector<int> two = {10, 11, 12, 13, 14, 15};
  engine.writeTensor("a-write", two.data(), two.data() + 6);
  CHECK(readAll<int>(engine, "a", 3, R) == two);
  std::vector<int> small(3);
  CHECK_THROWS_WITH(engine.readTensor("a-read", small.data(), small.data() + 3),
                    Contains("for each of 2 replicas"));
  CHECK_THROWS_WITH(engine.connectStream("perReplica", in.data(), in.data() + 3),
                    Contains("for each of its 2 replicas"));
}

namespace {

// A callback that serves a fixed value and counts its calls.
class Counter : public StreamCallback {
public:
  Counter(int value, int &calls) : value(value), calls(calls) {}
  Result prefetch(void *) noexcept override { return Result::NotAvailable; }
  void fetch(void *p) noexcept override {
    ++calls;
    std::fill_n(static_cast<int *>(p), 3, value + calls);
  }
  void complete() noexcept override {}

private:
  int value;
  int &calls;
};

} // namespace

TEST_CASE("Stream callbacks serve one replica each or every replica in turn",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor a = g.variable(INT, 3, "a");
  DataStream in = g.graph.addHostToDeviceFIFO("in", INT, 3);
  Engine engine(g.graph, Copy(in, a));
  engine.load(g.device);
  int calls0 = 0, calls1 = 0;
  engine.connectStreamToCallback("in", 0, std::make_unique<Counter>(100, calls0));
  CHECK_THROWS_WITH(engine.run(), Contains("not connected for replica 1"));
  engine.connectStreamToCallback("in", 1, std::make_unique<Counter>(200, calls1));
  CHECK_THROWS_WITH(
      engine.connectStreamToCallback("in", 2, std::make_unique<Counter>(0, calls1)),
      Contains("replica 2 does not exist"));
  engine.run();
  CHECK(readAll<int>(engine, "a", 3, R) ==
        std::vector<int>{101, 101, 101, 201, 201, 201});
  int shared = 0;
  engine.connectStreamToCallback("in", std::make_unique<Counter>(0, shared));
  engine.run();
  CHECK(shared == 2);
  CHECK(readAll<int>(engine, "a", 3, R) == std::vector<int>{1, 1, 1, 2, 2, 2});
}

TEST_CASE("CrossReplicaCopy moves a tensor from replica to replica",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor src = g.variable(FLOAT, 4, "src");
  Tensor dst = g.variable(FLOAT, 4, "dst");
  Engine engine(g.graph, CrossReplicaCopy(src, dst, {{0, 1}, {1, 0}}, "swap"));
  engine.load(g.device);
  std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  engine.writeTensor("src-write", values.data(), values.data() + 8);
  engine.run();
  CHECK(readAll<float>(engine, "dst", 4, R) ==
        std::vector<float>{5, 6, 7, 8, 1, 2, 3, 4});

  CHECK_THROWS_AS(Engine(g.graph, CrossReplicaCopy(src, dst, {{0, 2}})),
                  graph_program_compilation_error);
  CHECK_THROWS_WITH(Engine(g.graph, CrossReplicaCopy(src, dst, {{0, 1}, {1, 1}})),
                    Contains("receives from more than one replica"));
}

TEST_CASE("A cross-replica step in a branch that only some replicas take "
          "is an error",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor index = g.graph.addReplicationIndexConstant();
  g.graph.setTileMapping(index, 0);
  Tensor src = g.variable(FLOAT, 2, "src");
  Tensor dst = g.variable(FLOAT, 2, "dst");
  Engine engine(g.graph,
                If(index, CrossReplicaCopy(src, dst, {{0, 1}, {1, 0}}),
                   Sequence{}));
  engine.load(g.device);
  CHECK_THROWS_WITH(engine.run(), Contains("only 1 of the 2 replicas"));
}

namespace {

// The host's reduction as the ring makes it: chunk j from replica j + 1 on.
std::vector<float> ringReduce(const std::vector<std::vector<float>> &in,
                              CrossReplicaOperator op) {
  const std::size_t n = in.size(), N = in[0].size();
  const std::size_t chunk = (N + n - 1) / n;
  std::vector<float> out(N);
  for (std::size_t i = 0; i != N; ++i) {
    const std::size_t first = (i / chunk + 1) % n;
    auto own = [&](std::size_t r) {
      const float v = in[r][i];
      return op == CrossReplicaOperator::SQUARE_ADD ? v * v : v;
    };
    float acc = own(first);
    for (std::size_t k = 1; k != n; ++k) {
      const float v = own((first + k) % n);
      switch (op) {
      case CrossReplicaOperator::MUL: acc = acc * v; break;
      case CrossReplicaOperator::MAX: acc = std::max(acc, v); break;
      case CrossReplicaOperator::MIN: acc = std::min(acc, v); break;
      default: acc = acc + v; break;
      }
    }
    out[i] = op == CrossReplicaOperator::MEAN ? acc / float(n) : acc;
  }
  return out;
}

} // namespace

TEST_CASE("Collectives reduce, scatter and gather across replicas",
          "[poplar][replication]") {
  constexpr unsigned R = 4;
  constexpr std::size_t N = 7; // not a multiple of R: the last chunk is short
  ReplicatedGraph g(R);
  Tensor src = g.variable(FLOAT, N, "src");
  Tensor reduced = g.variable(FLOAT, N, "reduced");
  Tensor scattered = g.variable(FLOAT, (N + R - 1) / R, "scattered");
  Tensor gathered = g.variable(FLOAT, N * R, "gathered");
  std::vector<std::vector<float>> in(R, std::vector<float>(N));
  std::vector<float> flat;
  for (unsigned r = 0; r != R; ++r)
    for (std::size_t i = 0; i != N; ++i) {
      // Values of mixed magnitude, so that the order of the sum shows.
      in[r][i] = std::ldexp(1.0f + 0.1f * float(i), int(r * 9 % 25) - 12) *
                 (i % 2 ? -1.0f : 1.0f);
      flat.push_back(in[r][i]);
    }
  for (auto op : {CrossReplicaOperator::ADD, CrossReplicaOperator::MEAN,
                  CrossReplicaOperator::MUL, CrossReplicaOperator::MAX,
                  CrossReplicaOperator::MIN, CrossReplicaOperator::SQUARE_ADD,
                  CrossReplicaOperator::LOCAL}) {
    DYNAMIC_SECTION("operator " << int(op)) {
      Sequence prog(
          crossReplicaCollective(CrossReplicaCollective::AllReduce, op,
                                         src, reduced),
          crossReplicaCollective(CrossReplicaCollective::ReduceScatter,
                                         op, src, scattered),
          crossReplicaCollective(CrossReplicaCollective::AllGather, op,
                                         src, gathered));
      Engine engine(g.graph, prog);
      engine.load(g.device);
      engine.writeTensor("src-write", flat.data(), flat.data() + flat.size());
      engine.run();
      const auto expected = ringReduce(in, op);
      const auto gotReduced = readAll<float>(engine, "reduced", N, R);
      const auto gotScattered =
          readAll<float>(engine, "scattered", (N + R - 1) / R, R);
      const std::size_t chunk = (N + R - 1) / R;
      for (unsigned r = 0; r != R; ++r)
        for (std::size_t i = 0; i != N; ++i) {
          const float want =
              op == CrossReplicaOperator::LOCAL ? in[r][i] : expected[i];
          CHECK(gotReduced[r * N + i] == want);
        }
      for (unsigned r = 0; r != R; ++r)
        for (std::size_t k = 0; k != chunk; ++k) {
          const std::size_t i = r * chunk + k;
          const float want = i >= N ? 0.0f
                             : op == CrossReplicaOperator::LOCAL ? in[r][i]
                                                                 : expected[i];
          CHECK(gotScattered[r * chunk + k] == want);
        }
      const auto gotGathered = readAll<float>(engine, "gathered", N * R, R);
      for (unsigned r = 0; r != R; ++r)
        CHECK(std::vector<float>(gotGathered.begin() + r * N * R,
                                 gotGathered.begin() + (r + 1) * N * R) == flat);
    }
  }
  SECTION("bad shapes and types are compile errors") {
    CHECK_THROWS_WITH(
        Engine(g.graph, crossReplicaCollective(
                            CrossReplicaCollective::ReduceScatter,
                            CrossReplicaOperator::ADD, src, reduced)),
        Contains("2 are needed"));
    Tensor flags = g.variable(BOOL, 2, "flags");
    CHECK_THROWS_WITH(
        Engine(g.graph, crossReplicaCollective(
                            CrossReplicaCollective::AllReduce,
                            CrossReplicaOperator::ADD, flags, flags)),
        Contains("only LOGICAL_AND"));
  }
}

TEST_CASE("Integer and logical collectives", "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor ints = g.variable(INT, 3, "ints");
  Tensor flags = g.variable(BOOL, 2, "flags");
  Tensor any = g.variable(BOOL, 2, "any");
  Engine engine(g.graph,
                Sequence{crossReplicaCollective(
                             CrossReplicaCollective::AllReduce,
                             CrossReplicaOperator::ADD, ints, ints),
                         crossReplicaCollective(
                             CrossReplicaCollective::AllReduce,
                             CrossReplicaOperator::LOGICAL_OR, flags, any),
                         crossReplicaCollective(
                             CrossReplicaCollective::AllReduce,
                             CrossReplicaOperator::LOGICAL_AND, flags, flags)});
  engine.load(g.device);
  std::vector<int> values = {2147483647, -5, 3, 1, 5, -3};
  engine.writeTensor("ints-write", values.data(), values.data() + 6);
  std::vector<char> f = {1, 0, 1, 1};
  engine.writeTensor("flags-write", f.data(), f.data() + 4);
  engine.run();
  // The sum wraps as 32-bit integers do.
  CHECK(readAll<int>(engine, "ints", 3, R) ==
        std::vector<int>{-2147483647 - 1, 0, 0, -2147483647 - 1, 0, 0});
  CHECK(readAll<char>(engine, "any", 2, R) == std::vector<char>{1, 1, 1, 1});
  CHECK(readAll<char>(engine, "flags", 2, R) == std::vector<char>{1, 0, 1, 0});
}

TEST_CASE("Each replica's random generator starts from its own state",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Sequence prog;
  Tensor seeds = getHwSeeds(g.graph, prog);
  g.graph.createHostRead("seeds-read", seeds);
  Engine engine(g.graph, prog);
  engine.load(g.device);
  engine.run();
  const auto got = readAll<unsigned>(engine, "seeds", 4, R);
  // Replica 0 keeps the state of an unreplicated graph; replica 1's key
  // differs.
  CHECK(got[0] == 0x243F6A88u);
  CHECK(got[1] == 0x85A308D3u);
  CHECK(got[4] == got[0]);
  CHECK(got[5] == 0x85A308D3u + 0x9E3779B9u);
}

TEST_CASE("A collective runs within each group of replicas",
          "[poplar][replication]") {
  constexpr unsigned R = 4;
  ReplicatedGraph g(R);
  Tensor x = g.variable(INT, 2, "x");
  Tensor gathered = g.variable(INT, 4, "gathered");
  const std::vector<std::vector<unsigned>> groups = {{0, 2}, {1, 3}};
  Engine engine(
      g.graph,
      Sequence{crossReplicaCollective(CrossReplicaCollective::AllGather,
                                      CrossReplicaOperator::ADD, x, gathered,
                                      groups),
               crossReplicaCollective(CrossReplicaCollective::AllReduce,
                                      CrossReplicaOperator::ADD, x, x, groups)});
  engine.load(g.device);
  std::vector<int> values = {1, 2, 10, 20, 100, 200, 1000, 2000};
  engine.writeTensor("x-write", values.data(), values.data() + 8);
  engine.run();
  CHECK(readAll<int>(engine, "x", 2, R) ==
        std::vector<int>{101, 202, 1010, 2020, 101, 202, 1010, 2020});
  CHECK(readAll<int>(engine, "gathered", 4, R) ==
        std::vector<int>{1, 2, 100, 200, 10, 20, 1000, 2000,
                         1, 2, 100, 200, 10, 20, 1000, 2000});
  CHECK_THROWS_WITH(
      Engine(g.graph, crossReplicaCollective(CrossReplicaCollective::AllReduce,
                                             CrossReplicaOperator::ADD, x, x,
                                             {{0, 1}, {1, 2}})),
      Contains("in two replica groups"));
  CHECK_THROWS_WITH(
      Engine(g.graph, crossReplicaCollective(CrossReplicaCollective::AllReduce,
                                             CrossReplicaOperator::ADD, x, x,
                                             {{0, 1}, {2}})),
      Contains("same (non-zero) size"));
}

TEST_CASE("A replicated executable written to a stream and read back runs "
          "every replica",
          "[poplar][replication]") {
  constexpr unsigned R = 2;
  ReplicatedGraph g(R);
  Tensor x = g.variable(FLOAT, 3, "x");
  Tensor index = g.graph.addReplicationIndexConstant();
  g.graph.setTileMapping(index, 0);
  Tensor i = g.variable(UNSIGNED_INT, 1, "i");
  DataStream in = g.graph.addHostToDeviceFIFO("in", FLOAT, 3,
                                              ReplicatedStreamMode::BROADCAST);
  Executable exe = compileGraph(
      g.graph, {Sequence{Copy(in, x), Copy(index, i),
                         crossReplicaCollective(CrossReplicaCollective::AllReduce,
                                                CrossReplicaOperator::ADD, x, x)}});
  std::stringstream stream;
  exe.serialize(stream);
  Engine engine(Executable::deserialize(stream));
  engine.load(g.device);
  std::vector<float> data = {1, 2, 3};
  engine.connectStream("in", data.data());
  engine.run();
  CHECK(readAll<float>(engine, "x", 3, R) == std::vector<float>{2, 4, 6, 2, 4, 6});
  CHECK(readAll<unsigned>(engine, "i", 1, R) == std::vector<unsigned>{0, 1});
  // A device with the IPUs of one replica is not the compiled-for device.
  if (g.device.getTarget().getNumIPUs() == R)
    CHECK_THROWS_AS(engine.load(sdktest::createTestDevice(
                        sdktest::deviceTypeFromEnvironment(), 1, 4)),
                    poplar_error);
}
