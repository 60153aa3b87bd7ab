// Compute cycles of one tile from vertex estimates, and the default
// estimate, checked against numbers worked out by hand from the model
// (poplar/src/model/README.md).
#include <catch2/catch.hpp>

#include "model/CycleModel.hpp"

using namespace poplar::model;

namespace {
ScheduledVertex worker(std::uint64_t c) { return {VertexKind::Worker, c}; }
ScheduledVertex all(std::uint64_t c) { return {VertexKind::AllWorkers, c}; }
} // namespace

TEST_CASE("Six equal worker vertices take one round of six issue slots",
          "[model][cycles]") {
  const std::vector<ScheduledVertex> v(6, worker(100));
  const TileSchedule s = scheduleTile(v, 6);
  CHECK(s.cycles == 600); // 6 contexts x 100, each issuing 1 cycle in 6
  CHECK(s.active == 600);
}

TEST_CASE("One worker vertex leaves five issue slots in six idle",
          "[model][cycles]") {
  const TileSchedule s = scheduleTile({worker(50)}, 6);
  CHECK(s.cycles == 300);
  CHECK(s.active == 50);
}

TEST_CASE("Worker vertices go to the context that is free first",
          "[model][cycles]") {
  // Contexts take 10..60; the seventh (70) joins the one with 10: 80.
  std::vector<ScheduledVertex> v;
  for (std::uint64_t c = 10; c <= 70; c += 10)
    v.push_back(worker(c));
  const TileSchedule s = scheduleTile(v, 6);
  CHECK(s.cycles == 6 * 80);
  CHECK(s.active == 280);
  // Forty-two vertices of 105 (tutorial 7 on Mk1): 7 rounds of 6 x 105.
  const TileSchedule t = scheduleTile(std::vector<ScheduledVertex>(42, worker(105)), 6);
  CHECK(t.cycles == 4410);
}

TEST_CASE("All-worker vertices run alone after the worker vertices",
          "[model][cycles]") {
  const TileSchedule s = scheduleTile({all(100), worker(30), all(50)}, 6);
  CHECK(s.cycles == 6 * 30 + 100 + 50);
  CHECK(s.active == 180);
  CHECK(scheduleTile({all(200)}, 6).cycles == 200);
  CHECK(scheduleTile({}, 6).cycles == 0);
}

TEST_CASE("The default estimate grows with the edges", "[model][cycles]") {
  // 10 + 2 per region + 1 per element.
  CHECK(defaultVertexCycles(VertexKind::Worker, 2, 9, 6) == 10 + 4 + 9);
  // All workers: the work (4 + 9 = 13) split over six, rounded up per
  // worker: 10 + 6 * 3.
  CHECK(defaultVertexCycles(VertexKind::AllWorkers, 2, 9, 6) == 28);
  CHECK(defaultVertexCycles(VertexKind::Worker, 0, 0, 6) == 10);
}
