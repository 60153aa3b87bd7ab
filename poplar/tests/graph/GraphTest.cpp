// Graph construction: variables, constants, initial values, tile mapping,
// clones and virtual graphs.
#include <catch2/catch.hpp>

#include "../runtime/EngineTestUtil.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using sdktest::readBack;
using Catch::Matchers::Contains;

namespace {
Graph modelGraph(unsigned tiles = 8) {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return Graph(model.createTarget());
}
} // namespace

TEST_CASE("Tile mappings are set on views and read back per tile",
          "[poplar][graph][mapping]") {
  Graph graph = modelGraph();
  Tensor v = graph.addVariable(FLOAT, {4, 4}, "v");
  graph.setTileMapping(v, 3);
  graph.setTileMapping(v.slice({0, 2}, {4, 4}), 5); // right half
  auto mapping = graph.getTileMapping(v);
  REQUIRE(mapping.size() == 8);
  CHECK(mapping[3] == std::vector<Interval>{{0, 2}, {4, 6}, {8, 10}, {12, 14}});
  CHECK(mapping[5] == std::vector<Interval>{{2, 4}, {6, 8}, {10, 12}, {14, 16}});
  // The transpose sees the same tiles in its own element order.
  auto transposed = graph.getTileMapping(v.transpose());
  CHECK(transposed[3] == std::vector<Interval>{{0, 8}});
  CHECK(transposed[5] == std::vector<Interval>{{8, 16}});

  Tensor w = graph.addVariable(INT, {6}, "w");
  graph.setTileMapping(w, Graph::TileToTensorMapping{{{0, 2}}, {}, {{2, 6}}});
  bool complete = false;
  auto wm = graph.getTileMapping(w, &complete);
  CHECK(complete);
  CHECK(wm[0] == std::vector<Interval>{{0, 2}});
  CHECK(wm[2] == std::vector<Interval>{{2, 6}});

  Tensor u = graph.addVariable(INT, {3}, "u");
  graph.setTileMapping(u[1], 0);
  graph.getTileMapping(u, &complete);
  CHECK_FALSE(complete);
  CHECK_THROWS_WITH(graph.getTileMapping(u), Contains("'u'"));
}

TEST_CASE("A mapping of a strided view gives each element its tile",
          "[poplar][graph][mapping]") {
  // The transpose of a 40 x 100 variable (a strided run per column), of
  // which the rows 10 to 29 are mapped in pieces of 1 to 4 elements over
  // 8 tiles; the rest keeps the tile it had, and element 5 is never mapped.
  Graph graph = modelGraph();
  Tensor w = graph.addVariable(FLOAT, {40, 100}, "w");
  Tensor flatW = w.flatten();
  graph.setTileMapping(flatW.slice(0, 5), 6);
  graph.setTileMapping(flatW.slice(6, 4000), 7);
  std::vector<unsigned> expected(4000, 7);
  for (std::size_t e = 0; e != 5; ++e)
    expected[e] = 6;
  expected[5] = ~0u;
  Tensor view = w.slice(10, 30, 0).transpose().flatten(); // [100][20]
  Graph::TileToTensorMapping mapping(8);
  for (std::size_t i = 0; i != view.numElements();) {
    // Pieces of 1 to 4 elements on tiles in a shuffled order.
    const std::size_t n = std::min<std::size_t>(1 + i % 4, view.numElements() - i);
    const unsigned tile = static_cast<unsigned>((i * 5 / 3) % 8);
    mapping[tile].emplace_back(i, i + n);
    for (std::size_t k = i; k != i + n; ++k) {
      const std::size_t row = 10 + k % 20, column = k / 20;
      expected[row * 100 + column] = tile;
    }
    i += n;
  }
  graph.setTileMapping(view, mapping);
  bool complete = true;
  const auto result = graph.getTileMapping(flatW, &complete);
  CHECK_FALSE(complete);
  std::vector<unsigned> got(4000, ~0u);
  std::size_t intervals = 0;
  for (unsigned t = 0; t != result.size(); ++t)
    for (const Interval &i : result[t]) {
      ++intervals;
      for (std::size_t e = i.begin(); e != i.end(); ++e)
        got[e] = t;
    }
  CHECK(got == expected);
  // Each interval is a maximal run of one tile.
  std::size_t runs = 0;
  for (std::size_t e = 0; e != expected.size(); ++e)
    if (expected[e] != ~0u && (e == 0 || expected[e - 1] != expected[e]))
      ++runs;
  CHECK(intervals == runs);
  // The same view read back gives the mapping it was given.
  const auto back = graph.getTileMapping(view);
  for (unsigned t = 0; t != 8; ++t) {
    std::vector<Interval> merged;
    for (const Interval &i : mapping[t])
      if (!merged.empty() && merged.back().end() == i.begin())
        merged.back() = Interval(merged.back().begin(), i.end());
      else
        merged.push_back(i);
    CHECK(back[t] == merged);
  }
}

