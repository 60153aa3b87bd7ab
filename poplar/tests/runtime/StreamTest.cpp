// Data streams (circular buffers and callbacks), host handles and remote
// buffers on the device variant under test.
#include <catch2/catch.hpp>

#include "EngineTestUtil.hpp"

#include <poplar/exceptions.hpp>

#include <numeric>

using namespace poplar;
using namespace poplar::program;
using sdktest::readBack;
using sdktest::writeTo;
using Catch::Matchers::Contains;

TEST_CASE("A stream connected to a buffer uses it circularly",
          "[poplar][stream]") {
  sdktest::TestGraph g;
  Tensor v = g.variable(INT, {10}, "v");
  DataStream in = g.graph.addHostToDeviceFIFO("in", INT, 10);
  DataStream out = g.graph.addDeviceToHostFIFO("out", INT, 10);
  Engine engine(g.graph, Sequence{Copy(in, v), Copy(v, out)});
  engine.load(g.device);
  std::vector<int> inData(30);
  std::iota(inData.begin(), inData.end(), 0);
  std::vector<int> outData(20, -1);
  engine.connectStream("in", inData.data(), inData.data() + inData.size());
  engine.connectStream("out", outData.data(), outData.data() + outData.size());
  // Four runs read blocks 0, 1, 2 and (wrapping) 0 again; the output
  // buffer of two blocks wraps after two runs.
  std::vector<std::vector<int>> seen;
  for (int run = 0; run != 4; ++run) {
    engine.run();
    seen.push_back(readBack<int>(engine, "v", 10));
  }
  for (int run = 0; run != 4; ++run) {
    std::vector<int> expected(10);
    std::iota(expected.begin(), expected.end(), (run % 3) * 10);
    CHECK(seen[run] == expected);
  }
  std::vector<int> expectedOut(20);
  std::iota(expectedOut.begin(), expectedOut.begin() + 10, 20); // run 3
  std::iota(expectedOut.begin() + 10, expectedOut.end(), 0);    // run 4
  CHECK(outData == expectedOut);
}

TEST_CASE("A stream connected to one buffer reads it every time",
          "[poplar][stream]") {
  sdktest::TestGraph g;
  Tensor v = g.variable(FLOAT, {2, 2}, "v");
  DataStream in = g.graph.addHostToDeviceFIFO("in", FLOAT, 4);
  Engine engine(g.graph, Copy(in, v.transpose()));
  engine.load(g.device);
  std::vector<float> data = {1, 2, 3, 4};
  engine.connectStream("in", data.data());
  engine.run();
  CHECK(readBack<float>(engine, "v", 4) == std::vector<float>{1, 3, 2, 4});
  data = {5, 6, 7, 8};
  engine.run();
  CHECK(readBack<float>(engine, "v", 4) == std::vector<float>{5, 7, 6, 8});
}

namespace {
struct CountingCallback final : StreamCallback {
  int fetches = 0, completes = 0;
  Result prefetch(void *) noexcept override { return Result::NotAvailable; }
  void fetch(void *p) noexcept override {
    auto *values = static_cast<unsigned *>(p);
    values[0] = 100 + fetches;
    values[1] = 200 + fetches;
    ++fetches;
  }
  void complete() noexcept override { ++completes; }
};
} // namespace

TEST_CASE("Stream callbacks fill and receive data", "[poplar][stream]") {
  sdktest::TestGraph g;
  Tensor v = g.variable(UNSIGNED_INT, {2}, "v");
  DataStream in = g.graph.addHostToDeviceFIFO("in", UNSIGNED_INT, 2);
  DataStream out = g.graph.addDeviceToHostFIFO("out", UNSIGNED_INT, 2);
  Engine engine(g.graph, Sequence{Copy(in, v), Copy(v.reverse(0), out)});
  engine.load(g.device);
  auto callback = std::make_unique<CountingCallback>();
  CountingCallback *cb = callback.get();
  engine.connectStreamToCallback("in", std::move(callback));
  std::vector<std::vector<unsigned>> received;
  engine.connectStreamToCallback("out", 0, [&](void *p) {
    auto *values = static_cast<unsigned *>(p);
    received.push_back({values[0], values[1]});
  });
  engine.run();
  engine.run();
  CHECK(cb->fetches == 2);
  CHECK(cb->completes == 2);
  CHECK(received ==
        std::vector<std::vector<unsigned>>{{200, 100}, {201, 101}});
}

TEST_CASE("Remote buffers store rows chosen by an offset tensor",
          "[poplar][remote]") {
  sdktest::TestGraph g;
  Tensor rows = g.variable(FLOAT, {2, 3}, "rows");
  Tensor offsets = g.variable(UNSIGNED_INT, {2}, "offsets");
  RemoteBuffer buffer = g.graph.addRemoteBuffer("store", FLOAT, 3, 4);
  CHECK(buffer.getRepeats() == 4);
  CHECK(buffer.numElements() == 3);
  Sequence save{Copy(rows, buffer, offsets)};
  Sequence load{Copy(buffer, rows, offsets)};
  Engine engine(g.graph, {save, load});
  engine.load(g.device);
  writeTo(engine, "rows", std::vector<float>{1, 2, 3, 4, 5, 6});
  writeTo(engine, "offsets", std::vector<unsigned>{3, 1});
  engine.run(0);
  std::vector<float> row(3);
  engine.copyFromRemoteBuffer("store", row.data(), 3);
  CHECK(row == std::vector<float>{1, 2, 3});
  engine.copyFromRemoteBuffer("store", row.data(), 1);
  CHECK(row == std::vector<float>{4, 5, 6});
  const std::vector<float> host = {7, 8, 9};
  engine.copyToRemoteBuffer(host.data(), "store", 0);
  writeTo(engine, "offsets", std::vector<unsigned>{0, 3});
  engine.run(1);
  CHECK(readBack<float>(engine, "rows", 6) ==
        std::vector<float>{7, 8, 9, 1, 2, 3});
  writeTo(engine, "offsets", std::vector<unsigned>{4, 0});
  CHECK_THROWS_WITH(engine.run(1), Contains("row 4 is out of range"));
  CHECK_THROWS_AS(engine.copyFromRemoteBuffer("store", row.data(), 9),
                  index_error);
}

TEST_CASE("Host handles write and read views of variables",
          "[poplar][stream]") {
  sdktest::TestGraph g;
  Tensor v = g.graph.addVariable(HALF, {2, 3}, "v");
  g.graph.setTileMapping(v, g.graph.getTarget().getNumTiles() - 1);
  g.graph.createHostWrite("cols", v.transpose());
  g.graph.createHostRead("all", v);
  Engine engine(g.graph, Sequence());
  engine.load(g.device);
  std::vector<std::uint16_t> halves(6);
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  copyFloatToDeviceHalf(g.graph.getTarget(), values.data(), halves.data(), 6);
  engine.writeTensor("cols", halves.data(), halves.data() + 6);
  std::vector<std::uint16_t> back(6);
  engine.readTensor("all", back.data(), back.data() + 6);
  std::vector<float> floats(6);
  copyDeviceHalfToFloat(g.graph.getTarget(), back.data(), floats.data(), 6);
  CHECK(floats == std::vector<float>{1, 3, 5, 2, 4, 6});
}
