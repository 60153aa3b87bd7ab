// gcl collectives on the device variant under test, against values worked
// out on the host: between the 4 replicas of a replicated graph, and
// between the 4 IPUs of one graph.
#include <catch2/catch.hpp>

#include "TestDevice.hpp"

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;
using gcl::CollectiveOperator;

namespace {

constexpr unsigned numIpus = 4;

poplar::Device device() {
  return sdktest::createTestDevice(sdktest::deviceTypeFromEnvironment(),
                                   numIpus, 4);
}

template <class T>
std::vector<T> read(Engine &engine, const std::string &handle, std::size_t n) {
  std::vector<T> out(n);
  engine.readTensor(handle, out.data(), out.data() + n);
  return out;
}

// Replica r's value of element i: small integers, so every order of
// addition gives the same float.
float value(unsigned r, std::size_t i) { return float((r + 1) * 10 + i); }

} // namespace

TEST_CASE("Cross-replica collectives", "[gcl]") {
  Device d = device();
  Graph graph(d.getTarget(), replication_factor(numIpus));
  popops::addCodelets(graph);
  constexpr std::size_t N = 6;
  Tensor data = graph.addVariable(FLOAT, {2, 3}, "data");
  poputil::mapTensorLinearly(graph, data);
  graph.createHostWrite("data", data);
  Sequence prog;
  Tensor sum = gcl::allReduceCrossReplica(graph, data, CollectiveOperator::ADD,
                                          prog, "sum");
  Tensor mean = gcl::allReduceCrossReplica(graph, data, CollectiveOperator::MEAN,
                                           prog, gcl::CommGroup(), "mean");
  Tensor max = graph.clone(data, "max");
  gcl::allReduceWithOutputCrossReplica(graph, data, max, CollectiveOperator::MAX,
                                       prog, "max");
  Tensor scattered = gcl::reduceScatterCrossReplica(
      graph, data, CollectiveOperator::ADD, prog, "scatter");
  Tensor gathered = gcl::allGatherCrossReplica(graph, data, prog, "gather");
  // Pairs of consecutive replicas, and replicas two apart.
  Tensor pairSum = gcl::allReduceCrossReplica(
      graph, data, CollectiveOperator::ADD, prog,
      gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2), "pairs");
  Tensor orthoSum = gcl::allReduceCrossReplica(
      graph, data, CollectiveOperator::ADD, prog,
      gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 2), "orthogonal");
  Tensor inPlace = graph.clone(data, "inPlace");
  prog.add(Copy(data, inPlace));
  gcl::allReduceInPlaceCrossReplica(graph, inPlace, CollectiveOperator::MIN,
                                    prog, "min");
  for (auto [name, t] : std::vector<std::pair<std::string, Tensor>>{
           {"sum", sum}, {"mean", mean}, {"max", max}, {"scattered", scattered},
           {"gathered", gathered}, {"pairSum", pairSum},
           {"orthoSum", orthoSum}, {"inPlace", inPlace}})
    graph.createHostRead(name, t);
  CHECK(scattered.shape() == std::vector<std::size_t>{2});
  CHECK(gathered.shape() == std::vector<std::size_t>{numIpus, 2, 3});

  Engine engine(graph, prog);
  engine.load(d);
  std::vector<float> in;
  for (unsigned r = 0; r != numIpus; ++r)
    for (std::size_t i = 0; i != N; ++i)
      in.push_back(value(r, i));
  engine.writeTensor("data", in.data(), in.data() + in.size());
  engine.run();

  const auto s = read<float>(engine, "sum", N * numIpus);
  const auto m = read<float>(engine, "mean", N * numIpus);
  const auto mx = read<float>(engine, "max", N * numIpus);
  const auto mn = read<float>(engine, "inPlace", N * numIpus);
  const auto pairs = read<float>(engine, "pairSum", N * numIpus);
  const auto ortho = read<float>(engine, "orthoSum", N * numIpus);
  for (unsigned r = 0; r != numIpus; ++r)
    for (std::size_t i = 0; i != N; ++i) {
      float total = 0;
      for (unsigned k = 0; k != numIpus; ++k)
        total += value(k, i);
      CHECK(s[r * N + i] == total);
      CHECK(m[r * N + i] == total / numIpus);
      CHECK(mx[r * N + i] == value(numIpus - 1, i));
      CHECK(mn[r * N + i] == value(0, i));
      const unsigned pairFirst = r / 2 * 2;
      CHECK(pairs[r * N + i] == value(pairFirst, i) + value(pairFirst + 1, i));
      CHECK(ortho[r * N + i] == value(r % 2, i) + value(r % 2 + 2, i));
    }
  const auto sc = read<float>(engine, "scattered", 2 * numIpus);
  for (unsigned r = 0; r != numIpus; ++r)
    for (std::size_t k = 0; k != 2; ++k) {
      const std::size_t i = r * 2 + k;
      float total = 0;
      if (i < N)
        for (unsigned q = 0; q != numIpus; ++q)
          total += value(q, i);
      CHECK(sc[r * 2 + k] == total);
    }
  const auto g = read<float>(engine, "gathered", N * numIpus * numIpus);
  for (unsigned r = 0; r != numIpus; ++r)
    CHECK(std::vector<float>(g.begin() + r * N * numIpus,
                             g.begin() + (r + 1) * N * numIpus) == in);
}