TEST_CASE("Linear mapping spreads a variable over the tiles",
          "[poplar][graph][mapping]") {
  Graph graph = modelGraph(4);
  Tensor v = graph.addVariable(FLOAT, {10}, VariableMappingMethod::LINEAR, "v");
  auto m = graph.getTileMapping(v);
  CHECK(m[0] == std::vector<Interval>{{0, 3}});
  CHECK(m[1] == std::vector<Interval>{{3, 6}});
  CHECK(m[2] == std::vector<Interval>{{6, 9}});
  CHECK(m[3] == std::vector<Interval>{{9, 10}});
  Tensor g = graph.addLinearlyMappedVariable(FLOAT, {10}, 4, 2, "g");
  auto gm = graph.getTileMapping(g);
  CHECK(gm[0] == std::vector<Interval>{{0, 4}});
  CHECK(gm[2] == std::vector<Interval>{{8, 10}});
  CHECK(gm[3].empty());
}

TEST_CASE("Virtual graphs number their tiles from the start of their range",
          "[poplar][graph][virtual]") {
  Graph graph = modelGraph(8);
  Graph sub = graph.createVirtualGraph(4, 8);
  CHECK(sub.getTarget().getNumTiles() == 4);
  Tensor v = sub.addVariable(FLOAT, {2}, "v");
  sub.setTileMapping(v, 1);
  CHECK(graph.getTileMapping(v)[5] == std::vector<Interval>{{0, 2}});
  CHECK(sub.getTileMapping(v)[1] == std::vector<Interval>{{0, 2}});
  CHECK(sub.convertVirtualTileToTopLevelTile(1) == 5);
  CHECK_THROWS_AS(sub.setTileMapping(v, 4), invalid_tile_mapping);
  Graph picked = graph.createVirtualGraph(std::vector<unsigned>{7, 2});
  picked.setTileMapping(v, 0);
  CHECK(graph.getTileMapping(v)[7] == std::vector<Interval>{{0, 2}});
  CHECK(sub.getTopLevelGraph().getTarget().getNumTiles() == 8);
  CHECK_THROWS_AS(graph.createVirtualGraph(6, 9), invalid_tile_mapping);
}

TEST_CASE("Clones keep the mapping, and aliases when asked",
          "[poplar][graph][clone]") {
  Graph graph = modelGraph(4);
  Tensor v = graph.addVariable(FLOAT, {2, 3}, "v");
  graph.setTileMapping(v[0], 1);
  graph.setTileMapping(v[1], 2);
  Tensor c = graph.clone(v.transpose(), "c");
  CHECK(c.shape() == std::vector<std::size_t>{3, 2});
  CHECK(graph.getTileMapping(c) == graph.getTileMapping(v.transpose()));
  CHECK_FALSE(c.intersectsWith(v));

  Tensor s = graph.addVariable(HALF, {1}, "s");
  graph.setTileMapping(s, 3);
  Tensor b = s.broadcast(5, 0);
  Tensor plain = graph.clone(INT, b, "plain");
  CHECK(plain.elementType() == INT);
  CHECK_FALSE(plain.containsAliases());
  Tensor aliased =
      graph.clone(b, "aliased", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);
  CHECK(aliased.containsAliases());
  CHECK(aliased.numElements() == 5);
  CHECK(graph.getTileMapping(aliased)[3] == std::vector<Interval>{{0, 5}});
}

