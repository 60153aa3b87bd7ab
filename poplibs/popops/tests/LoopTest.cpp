// countedLoop and countedForLoop against the same loops run on the host, on
// every device variant.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <numeric>

using namespace poplar;
using namespace popops;
using Catch::Matchers::Contains;

namespace {

struct LoopCase {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  program::Sequence prog;
  LoopCase() { popops::addCodelets(graph); }

  // A scalar the host writes and reads.
  Tensor scalar(const Type &type, const std::string &name) {
    Tensor t = graph.addVariable(type, {}, name);
    graph.setTileMapping(t, graph.getTarget().getNumTiles() - 1);
    graph.createHostWrite(name, t);
    graph.createHostRead(name + "-r", t);
    return t;
  }
};

template <class T> void put(Engine &e, const std::string &h, T v) {
  e.writeTensor(h, &v, &v + 1);
}
template <class T> T get(Engine &e, const std::string &h) {
  T v;
  e.readTensor(h + "-r", &v, &v + 1);
  return v;
}

// The host loop: the indices countedLoop(begin, end, step) visits.
std::vector<unsigned> hostIndices(unsigned begin, unsigned end, unsigned step) {
  std::vector<unsigned> out;
  for (unsigned i = begin; i < end; i += step)
    out.push_back(i);
  return out;
}

} // namespace

TEST_CASE("countedLoop visits begin, begin + step, ... below end",
          "[popops][loop]") {
  struct Range {
    unsigned begin, end, step;
  };
  for (const Range r : {Range{2, 11, 3}, Range{0, 4, 1}, Range{5, 6, 10},
                        Range{7, 7, 1}}) {
    INFO("begin " << r.begin << " end " << r.end << " step " << r.step);
    LoopCase c;
    Tensor sum = c.scalar(UNSIGNED_INT, "sum");
    Tensor iterations = c.scalar(UNSIGNED_INT, "iterations");
    Tensor last = c.scalar(UNSIGNED_INT, "last");
    c.prog.add(countedLoop(
        c.graph, r.begin, r.end, r.step,
        [&](const Tensor &index) {
          CHECK(index.elementType() == UNSIGNED_INT);
          CHECK(index.rank() == 0);
          program::Sequence body;
          addInPlace(c.graph, sum, index, body);
          addInPlace(c.graph, iterations, 1u, body);
          body.add(program::Copy(index, last));
          return body;
        },
        "loop"));
    Engine e(c.graph, c.prog);
    e.load(c.device);
    put(e, "sum", 100u);
    put(e, "iterations", 0u);
    put(e, "last", 12345u);
    e.run();
    const auto want = hostIndices(r.begin, r.end, r.step);
    CHECK(get<unsigned>(e, "sum") ==
          100 + std::accumulate(want.begin(), want.end(), 0u));
    CHECK(get<unsigned>(e, "iterations") == want.size());
    CHECK(get<unsigned>(e, "last") == (want.empty() ? 12345u : want.back()));
  }
}

TEST_CASE("countedLoop's index drives a dynamic slice", "[popops][loop]") {
  LoopCase c;
  Tensor t = c.graph.addVariable(FLOAT, {6, 3}, "t");
  poputil::mapTensorLinearly(c.graph, t, 1, 1);
  c.graph.createHostWrite("t", t);
  Tensor acc = c.graph.addVariable(FLOAT, {1, 3}, "acc");
  poputil::mapTensorLinearly(c.graph, acc, 1, 1);
  c.graph.createHostWrite("acc", acc);
  c.graph.createHostRead("acc-r", acc);
  // acc += t[i] for i in 0 .. 5: the column sums.
  c.prog.add(countedLoop(
      c.graph, 6,
      [&](const Tensor &index) {
        program::Sequence body;
        Tensor row = dynamicSlice(c.graph, t, index.reshape({1}), {0}, {1},
                                  body, "row");
        addInPlace(c.graph, acc, row, body);
        return body;
      },
      "rows"));
  Engine e(c.graph, c.prog);
  e.load(c.device);
  std::vector<float> tv(18);
  std::iota(tv.begin(), tv.end(), 1.0f);
  e.writeTensor("t", tv.data(), tv.data() + tv.size());
  std::vector<float> zero(3, 0);
  e.writeTensor("acc", zero.data(), zero.data() + 3);
  e.run();
  std::vector<float> got(3), want(3, 0);
  e.readTensor("acc-r", got.data(), got.data() + 3);
  for (unsigned i = 0; i != 6; ++i)
    for (unsigned col = 0; col != 3; ++col)
      want[col] += tv[i * 3 + col];
  CHECK(got == want);
}

