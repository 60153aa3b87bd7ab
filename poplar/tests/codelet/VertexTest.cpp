// Codelet vertices on every device variant: each field kind, templates,
// MultiVertex and SupervisorVertex, regions that are not contiguous in
// storage, and many vertices run in parallel. Expected values come from
// host loops.
#include "../runtime/EngineTestUtil.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Program.hpp>

#include <catch2/catch.hpp>

#include <numeric>

using namespace poplar;
using namespace poplar::program;
using sdktest::readBack;
using sdktest::TestGraph;
using sdktest::writeTo;

namespace {

struct CodeletGraph : TestGraph {
  CodeletGraph() { graph.addCodelets(TEST_CODELETS); }
  /// Tile i of a four-tile IPU Model; the CPU target has only tile 0.
  unsigned tile(unsigned i) const { return i % graph.getTarget().getNumTiles(); }
};

std::vector<float> iotaFloats(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace

TEST_CASE("Scalar Input, Output and InOut fields", "[vertex]") {
  CodeletGraph t;
  Tensor a = t.variable(FLOAT, {2}, "a");
  Tensor b = t.variable(INT, {2}, "b");
  Tensor sum = t.variable(FLOAT, {2}, "sum");
  Tensor counter = t.variable(INT, {2}, "counter");
  ComputeSet cs = t.graph.addComputeSet("scalars");
  for (unsigned i = 0; i != 2; ++i) {
    VertexRef v = t.graph.addVertex(cs, "ScalarFields",
                                    {{"a", a[i]}, {"b", b[i]}, {"sum", sum[i]}});
    t.graph.connect(v["counter"], counter[i]);
    t.graph.setTileMapping(v, t.tile(i));
  }
  Engine engine(t.graph, Sequence{Execute(cs), Execute(cs)});
  engine.load(t.device);
  writeTo<float>(engine, "a", {1.5f, -2.0f});
  writeTo<int>(engine, "b", {2, 7});
  writeTo<int>(engine, "counter", {5, 0});
  engine.run();
  CHECK(readBack<float>(engine, "sum", 2) == std::vector<float>{3.5f, 5.0f});
  CHECK(readBack<int>(engine, "counter", 2) == std::vector<int>{7, 2});
}

TEST_CASE("Element edges of views: t[i][j] of reshaped and transposed tensors",
          "[vertex]") {
  CodeletGraph t;
  Tensor a = t.variable(FLOAT, {6}, "a");
  Tensor b = t.variable(INT, {6}, "b");
  Tensor sum = t.variable(FLOAT, {6}, "sum");
  Tensor counter = t.variable(INT, {6}, "counter");
  // Vertex (r, c) of a 2 x 3 grid: a and sum as rows of a 2 x 3 view, b as
  // the transpose of a 3 x 2 view, counter as one element of the whole.
  Tensor aGrid = a.reshape({2, 3});
  Tensor bGrid = b.reshape({3, 2}).transpose();
  Tensor sumGrid = sum.reshape({2, 3});
  ComputeSet cs = t.graph.addComputeSet("elements");
  for (unsigned r = 0; r != 2; ++r)
    for (unsigned c = 0; c != 3; ++c) {
      VertexRef v = t.graph.addVertex(cs, "ScalarFields");
      t.graph.connect(v["a"], aGrid[r][c]);
      t.graph.connect(v["b"], bGrid[r][c]);
      t.graph.connect(v["sum"], sumGrid[r][c]);
      t.graph.connect(v["counter"], counter[r * 3 + c]);
      t.graph.setTileMapping(v, t.tile(r * 3 + c));
    }
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto aValues = iotaFloats(6, 0.5f);
  const std::vector<int> bValues{10, 20, 30, 40, 50, 60};
  writeTo<float>(engine, "a", aValues);
  writeTo<int>(engine, "b", bValues);
  writeTo<int>(engine, "counter", std::vector<int>(6, 3));
  engine.run();
  const auto sums = readBack<float>(engine, "sum", 6);
  for (unsigned r = 0; r != 2; ++r)
    for (unsigned c = 0; c != 3; ++c) // bGrid[r][c] is b[c * 2 + r]
      CHECK(sums[r * 3 + c] == aValues[r * 3 + c] + float(bValues[c * 2 + r]));
  CHECK(readBack<int>(engine, "counter", 6) == std::vector<int>(6, 4));
}

TEST_CASE("Element edges t[i] of one-dimensional views of many pieces",
          "[vertex]") {
  // The vertices of a compute set take their elements of a shared view
  // side by side: from the view's own boxes once it keeps them (reversed,
  // and 200 single-element pieces in a shuffled order), or by making the
  // element's view.
  CodeletGraph t;
  constexpr unsigned n = 200;
  Tensor a = t.variable(FLOAT, {n}, "a");
  Tensor b = t.variable(INT, {n}, "b");
  Tensor sum = t.variable(FLOAT, {n}, "sum");
  Tensor counter = t.variable(INT, {n}, "counter");
  Tensor aView = concat(a.slice(n / 2, n).reverse(0), a.slice(0, n / 2));
  std::vector<Tensor> pieces;
  for (unsigned i = 0; i != n; ++i)
    pieces.push_back(b.slice((i * 7) % n, (i * 7) % n + 1));
  Tensor bView = concat(pieces);
  ComputeSet cs = t.graph.addComputeSet("elements");
  for (unsigned i = 0; i != n; ++i) {
    VertexRef v = t.graph.addVertex(cs, "ScalarFields");
    t.graph.connect(v["a"], aView[i]);
    t.graph.connect(v["b"], bView[i]);
    t.graph.connect(v["sum"], sum[i]);
    t.graph.connect(v["counter"], counter[i]);
    t.graph.setTileMapping(v, t.tile(i));
  }
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto aValues = iotaFloats(n, 0.25f);
  std::vector<int> bValues(n);
  for (unsigned i = 0; i != n; ++i)
    bValues[i] = int(i * i % 97);
  writeTo<float>(engine, "a", aValues);
  writeTo<int>(engine, "b", bValues);
  writeTo<int>(engine, "counter", std::vector<int>(n, 1));
  engine.run();
  const auto sums = readBack<float>(engine, "sum", n);
  for (unsigned i = 0; i != n; ++i) {
    const float aElement = i < n / 2 ? aValues[n - 1 - i] : aValues[i - n / 2];
    const int bElement = bValues[(i * 7) % n];
    CHECK(sums[i] == aElement + float(bElement));
  }
  CHECK(readBack<int>(engine, "counter", n) == std::vector<int>(n, 2));
}

TEST_CASE("Vector fields on contiguous and strided regions", "[vertex]") {
  CodeletGraph t;
  Tensor in = t.variable(FLOAT, {4, 3}, "in");
  Tensor out = t.variable(FLOAT, {3, 4}, "out");
  Tensor acc = t.variable(INT, {8}, "acc");
  ComputeSet cs = t.graph.addComputeSet("vectors");
  // Vertex c reads column c of `in` (strided) and writes row c of `out`
  // reversed (a negative stride); acc pieces are contiguous.
  Tensor inColumns = in.transpose();
  for (unsigned c = 0; c != 3; ++c) {
    VertexRef v = t.graph.addVertex(cs, "VectorFields");
    t.graph.connect(v["in"], inColumns[c]);
    t.graph.connect(v["out"], out[c].reverse(0));
    t.graph.connect(v["acc"], acc.slice(c * 2, c * 2 + 2));
    t.graph.setTileMapping(v, t.tile(c));
  }
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto inValues = iotaFloats(12, 1);
  writeTo<float>(engine, "in", inValues);
  writeTo<float>(engine, "out", std::vector<float>(12, -7));
  writeTo<int>(engine, "acc", std::vector<int>(8, 10));
  engine.run();

  const auto outValues = readBack<float>(engine, "out", 12);
  for (unsigned c = 0; c != 3; ++c) {
    // out[c][3 - r] = 2 * in[r][c] + 1 for r < 4
    for (unsigned r = 0; r != 4; ++r)
      CHECK(outValues[c * 4 + (3 - r)] == 2 * inValues[r * 3 + c] + 1);
  }
  CHECK(readBack<int>(engine, "acc", 8) ==
        std::vector<int>{10, 11, 10, 11, 10, 11, 10, 10});
}

TEST_CASE("Outputs left unwritten keep their values when gathered",
          "[vertex]") {
  CodeletGraph t;
  Tensor out = t.variable(INT, {6}, "out");
  ComputeSet cs = t.graph.addComputeSet("even");
  VertexRef v = t.graph.addVertex(cs, "WriteEven");
  t.graph.connect(v["out"], concat(out.slice(3, 6), out.slice(0, 3)));
  t.graph.setTileMapping(v, t.tile(0));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  writeTo<int>(engine, "out", {0, 1, 2, 3, 4, 5});
  engine.run();
  // The field is elements 3, 4, 5, 0, 1, 2: its even positions are
  // elements 3, 5 and 1.
  CHECK(readBack<int>(engine, "out", 6) == std::vector<int>{0, -1, 2, -1, 4, -1});
}

TEST_CASE("Vertex state: scalars and vectors set from the host", "[vertex]") {
  CodeletGraph t;
  Tensor in = t.variable(FLOAT, {5}, "in");
  Tensor out = t.variable(FLOAT, {5}, "out");
  ComputeSet cs = t.graph.addComputeSet("state");
  VertexRef v =
      t.graph.addVertex(cs, "StateFields", {{"in", in}, {"out", out}});
  t.graph.setInitialValue(v["scale"], 2.5);        // double -> float
  t.graph.setInitialValue(v["offset"], 3);         // int -> unsigned
  const std::vector<float> weights{0.5f, -1.0f};
  t.graph.setInitialValue(v["weights"], ArrayRef<float>(weights));
  t.graph.setTileMapping(v, t.tile(1));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto inValues = iotaFloats(5, -2);
  writeTo<float>(engine, "in", inValues);
  engine.run();
  const auto got = readBack<float>(engine, "out", 5);
  for (unsigned i = 0; i != 5; ++i)
    CHECK(got[i] == inValues[i] * 2.5f + weights[i % 2] + 3);
}

TEST_CASE("List fields: Vector<Input<Vector>>, VectorList and scalar items",
          "[vertex]") {
  CodeletGraph t;
  Tensor m = t.variable(FLOAT, {3, 4}, "m");
  Tensor sums = t.variable(FLOAT, {3}, "sums");
  Tensor firsts = t.variable(FLOAT, {3}, "firsts");
  ComputeSet cs = t.graph.addComputeSet("lists");
  VertexRef v = t.graph.addVertex(cs, "ListFields");
  // rows: item by item after setFieldSize; more: a list in one call, and
  // the columns 0..2 of m as strided regions.
  t.graph.setFieldSize(v["rows"], 3);
  for (unsigned r = 0; r != 3; ++r)
    t.graph.connect(v["rows"][r], m[r]);
  std::vector<Tensor> columns;
  for (unsigned c = 0; c != 3; ++c)
    columns.push_back(m.transpose()[c].slice(0, 2));
  t.graph.connect(v["more"], columns);
  t.graph.connect(v["firsts"], {firsts[0], firsts[1], firsts[2]});
  t.graph.connect(v["sums"], sums);
  t.graph.setTileMapping(v, t.tile(0));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto mv = iotaFloats(12, 1);
  writeTo<float>(engine, "m", mv);
  engine.run();
  const auto gotSums = readBack<float>(engine, "sums", 3);
  const auto gotFirsts = readBack<float>(engine, "firsts", 3);
  for (unsigned r = 0; r != 3; ++r) {
    float expected = 0;
    for (unsigned c = 0; c != 4; ++c)
      expected += mv[r * 4 + c];
    expected += mv[0 * 4 + r] + mv[1 * 4 + r]; // column r, rows 0..1
    CHECK(gotSums[r] == expected);
    CHECK(gotFirsts[r] == mv[r * 4]);
  }
}

TEST_CASE("Template instances are vertex types of their own", "[vertex]") {
  CodeletGraph t;
  CHECK(t.graph.hasCodelet("Scale<float>"));
  CHECK(t.graph.hasCodelet("Scale< half >"));
  CHECK(t.graph.hasCodelet("ops::Copy<float, true>"));
  CHECK_FALSE(t.graph.hasCodelet("Scale<double>"));

  Tensor f = t.variable(FLOAT, {4}, "f");
  Tensor h = t.variable(HALF, {4}, "h");
  Tensor i = t.variable(INT, {4}, "i");
  Tensor neg = t.variable(FLOAT, {1}, "neg");
  Tensor copy = t.variable(INT, {1}, "copy");
  ComputeSet cs = t.graph.addComputeSet("templates");
  VertexRef vf = t.graph.addVertex(cs, "Scale<float>",
                                   {{"in", f.slice(0, 2)}, {"out", f.slice(2, 4)}});
  VertexRef vh = t.graph.addVertex(cs, "Scale<half>",
                                   {{"in", h.slice(0, 2)}, {"out", h.slice(2, 4)}});
  VertexRef vi = t.graph.addVertex(cs, "Scale<int>",
                                   {{"in", i.slice(0, 2)}, {"out", i.slice(2, 4)}});
  VertexRef vn = t.graph.addVertex(cs, "ops::Copy<float,true>",
                                   {{"in", f[0]}, {"out", neg[0]}});
  VertexRef vc = t.graph.addVertex(cs, "ops::Copy<int,false>",
                                   {{"in", i[1]}, {"out", copy[0]}});
  t.graph.setInitialValue(vf["factor"], 1.5f);
  t.graph.setInitialValue(vh["factor"], 0.5f);
  t.graph.setInitialValue(vi["factor"], -3);
  for (VertexRef v : {vf, vh, vi, vn, vc})
    t.graph.setTileMapping(v, t.tile(0));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  writeTo<float>(engine, "f", {2, 3, 0, 0});
  std::vector<std::uint16_t> halfIn(4, 0);
  copyFloatToDeviceHalf(t.graph.getTarget(), std::vector<float>{3, 5, 0, 0}.data(),
                        halfIn.data(), 4);
  writeTo<std::uint16_t>(engine, "h", halfIn);
  writeTo<int>(engine, "i", {4, -5, 0, 0});
  engine.run();
  CHECK(readBack<float>(engine, "f", 4) == std::vector<float>{2, 3, 3, 4.5f});
  auto halfOut = readBack<std::uint16_t>(engine, "h", 4);
  std::vector<float> halfAsFloat(4);
  copyDeviceHalfToFloat(t.graph.getTarget(), halfOut.data(), halfAsFloat.data(), 4);
  CHECK(halfAsFloat == std::vector<float>{3, 5, 1.5f, 2.5f});
  CHECK(readBack<int>(engine, "i", 4) == std::vector<int>{4, -5, -12, 15});
  CHECK(readBack<float>(engine, "neg", 1) == std::vector<float>{-2});
  CHECK(readBack<int>(engine, "copy", 1) == std::vector<int>{-5});
}

TEST_CASE("A MultiVertex runs compute once per worker context", "[vertex]") {
  CodeletGraph t;
  const unsigned workers = t.graph.getTarget().getNumWorkerContexts();
  Tensor in = t.variable(FLOAT, {20}, "in");
  Tensor out = t.variable(FLOAT, {20}, "out");
  Tensor worker = t.variable(UNSIGNED_INT, {20}, "worker");
  ComputeSet cs = t.graph.addComputeSet("multi");
  VertexRef v = t.graph.addVertex(
      cs, "WorkerSplit", {{"in", in}, {"out", out}, {"worker", worker}});
  t.graph.setTileMapping(v, t.tile(2));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  const auto inValues = iotaFloats(20);
  writeTo<float>(engine, "in", inValues);
  engine.run();
  const auto got = readBack<float>(engine, "out", 20);
  const auto who = readBack<unsigned>(engine, "worker", 20);
  for (unsigned i = 0; i != 20; ++i) {
    CHECK(got[i] == inValues[i] + 1);
    CHECK(who[i] == i % workers);
  }
}

TEST_CASE("A SupervisorVertex runs once", "[vertex]") {
  CodeletGraph t;
  Tensor data = t.variable(FLOAT, {5}, "data");
  ComputeSet cs = t.graph.addComputeSet("supervisor");
  VertexRef v = t.graph.addVertex(cs, "Reverse", {{"data", data}});
  t.graph.setTileMapping(v, t.tile(3));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  writeTo<float>(engine, "data", {1, 2, 3, 4, 5});
  engine.run();
  CHECK(readBack<float>(engine, "data", 5) == std::vector<float>{5, 4, 3, 2, 1});
}

TEST_CASE("Thousands of vertices run in parallel with the host loop's result",
          "[vertex]") {
  CodeletGraph t;
  const std::size_t rows = 3000, cols = 7;
  Tensor in = t.variable(FLOAT, {rows, cols}, "in");
  Tensor out = t.variable(FLOAT, {rows, cols}, "out");
  Tensor acc = t.variable(INT, {rows}, "acc");
  ComputeSet cs = t.graph.addComputeSet("many");
  const unsigned tiles = t.graph.getTarget().getNumTiles();
  for (unsigned r = 0; r != rows; ++r) {
    VertexRef v = t.graph.addVertex(
        cs, "VectorFields",
        {{"in", in[r]}, {"out", out[r]}, {"acc", acc.slice(r, r + 1)}});
    t.graph.setTileMapping(v, r % tiles);
  }
  Engine engine(t.graph, Repeat(3, Execute(cs)));
  engine.load(t.device);
  const auto inValues = iotaFloats(rows * cols, -100);
  writeTo<float>(engine, "in", inValues);
  engine.run();
  const auto got = readBack<float>(engine, "out", rows * cols);
  std::vector<float> expected(rows * cols);
  for (std::size_t k = 0; k != rows * cols; ++k)
    expected[k] = inValues[k] * 2 + 1;
  CHECK(got == expected);
  // Each vertex adds its index 0 to its one acc element, three times.
  CHECK(readBack<int>(engine, "acc", rows) == std::vector<int>(rows, 0));
}

TEST_CASE("Loading an engine again resets vertex state", "[vertex]") {
  CodeletGraph t;
  Tensor counter = t.variable(INT, {1}, "counter");
  Tensor zero = t.graph.addConstant<float>(FLOAT, {1}, {0.0f});
  Tensor izero = t.graph.addConstant<int>(INT, {1}, {0});
  Tensor sum = t.variable(FLOAT, {1}, "sum");
  t.graph.setTileMapping(zero, t.tile(0));
  t.graph.setTileMapping(izero, t.tile(0));
  ComputeSet cs = t.graph.addComputeSet("reload");
  VertexRef v = t.graph.addVertex(
      cs, "ScalarFields",
      {{"a", zero[0]}, {"b", izero[0]}, {"sum", sum[0]}, {"counter", counter[0]}});
  t.graph.setTileMapping(v, t.tile(0));
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  engine.run();
  engine.run();
  CHECK(readBack<int>(engine, "counter", 1) == std::vector<int>{2});
  engine.load(t.device);
  engine.run();
  CHECK(readBack<int>(engine, "counter", 1) == std::vector<int>{1});
}

TEST_CASE("Fields gathered from transposed, reordered and broadcast views",
          "[vertex]") {
  CodeletGraph t;
  constexpr unsigned rows = 37, cols = 20;
  Tensor m = t.variable(INT, {rows, cols}, "m");
  Tensor h = t.variable(HALF, {rows, cols}, "h");
  Tensor small = t.variable(INT, {5}, "small");
  Tensor transposed = t.variable(INT, {cols * rows}, "transposed");
  Tensor reordered = t.variable(INT, {cols * rows}, "reordered");
  Tensor broadcast = t.variable(INT, {5 * 30}, "broadcast");
  Tensor halves = t.variable(HALF, {cols * rows}, "halves");
  Tensor scattered = t.variable(INT, {cols, rows}, "scattered");
  // Columns (runs with neighbouring starts, more than one block of 16) in
  // storage order and in an order of their own.
  std::vector<unsigned> order(cols);
  for (unsigned c = 0; c != cols; ++c)
    order[c] = (c * 7 + 3) % cols;
  std::vector<Tensor> columns;
  for (unsigned c : order)
    columns.push_back(m.transpose()[c]);
  ComputeSet cs = t.graph.addComputeSet("gathers");
  auto scale = [&](const char *type, const Tensor &in, const Tensor &out) {
    VertexRef v = t.graph.addVertex(cs, type, {{"in", in}, {"out", out}});
    if (in.elementType() == HALF)
      t.graph.setInitialValue(v["factor"], 3.0f);
    else
      t.graph.setInitialValue(v["factor"], 3);
    t.graph.setTileMapping(v, t.tile(0));
  };
  scale("Scale<int>", m.transpose().flatten(), transposed);
  scale("Scale<int>", concat(columns), reordered);
  scale("Scale<int>", small.reshape({5, 1}).broadcast(30, 1).flatten(),
        broadcast);
  scale("Scale<half>", h.transpose().flatten(), halves);
  // The output scattered back through a transposed view.
  scale("Scale<int>", m.flatten(), scattered.transpose().flatten());
  Engine engine(t.graph, Execute(cs));
  engine.load(t.device);
  std::vector<int> mv(rows * cols);
  std::iota(mv.begin(), mv.end(), -100);
  writeTo<int>(engine, "m", mv);
  std::vector<float> hf(rows * cols);
  for (unsigned i = 0; i != hf.size(); ++i)
    hf[i] = float(int(i % 50) - 25) / 4;
  std::vector<std::uint16_t> hv(hf.size());
  copyFloatToDeviceHalf(t.graph.getTarget(), hf.data(), hv.data(), hv.size());
  writeTo<std::uint16_t>(engine, "h", hv);
  writeTo<int>(engine, "small", {1, -2, 3, -4, 5});
  engine.run();

  const auto gotTransposed = readBack<int>(engine, "transposed", rows * cols);
  const auto gotReordered = readBack<int>(engine, "reordered", rows * cols);
  const auto gotScattered = readBack<int>(engine, "scattered", rows * cols);
  auto halfOut = readBack<std::uint16_t>(engine, "halves", rows * cols);
  std::vector<float> gotHalves(halfOut.size());
  copyDeviceHalfToFloat(t.graph.getTarget(), halfOut.data(), gotHalves.data(),
                        halfOut.size());
  for (unsigned c = 0; c != cols; ++c)
    for (unsigned r = 0; r != rows; ++r) {
      CHECK(gotTransposed[c * rows + r] == 3 * mv[r * cols + c]);
      CHECK(gotReordered[c * rows + r] == 3 * mv[r * cols + order[c]]);
      CHECK(gotHalves[c * rows + r] == 3 * hf[r * cols + c]);
      // scattered^T flattened is m flattened, times 3.
      CHECK(gotScattered[c * rows + r] == 3 * mv[r * cols + c]);
    }
  const auto gotBroadcast = readBack<int>(engine, "broadcast", 150);
  const std::vector<int> smallValues{1, -2, 3, -4, 5};
  for (unsigned i = 0; i != 150; ++i)
    CHECK(gotBroadcast[i] == 3 * smallValues[i / 30]);
}