TEST_CASE("Clones keep the storage order of the tensor they copy",
          "[poplar][graph][clone]") {
  Graph graph = modelGraph(4);
  // A channels-innermost variable seen as NCHW, as convolutions make them.
  Tensor nhwc = graph.addVariable(FLOAT, {2, 3, 16, 5}, "nhwc");
  graph.setTileMapping(nhwc[0], 1);
  graph.setTileMapping(nhwc[1], 2);
  Tensor nchw = nhwc.dimShuffle({0, 3, 1, 2});
  Tensor c = graph.clone(nchw, "c");
  CHECK(c.shape() == nchw.shape());
  CHECK(graph.getTileMapping(c) == graph.getTileMapping(nchw));
  CHECK_FALSE(c.intersectsWith(nhwc));
  // Element for element, the clone's contiguous regions are the tensor's.
  CHECK(c.getContiguousRegions() == nchw.getContiguousRegions());
  CHECK(c.dimShuffle({0, 2, 3, 1}).isContiguous());

  // Short runs in element order (rows of 2) make a clone in element order.
  Tensor narrow = graph.addVariable(FLOAT, {2, 16}, "narrow");
  graph.setTileMapping(narrow, 0);
  Tensor n = graph.clone(narrow.transpose(), "n");
  CHECK(n.isContiguous());

  // Part of a variable, shuffled: the part becomes a variable of its own,
  // under the same shuffle.
  Tensor part = nhwc[1].dimShuffle({2, 0, 1});
  Tensor p = graph.clone(part, "p");
  CHECK(graph.getTileMapping(p) == graph.getTileMapping(part));
  CHECK_FALSE(p.isContiguous());
  CHECK(p.dimShuffle({1, 2, 0}).isContiguous());

  // A view of several blocks of storage is cloned in its element order.
  Tensor big = graph.addVariable(FLOAT, {6, 5}, "big");
  graph.setTileMapping(big, 3);
  Tensor mixed = concat(nhwc[0].reshape({48, 5}), big.slice(0, 2, 0));
  Tensor m = graph.clone(mixed, "m");
  CHECK(graph.getTileMapping(m) == graph.getTileMapping(mixed));
  CHECK(m.isContiguous());

  // Another element type keeps the order too; CREATE_NEW_ORDER need not.
  Tensor h = graph.clone(HALF, nchw, "h");
  CHECK(h.elementType() == HALF);
  CHECK(h.getContiguousRegions() == nchw.getContiguousRegions());
  Tensor fresh = graph.clone(nchw, "fresh", TensorCloneMethod::CREATE_NEW_ORDER);
  CHECK(graph.getTileMapping(fresh) == graph.getTileMapping(nchw));
}