TEST_CASE("Collective options, groups and operators are checked", "[gcl]") {
  Device d = device();
  Graph graph(d.getTarget(), replication_factor(numIpus));
  Tensor data = graph.addVariable(FLOAT, {4}, "data");
  poputil::mapTensorLinearly(graph, data);
  Sequence prog;
  CHECK_THROWS_WITH(gcl::allReduceCrossReplica(graph, data,
                                               CollectiveOperator::ADD, prog,
                                               gcl::CommGroup(), "x",
                                               {{"method", "meet_in_middle"}}),
                    Contains("method=meet_in_middle"));
  CHECK_THROWS_WITH(gcl::allReduceCrossReplica(graph, data,
                                               CollectiveOperator::ADD, prog,
                                               gcl::CommGroup(), "x",
                                               {{"bogus", "1"}}),
                    Contains("unknown option 'bogus'"));
  CHECK_NOTHROW(gcl::allReduceCrossReplica(graph, data, CollectiveOperator::ADD,
                                           prog, gcl::CommGroup(), "x",
                                           {{"method", "auto"}}));
  CHECK_THROWS_AS(gcl::allReduceCrossReplica(
                      graph, data, CollectiveOperator::ADD, prog,
                      gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 3)),
                  poputil::poplibs_error);
  CHECK(gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2, 2).groups(8) ==
        std::vector<std::vector<unsigned>>{{0, 2}, {1, 3}, {4, 6}, {5, 7}});
  std::stringstream ss("SQUARE_ADD");
  CollectiveOperator op{};
  ss >> op;
  CHECK(op == CollectiveOperator::SQUARE_ADD);
  std::ostringstream os;
  os << CollectiveOperator::LOGICAL_OR;
  CHECK(os.str() == "LOGICAL_OR");
  std::stringstream bad("PLUS");
  CHECK_THROWS_AS(bad >> op, poputil::poplibs_error);
}

