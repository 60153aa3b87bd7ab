// Bad input to popops' embedding plans and multi-slices and to gcl's
// collectives: bad plans, options, tensors, groups of replicas and
// operators. Each is the original's class (poputil::poplibs_error, or
// poplar::invalid_option for an option) with a message naming the function
// and what is at fault; afterwards the same replicated graph slices rows
// of a table and sums them over the replicas, and the values agree with a
// host loop.
#include "ExpectError.hpp"
#include "MappedVariable.hpp"

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

using gcl::CollectiveOperator;
using poputil::poplibs_error;
using sdktest::expectError;
using sdktest::mapped;

TEST_CASE("Bad input to embeddings and collectives is refused naming it, "
          "and the replicated graph stays usable",
          "[poplibs][errors]") {
  constexpr unsigned replicas = 2;
  IPUModel model;
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  Sequence prog;

  // Embedding plans: options, uses, groups and types.
  namespace embedding = popops::embedding;
  constexpr std::size_t rows = 5, cols = 3;
  expectError<invalid_option>(
      "a plan option that does not exist",
      [&] { embedding::plan(graph, FLOAT, rows, cols, {2}, {{"bogus", "1"}}); },
      {"embedding::plan", "'bogus'"});
  expectError<invalid_option>(
      "an update operation that does not exist",
      [&] {
        embedding::plan(graph, FLOAT, rows, cols, {2},
                        {{"operationForUpdate", "sub"}});
      },
      {"operationForUpdate", "sub"});
  expectError<invalid_option>(
      "a memory proportion below 0",
      [&] {
        embedding::plan(graph, FLOAT, rows, cols, {2},
                        {{"availableMemoryProportion", "-0.5"}});
      },
      {"availableMemoryProportion", "-0.5"});
  expectError<poplibs_error>(
      "a plan used neither to slice nor to update",
      [&] {
        embedding::plan(graph, FLOAT, rows, cols, {2},
                        {{"usedForSlice", "false"}, {"usedForUpdate", "false"}});
      },
      {"usedForSlice", "usedForUpdate"});
  expectError<poplibs_error>(
      "a plan of no groups",
      [&] { embedding::plan(graph, FLOAT, 0, rows, cols, {2}, {}); },
      {"embedding::plan", "group size"});

  const popops::SlicePlan updateOnly = embedding::plan(
      graph, FLOAT, rows, cols, {2}, {{"usedForSlice", "false"}});
  const popops::SlicePlan plan = embedding::plan(graph, FLOAT, rows, cols, {2}, {});
  const Tensor table = popops::createSliceableTensor(
      graph, FLOAT, {rows, cols}, {0}, {1}, plan, {}, "table");
  const Tensor offsets = popops::createIndicesTensor(graph, {0}, 2, plan, {},
                                                     "offsets");
  expectError<poplibs_error>(
      "a slice with a plan made for updates alone",
      [&] {
        popops::multiSlice(graph, table, offsets, {0}, {1}, prog, updateOnly, {});
      },
      {"multiSlice", "usedForSlice=false"});
  expectError<poplibs_error>(
      "a grouped tensor made with no plan",
      [&] {
        popops::createGroupedSliceableTensor(graph, FLOAT, 2, {rows, cols}, {0},
                                             {1}, popops::SlicePlan(), {});
      },
      {"createGroupedSliceableTensor", "plan"});
  expectError<poplibs_error>(
      "a grouped slice with a plan for another group size",
      [&] {
        const popops::SlicePlan two =
            embedding::plan(graph, FLOAT, 2, rows, cols, {2}, {});
        popops::groupedMultiSlice(
            graph, mapped(graph, FLOAT, {3, rows, cols}, "groups3"),
            mapped(graph, UNSIGNED_INT, {3, 2, 1}, "groupOffsets"), {0}, {1},
            prog, two, {});
      },
      {"groupedMultiSlice", "group size"});
  expectError<poplibs_error>(
      "offsets of floats",
      [&] {
        popops::multiSlice(graph, table, mapped(graph, FLOAT, {2, 1}, "fOffsets"),
                           {0}, {1}, prog, plan, {});
      },
      {"multiSlice", "'fOffsets'"});
  expectError<poplibs_error>(
      "slices longer than the table",
      [&] {
        popops::multiSlice(graph, table, offsets, {0}, {rows + 1}, prog, plan,
                           {});
      },
      {"multiSlice", "'table'"});
  expectError<poplibs_error>(
      "an update whose slices have another width",
      [&] {
        popops::multiUpdate(graph, table,
                            mapped(graph, FLOAT, {2, 1, cols + 1}, "wide"),
                            offsets, {0}, {1}, prog, plan, {});
      },
      {"multiUpdate", "'wide'"});
  expectError<poplibs_error>(
      "an update scaled by a vector",
      [&] {
        popops::multiUpdateAdd(
            graph, table, mapped(graph, FLOAT, {2, 1, cols}, "updates"), offsets,
            mapped(graph, FLOAT, {2}, "scale2"), {0}, {1}, prog, plan, {});
      },
      {"multiUpdateAdd", "'scale2'"});
  expectError<poplibs_error>(
      "a slice at a row past the end known when the graph is built",
      [&] {
        popops::multiSlice(graph, table, std::vector<unsigned>{1, rows}, 0,
                           prog);
      },
      {"multiSlice", "5"});

  // gcl: groups of replicas, options, tensors and operators.
  const Tensor data = mapped(graph, FLOAT, {cols}, "data");
  expectError<poplibs_error>(
      "groups of 3 of 2 replicas",
      [&] {
        gcl::allReduceCrossReplica(
            graph, data, CollectiveOperator::ADD, prog,
            gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 3), "sum3");
      },
      {"allReduceCrossReplica", "CommGroup", "3", "2 replicas"});
  expectError<poplibs_error>(
      "orthogonal groups of 4 of 2 replicas",
      [&] {
        gcl::allGatherCrossReplica(
            graph, data, prog,
            gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 4), "gather4");
      },
      {"allGatherCrossReplica", "CommGroup"});
  expectError<invalid_option>(
      "a collective option that does not exist",
      [&] {
        gcl::allReduceCrossReplica(graph, data, CollectiveOperator::ADD, prog,
                                   gcl::CommGroup(), "x", {{"bogus", "1"}});
      },
      {"allReduceCrossReplica", "'bogus'"});
  expectError<invalid_option>(
      "a collective method that does not exist",
      [&] {
        gcl::reduceScatterCrossReplica(graph, data, CollectiveOperator::ADD,
                                       prog, "x",
                                       {{"method", "meet_in_middle"}});
      },
      {"reduceScatterCrossReplica", "meet_in_middle"});
  expectError<poplibs_error>(
      "a collective of no tensor",
      [&] {
        gcl::allReduceCrossReplica(graph, Tensor(), CollectiveOperator::ADD,
                                   prog);
      },
      {"allReduceCrossReplica", "data"});
  expectError<poplibs_error>(
      "a destination of another shape",
      [&] {
        Tensor dest = mapped(graph, FLOAT, {cols + 1}, "dest4");
        gcl::allReduceToDestinationCrossReplica(
            graph, data, dest, CollectiveOperator::ADD, prog);
      },
      {"allReduceToDestinationCrossReplica", "'dest4'"});
  expectError<poplibs_error>(
      "a gathered output of another shape",
      [&] {
        Tensor out = mapped(graph, FLOAT, {replicas + 1, cols}, "gathered3");
        gcl::allGatherWithOutputCrossReplica(graph, data, out, prog);
      },
      {"allGatherWithOutputCrossReplica", "'gathered3'"});
  expectError<poplibs_error>(
      "a within-replica reduction of a scalar",
      [&] {
        gcl::allReduceWithinReplica(graph, mapped(graph, FLOAT, {}, "scalar"),
                                    CollectiveOperator::ADD, prog);
      },
      {"allReduceWithinReplica"});
  expectError<poplibs_error>(
      "a within-replica reduction of no slices",
      [&] {
        gcl::reduceScatterWithinReplica(graph, mapped(graph, FLOAT, {0, 4}, "none"),
                                        CollectiveOperator::ADD, prog);
      },
      {"reduceScatterWithinReplica", "one slice per IPU"});
  expectError<invalid_option>(
      "a within-replica option that does not exist",
      [&] {
        gcl::allReduceWithinReplica(graph, mapped(graph, FLOAT, {2, 3}, "slices"),
                                    CollectiveOperator::ADD, prog, "x",
                                    {{"bogus", "1"}});
      },
      {"allReduceWithinReplica", "'bogus'"});
  {
    Sequence scratch;
    const gcl::Chunks chunks = gcl::reduceScatterWithinReplica(
        graph, mapped(graph, FLOAT, {2, 6}, "toScatter"),
        CollectiveOperator::ADD, scratch);
    expectError<poplibs_error>(
        "chunks gathered without the input they came from",
        [&] {
          gcl::Chunks orphan = chunks;
          orphan.originalInput = Tensor();
          gcl::allGatherWithinReplica(graph, orphan, prog);
        },
        {"allGatherWithinReplica", "one slice per chunk"});
    expectError<poplibs_error>(
        "a chunk of the wrong size",
        [&] {
          gcl::Chunks resized = chunks;
          resized.chunks[1].tensor = mapped(graph, FLOAT, {5}, "wrongChunk");
          gcl::allGatherWithinReplica(graph, resized, prog);
        },
        {"allGatherWithinReplica", "chunk 1", "wrong number of elements"});
  }
  expectError<poplibs_error>("an operator that does not exist", [&] {
    std::istringstream in("PLUS");
    CollectiveOperator op{};
    in >> op;
  }, {"'PLUS'"});

  // The graph as it is now: rows 3 and 1 of each replica's table, summed
  // over the replicas.
  Sequence good;
  const Tensor picked = popops::multiSlice(graph, table, offsets, {0}, {1}, good,
                                           plan, {}, "picked");
  const Tensor summed = gcl::allReduceCrossReplica(
      graph, picked, CollectiveOperator::ADD, good, gcl::CommGroup(), "summed");
  graph.createHostWrite("table", table);
  graph.createHostWrite("offsets", offsets);
  graph.createHostRead("summed", summed);
  Engine engine(graph, good);
  engine.load(device);
  std::vector<float> tables(replicas * rows * cols);
  for (std::size_t i = 0; i != tables.size(); ++i)
    tables[i] = static_cast<float>(i) * 0.5f - 3.0f;
  const std::vector<unsigned> idx{3, 1, 3, 1};
  engine.writeTensor("table", tables.data(), tables.data() + tables.size());
  engine.writeTensor("offsets", idx.data(), idx.data() + idx.size());
  engine.run();
  std::vector<float> got(replicas * 2 * cols);
  engine.readTensor("summed", got.data(), got.data() + got.size());
  for (unsigned r = 0; r != replicas; ++r)
    for (std::size_t k = 0; k != 2; ++k)
      for (std::size_t c = 0; c != cols; ++c) {
        float want = 0;
        for (unsigned q = 0; q != replicas; ++q)
          want += tables[(q * rows + idx[k]) * cols + c];
        CHECK(got[(r * 2 + k) * cols + c] == want);
      }
}