TEST_CASE("countedForLoop runs to a limit read at run time", "[popops][loop]") {
  LoopCase c;
  // An INT count the body reads, stepping up and down.
  Tensor count = c.scalar(INT, "count");
  Tensor limit = c.scalar(INT, "limit");
  Tensor sum = c.scalar(INT, "sum");
  program::Sequence addCount;
  addInPlace(c.graph, sum, count, addCount);
  c.prog.add(countedForLoop(c.graph, count, 1, limit, 2, addCount, "up"));
  Tensor downSum = c.scalar(INT, "downSum");
  Tensor downCount = c.scalar(INT, "downCount");
  program::Sequence addDown;
  addInPlace(c.graph, downSum, downCount, addDown);
  c.prog.add(
      countedForLoop(c.graph, downCount, 10, limit, -3, addDown, "down"));
  // Without a count of the caller's: UNSIGNED_INT, counting iterations.
  Tensor ulimit = c.scalar(UNSIGNED_INT, "ulimit");
  Tensor runs = c.scalar(UNSIGNED_INT, "runs");
  program::Sequence addRun;
  addInPlace(c.graph, runs, 1u, addRun);
  c.prog.add(countedForLoop(c.graph, 3, ulimit, 4, addRun, "own"));
  Engine e(c.graph, c.prog);
  e.load(c.device);
  for (int lim : {7, 0, 1, -5}) {
    INFO("limit " << lim);
    put(e, "limit", lim);
    put(e, "sum", 0);
    put(e, "downSum", 0);
    put(e, "ulimit", unsigned(lim < 0 ? 0 : lim * 3));
    put(e, "runs", 0u);
    e.run();
    int wantSum = 0, wantDown = 0, i = 1;
    for (; i < lim; i += 2)
      wantSum += i;
    int j = 10;
    for (; j > lim; j -= 3)
      wantDown += j;
    unsigned wantRuns = 0;
    for (unsigned k = 3; k < unsigned(lim < 0 ? 0 : lim * 3); k += 4)
      ++wantRuns;
    CHECK(get<int>(e, "sum") == wantSum);
    CHECK(get<int>(e, "count") == i);
    CHECK(get<int>(e, "downSum") == wantDown);
    CHECK(get<int>(e, "downCount") == j);
    CHECK(get<unsigned>(e, "runs") == wantRuns);
  }
}

TEST_CASE("Loops that cannot be made", "[popops][loop]") {
  LoopCase c;
  auto body = [](const Tensor &) { return program::Sequence(); };
  CHECK_THROWS_WITH(countedLoop(c.graph, 0, 4, 0, body), Contains("step"));
  CHECK_THROWS_WITH(countedLoop(c.graph, 5, 4, 1, body),
                    Contains("begin 5") && Contains("end 4"));
  Tensor f = c.graph.addVariable(FLOAT, {}, "f");
  Tensor limit = c.graph.addVariable(INT, {}, "limit");
  Tensor ulimit = c.graph.addVariable(UNSIGNED_INT, {}, "ulimit");
  Tensor count = c.graph.addVariable(INT, {}, "count");
  CHECK_THROWS_WITH(
      countedForLoop(c.graph, f, 0, limit, 1, program::Sequence()),
      Contains("'f'") && Contains("float"));
  CHECK_THROWS_WITH(
      countedForLoop(c.graph, count, 0, ulimit, 1, program::Sequence()),
      Contains("'ulimit'"));
  CHECK_THROWS_WITH(
      countedForLoop(c.graph, count, 0, limit, 0, program::Sequence()),
      Contains("step"));
  CHECK_THROWS_AS(countedForLoop(c.graph, -1, ulimit, 1, program::Sequence()),
                  poputil::poplibs_error);
}