TEST_CASE("Within-replica collectives run as a ring of the IPUs", "[gcl]") {
  Device d = device();
  Graph graph(d.getTarget());
  popops::addCodelets(graph);
  const unsigned perIpu = graph.getTarget().getTilesPerIPU();
  constexpr std::size_t N = 7;
  // Slice i on the tiles of IPU i.
  Tensor data = graph.addVariable(FLOAT, {numIpus, N}, "data");
  for (unsigned i = 0; i != numIpus; ++i) {
    Graph ipu = graph.createVirtualGraph(i * perIpu, (i + 1) * perIpu);
    poputil::mapTensorLinearly(ipu, data[i]);
  }
  graph.createHostWrite("data", data);
  Sequence prog;
  std::map<CollectiveOperator, Tensor> results;
  for (auto op : {CollectiveOperator::ADD, CollectiveOperator::MEAN,
                  CollectiveOperator::MAX, CollectiveOperator::SQUARE_ADD,
                  CollectiveOperator::MUL, CollectiveOperator::LOCAL}) {
    results[op] = gcl::allReduceWithinReplica(graph, data, op, prog);
    std::ostringstream name;
    name << op;
    graph.createHostRead(name.str(), results[op]);
  }
  gcl::Chunks chunks = gcl::reduceScatterWithinReplica(
      graph, data, CollectiveOperator::ADD, prog, "rs");
  REQUIRE(chunks.chunks.size() == numIpus);
  Tensor gathered = gcl::allGatherWithinReplica(graph, chunks, prog, "ag");
  graph.createHostRead("gathered", gathered);
  graph.createHostRead("chunk1", chunks.chunks[1].tensor);
  // Each result slice and each chunk stays on its IPU.
  const auto mapping = graph.getTileMapping(results[CollectiveOperator::ADD]);
  for (unsigned tile = 0; tile != mapping.size(); ++tile)
    for (const auto &interval : mapping[tile])
      CHECK(interval.begin() / N == tile / perIpu);
  for (unsigned i = 0; i != numIpus; ++i)
    for (const auto &tileIntervals :
         {graph.getTileMapping(chunks.chunks[i].tensor)})
      for (unsigned tile = 0; tile != tileIntervals.size(); ++tile)
        if (!tileIntervals[tile].empty())
          CHECK(tile / perIpu == i);

  Engine engine(graph, prog);
  engine.load(d);
  std::vector<float> in;
  for (unsigned r = 0; r != numIpus; ++r)
    for (std::size_t i = 0; i != N; ++i)
      in.push_back(value(r, i));
  engine.writeTensor("data", in.data(), in.data() + in.size());
  engine.run();
  auto expect = [&](CollectiveOperator op, std::size_t i) {
    float acc = op == CollectiveOperator::MUL ? 1.0f
                : op == CollectiveOperator::MAX ? -1e30f
                                                : 0.0f;
    for (unsigned r = 0; r != numIpus; ++r) {
      const float v = value(r, i);
      acc = op == CollectiveOperator::MUL  ? acc * v
            : op == CollectiveOperator::MAX ? std::max(acc, v)
            : op == CollectiveOperator::SQUARE_ADD ? acc + v * v
                                                   : acc + v;
    }
    return op == CollectiveOperator::MEAN ? acc / numIpus : acc;
  };
  for (const auto &[op, t] : results) {
    std::ostringstream name;
    name << op;
    const auto got = read<float>(engine, name.str(), numIpus * N);
    for (unsigned r = 0; r != numIpus; ++r)
      for (std::size_t i = 0; i != N; ++i)
        CHECK(got[r * N + i] == (op == CollectiveOperator::LOCAL
                                     ? value(r, i)
                                     : expect(op, i)));
  }
  const auto g = read<float>(engine, "gathered", numIpus * N);
  for (unsigned r = 0; r != numIpus; ++r)
    for (std::size_t i = 0; i != N; ++i)
      CHECK(g[r * N + i] == expect(CollectiveOperator::ADD, i));
  // Chunk 1 is elements [2, 4) of the sum (chunks of ceil(7 / 4) = 2).
  CHECK(read<float>(engine, "chunk1", 2) ==
        std::vector<float>{expect(CollectiveOperator::ADD, 2),
                           expect(CollectiveOperator::ADD, 3)});
  CHECK(chunks.chunks[1].offset == 2);
}

TEST_CASE("perIPUTiles chooses a range of each IPU's tiles", "[gcl]") {
  Device d = device();
  Graph graph(d.getTarget());
  if (graph.getTarget().getTilesPerIPU() < 4)
    return; // the CPU target has one tile per IPU
  CHECK(gcl::perIPUTiles(graph, 2, 2) == std::vector<unsigned>{2, 3});
  CHECK_THROWS_WITH(gcl::perIPUTiles(graph, 1, 2), Contains("must be even"));
  CHECK(gcl::perIPUTiles(graph, 1, 2, true, false) ==
        std::vector<unsigned>{1, 2});
  CHECK_THROWS_AS(gcl::perIPUTiles(graph, 3, 4, true, false),
                  poputil::poplibs_error);
}
