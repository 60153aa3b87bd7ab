// The Engine's threaded parts, for ThreadSanitizer (label `tsan`,
// scripts/tsan.sh) as much as for their results: compute sets large enough
// to run their vertices on oneTBB's threads, with copies and host streams
// between them, and several engines compiled and run at once from threads
// of their own, sharing the codelet cache. Every result is checked against
// a loop on the host.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>

#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace fs = std::filesystem;

namespace {

// out[i] = in[i] * scale + offset, and a running count of calls.
const char *const scaleCodelet = R"(
#include <poplar/Vertex.hpp>
class ScaleAdd : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  poplar::InOut<unsigned> calls;
  float scale;
  float offset;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * scale + offset;
    *calls += 1;
    return true;
  }
};
)";

fs::path codeletSource() {
  const fs::path path =
      fs::temp_directory_path() /
      ("poplar-threaded-engine-" + std::to_string(::getpid()) + ".cpp");
  std::ofstream(path) << scaleCodelet;
  return path;
}

struct Result {
  std::vector<float> out;
  std::vector<unsigned> calls;
};

// `vertices` ScaleAdd vertices over 16 tiles of an IPU Model, each on 8
// elements, run `runs` times: in from a host stream, out = in * (k + 1) +
// seed per vertex k, then out copied back onto in, reversed, for the next
// run; the calls counted per vertex.
Result runScaleAdd(const fs::path &source, unsigned vertices, unsigned runs,
                   float seed) {
  IPUModel model;
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(source.string());
  const std::size_t n = 8 * vertices;
  Tensor in = graph.addVariable(FLOAT, {n}, "in");
  Tensor out = graph.addVariable(FLOAT, {n}, "out");
  Tensor calls = graph.addVariable(UNSIGNED_INT, {vertices}, "calls");
  ComputeSet cs = graph.addComputeSet("scale");
  for (unsigned k = 0; k != vertices; ++k) {
    const unsigned tile = k % 16;
    graph.setTileMapping(in.slice(8 * k, 8 * k + 8), tile);
    graph.setTileMapping(out.slice(8 * k, 8 * k + 8), tile);
    graph.setTileMapping(calls[k], tile);
    VertexRef v = graph.addVertex(cs, "ScaleAdd",
                                  {{"in", in.slice(8 * k, 8 * k + 8)},
                                   {"out", out.slice(8 * k, 8 * k + 8)},
                                   {"calls", calls[k]}});
    graph.setInitialValue(v["scale"], float(k % 5 + 1));
    graph.setInitialValue(v["offset"], seed);
    graph.setTileMapping(v, tile);
  }
  graph.setInitialValue(calls, ArrayRef<unsigned>(std::vector<unsigned>(vertices, 0)));
  DataStream feed = graph.addHostToDeviceFIFO("feed", FLOAT, n);
  DataStream result = graph.addDeviceToHostFIFO("result", FLOAT, n);
  graph.createHostRead("calls", calls);
  Sequence prog{Copy(feed, in), Repeat(runs, Sequence{Execute(cs),
                                                     Copy(out.reverse(0), in)}),
                Copy(out, result)};
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> input(n);
  for (std::size_t i = 0; i != n; ++i)
    input[i] = float(i % 13) * 0.25f - 1;
  Result r{std::vector<float>(n), std::vector<unsigned>(vertices)};
  engine.connectStream("feed", input.data());
  engine.connectStream("result", r.out.data());
  engine.run();
  engine.readTensor("calls", r.calls.data(), r.calls.data() + vertices);
  return r;
}

// The same on the host.
std::vector<float> expectedScaleAdd(unsigned vertices, unsigned runs,
                                    float seed) {
  const std::size_t n = 8 * vertices;
  std::vector<float> in(n), out(n);
  for (std::size_t i = 0; i != n; ++i)
    in[i] = float(i % 13) * 0.25f - 1;
  for (unsigned r = 0; r != runs; ++r) {
    for (std::size_t i = 0; i != n; ++i)
      out[i] = in[i] * float((i / 8) % 5 + 1) + seed;
    for (std::size_t i = 0; i != n; ++i)
      in[i] = out[n - 1 - i];
  }
  return out;
}

} // namespace

TEST_CASE("A compute set of many vertices runs on several threads",
          "[poplar][threads]") {
  const fs::path source = codeletSource();
  for (unsigned threads : {2u, 8u}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              threads);
    // 512 vertices: well past the count below which a compute set runs
    // on the calling thread.
    const Result r = runScaleAdd(source, 512, 3, 0.5f);
    CHECK(r.out == expectedScaleAdd(512, 3, 0.5f));
    CHECK(r.calls == std::vector<unsigned>(512, 3));
  }
  fs::remove(source);
}

TEST_CASE("Engines compiled and run from several threads at once agree with "
          "the host",
          "[poplar][threads]") {
  const fs::path source = codeletSource();
  std::vector<std::future<Result>> running;
  for (int t = 0; t != 4; ++t)
    running.push_back(std::async(std::launch::async, [&source, t] {
      return runScaleAdd(source, 128, 2, float(t));
    }));
  for (int t = 0; t != 4; ++t) {
    const Result r = running[t].get();
    CHECK(r.out == expectedScaleAdd(128, 2, float(t)));
    CHECK(r.calls == std::vector<unsigned>(128, 2));
  }
  fs::remove(source);
}