TEST_CASE("reorderToSimplify reorders tensors alike into storage order",
          "[poplar][graph][reorder]") {
  Graph graph = modelGraph(4);
  Tensor nhwc = graph.addVariable(FLOAT, {2, 3, 4, 5}, "nhwc");
  graph.setTileMapping(nhwc, 0);
  Tensor other = graph.addVariable(FLOAT, {2, 3, 4, 5}, "other");
  graph.setTileMapping(other, 0);
  Tensor t = nhwc.dimShuffle({0, 3, 1, 2});
  Tensor u = other.dimShuffle({0, 3, 1, 2});
  graph.reorderToSimplify(&t, {&u}, false);
  CHECK(t.rank() == 1);
  CHECK(t.isContiguous());
  // u went through the same reordering: element k of t and of u are still
  // the same position of the NCHW shape.
  CHECK(t == nhwc.flatten());
  CHECK(u == other.flatten());

  // Not reordered when that would break up the others more than it joins t.
  Tensor plain = graph.addVariable(FLOAT, {2, 5, 3, 4}, "plain");
  graph.setTileMapping(plain, 0);
  Tensor t2 = nhwc.dimShuffle({0, 3, 1, 2});
  Tensor p2 = plain;
  graph.reorderToSimplify(&t2, {&p2}, false);
  CHECK(t2 == nhwc.dimShuffle({0, 3, 1, 2}).flatten());
  CHECK(p2 == plain.flatten());

  // Runs out of storage order are sorted when the simplest order is asked.
  Tensor v = graph.addVariable(INT, {6}, "v");
  graph.setTileMapping(v, 1);
  Tensor swapped = concat(v.slice(3, 6), v.slice(0, 3));
  Tensor w = graph.addVariable(INT, {6}, "w");
  graph.setTileMapping(w, 1);
  Tensor alike = w;
  graph.reorderToSimplify(&swapped, {&alike});
  CHECK(swapped == v);
  CHECK(alike == concat(w.slice(3, 6), w.slice(0, 3)));

  Tensor wrong = graph.addVariable(INT, {5}, "wrong");
  CHECK_THROWS_WITH(graph.reorderToSimplify(&t, {&wrong}),
                    Contains("wrong") && Contains("elements"));
}

TEST_CASE("Constants and initial values are loaded with the engine",
          "[poplar][graph][constant]") {
  sdktest::TestGraph g;
  Tensor c = g.graph.addConstant<float>(FLOAT, {2, 2}, {1.5, -2, 3, 4});
  Tensor h = g.graph.addConstant<int>(HALF, {3}, {1, 2, 3});
  Tensor filled = g.graph.addConstant(UNSIGNED_SHORT, {3}, 7u);
  Tensor raw = g.graph.addConstantHalf(HALF, {1}, std::uint16_t(0x3c00));
  for (const Tensor &t : {c, h, filled, raw})
    g.graph.setTileMapping(t, 0);
  Tensor v = g.variable(FLOAT, {2, 2}, "v");
  Tensor hv = g.variable(HALF, {3}, "hv");
  Tensor uv = g.variable(UNSIGNED_SHORT, {3}, "uv");
  Tensor init = g.variable(INT, {4}, "init");
  g.graph.setInitialValue(init.slice(1, 3), ArrayRef<int>({10, 20}));
  g.graph.setInitialValue(init[3], 30);
  Engine engine(g.graph, Sequence{Copy(c, v), Copy(h, hv), Copy(filled, uv)});
  engine.load(g.device);
  engine.run();
  CHECK(readBack<float>(engine, "v", 4) == std::vector<float>{1.5, -2, 3, 4});
  CHECK(readBack<std::uint16_t>(engine, "hv", 3) ==
        std::vector<std::uint16_t>{0x3c00, 0x4000, 0x4200});
  CHECK(readBack<std::uint16_t>(engine, "uv", 3) ==
        std::vector<std::uint16_t>{7, 7, 7});
  CHECK(readBack<int>(engine, "init", 4) == std::vector<int>{0, 10, 20, 30});
  CHECK(c.containsConstant());
  CHECK_FALSE(c.isParallelWriteable());

  CHECK_THROWS_AS(g.graph.addConstant<float>(FLOAT, {3}, {1.0f, 2.0f}),
                  tensor_creation_error);
  CHECK_THROWS_AS(g.graph.setInitialValue(c, ArrayRef<float>({1, 2, 3, 4})),
                  poplar_error);
  CHECK_THROWS_WITH(g.graph.setInitialValue(init, ArrayRef<int>({1})),
                    Contains("'init'"));
  CHECK_THROWS_AS(g.graph.addVariable(DOUBLE, {2}, "d"), type_error);
}
