// Variable liveness in the IPU Model's memory: which variables are always
// live, the steps the others are live in, and the memory they share. The
// programs copy between tiles (no vertex state, no buffers) so that every
// byte is worked out by hand: a tile holds its 3,168 bytes of stacks, its
// always-live variables and the most bytes of its other variables live in
// one step (poplar/src/model/README.md, "Liveness").
#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <map>
#include <sstream>
#include <utility>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr std::uint64_t stack = 6 * 448 + 480;
constexpr std::uint64_t kb = 1024; // a FLOAT[256]

using Ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

struct Model {
  Device device;
  Graph graph;
  explicit Model(const char *arch = "ipu2", unsigned tiles = 4)
      : device(make(arch, tiles)), graph(device.getTarget()) {}
  static Device make(const char *arch, unsigned tiles) {
    IPUModel m(arch);
    m.tilesPerIPU = tiles;
    return m.createDevice();
  }
  Tensor on(unsigned tile, const std::string &name, std::size_t n = 256) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, tile);
    return t;
  }
  // A variable the host writes (so it is always live).
  Tensor input(unsigned tile, const std::string &name, std::size_t n = 256) {
    Tensor t = on(tile, name, n);
    graph.createHostWrite(name, t);
    return t;
  }
  // A predicate the host writes.
  Tensor flag(unsigned tile) {
    Tensor t = graph.addVariable(BOOL, {}, "flag");
    graph.setTileMapping(t, tile);
    graph.createHostWrite("flag", t);
    return t;
  }
  // A variable the host reads (so it is always live).
  Tensor output(unsigned tile, const std::string &name, std::size_t n = 256) {
    Tensor t = on(tile, name, n);
    graph.createHostRead(name, t);
    return t;
  }
};

// `in` on tile 0 (written by the host), two temporaries t1 and t2 on
// tile 1, and o1, o2 on tiles 2 and 3 (read by the host).
struct TwoTemporaries : Model {
  explicit TwoTemporaries(std::size_t n = 256)
      : in(input(0, "in", n)), t1(on(1, "t1", n)), t2(on(1, "t2", n)),
        o1(output(2, "o1", n)), o2(output(3, "o2", n)) {}
  Tensor in, t1, t2, o1, o2;
  // Steps, one after the other: 0 in -> t1, 1 t1 -> o1, 2 in -> t2,
  // 3 t2 -> o2; overlapping: 0 in -> t1, 1 in -> t2, 2 t1 -> o1, 3 t2 -> o2.
  Sequence program(bool overlap) const {
    return overlap ? Sequence{Copy(in, t1), Copy(in, t2), Copy(t1, o1), Copy(t2, o2)}
                   : Sequence{Copy(in, t1), Copy(t1, o1), Copy(in, t2), Copy(t2, o2)};
  }
};

const ProfileValue &liveness(const ProfileValue &profile) {
  return profile["memory"]["liveness"];
}

// The steps a variable that is not always live is live in.
Ranges liveRanges(const ProfileValue &profile, const std::string &name) {
  for (const auto &v : liveness(profile)["notAlwaysLive"].asVector())
    if (v["name"].asString() == name) {
      Ranges out;
      for (const auto &r : v["live"].asVector())
        out.push_back({r[0].asUint(), r[1].asUint()});
      return out;
    }
  return {};
}

bool alwaysLive(const ProfileValue &profile, const std::string &name) {
  return liveness(profile)["alwaysLive"].getOrNull(name) != nullptr;
}

std::vector<std::uint64_t> stepBytes(const ProfileValue &profile) {
  std::vector<std::uint64_t> out;
  for (const auto &s : liveness(profile)["steps"].asVector())
    out.push_back(s["liveBytes"].asUint());
  return out;
}

std::uint64_t tileTotal(const ProfileValue &profile, unsigned tile, bool gaps = false) {
  return profile["memory"]["byTile"][gaps ? "totalIncludingGaps" : "total"][tile].asUint();
}

std::uint64_t category(const ProfileValue &profile, const char *name,
                       const char *kind, unsigned tile) {
  std::uint64_t sum = 0;
  for (const char *region : {"nonInterleaved", "interleaved", "overflowed"})
    sum += profile["memory"]["byCategory"][name][region][kind][tile].asUint();
  return sum;
}

} // namespace

TEST_CASE("Temporaries whose lives do not overlap share memory",
          "[model][memory][liveness]") {
  TwoTemporaries m;
  Engine engine(m.graph, m.program(false));
  const ProfileValue p = engine.getGraphProfile();
  CHECK(liveRanges(p, "t1") == Ranges{{0, 1}});
  CHECK(liveRanges(p, "t2") == Ranges{{2, 3}});
  CHECK(alwaysLive(p, "in"));
  CHECK(alwaysLive(p, "o1"));
  CHECK_FALSE(alwaysLive(p, "t1"));
  CHECK(stepBytes(p) == std::vector<std::uint64_t>{kb, kb, kb, kb});
  // Tile 1 holds one of them at a time: 1,024 bytes rather than 2,048,
  // and both at the same address.
  CHECK(tileTotal(p, 1) == stack + kb);
  CHECK(tileTotal(p, 1, true) == stack + kb);
  CHECK(tileTotal(p, 0) == stack + kb);
  CHECK(category(p, "variable", "overlapped", 1) == 2 * kb);
  CHECK(category(p, "variable", "nonOverlapped", 1) == 0);
  CHECK(category(p, "variable", "nonOverlapped", 0) == kb);
  // The numbers are still right.
  engine.load(m.device);
  std::vector<float> host(256);
  for (unsigned i = 0; i != 256; ++i)
    host[i] = float(i);
  engine.writeTensor("in", host.data(), host.data() + host.size());
  engine.run();
  std::vector<float> r1(256), r2(256);
  engine.readTensor("o1", r1.data(), r1.data() + r1.size());
  engine.readTensor("o2", r2.data(), r2.data() + r2.size());
  CHECK(r1 == host);
  CHECK(r2 == host);
}

TEST_CASE("Temporaries whose lives overlap do not share memory",
          "[model][memory][liveness]") {
  TwoTemporaries m;
  Engine engine(m.graph, m.program(true));
  const ProfileValue p = engine.getGraphProfile();
  CHECK(liveRanges(p, "t1") == Ranges{{0, 2}});
  CHECK(liveRanges(p, "t2") == Ranges{{1, 3}});
  CHECK(stepBytes(p) == std::vector<std::uint64_t>{kb, 2 * kb, 2 * kb, kb});
  CHECK(tileTotal(p, 1) == stack + 2 * kb);
  CHECK(tileTotal(p, 1, true) == stack + 2 * kb);
  // The summary says the same.
  std::ostringstream summary;
  engine.printProfileSummary(summary, {{"showVarStorage", "true"}});
  const std::string s = summary.str();
  // Always live: 4 stacks and in, o1, o2.
  CHECK_THAT(s, Catch::Contains("Always-live bytes: " + std::string("15,744")));
  CHECK_THAT(s, Catch::Contains("Maximum live bytes (including always-live): 17,792"));
  CHECK_THAT(s, Catch::Contains("      Live Bytes (excluding always-live): 2,048\n"
                                "      Live Vars (excluding always-live):\n"
                                "        t1       1,024\n"
                                "        t2       1,024\n"));
}

TEST_CASE("Variables written in pieces before they are read are not always live",
          "[model][memory][liveness]") {
  Model m;
  Tensor in = m.input(0, "in", 128);
  Tensor whole = m.on(1, "whole"), half = m.on(1, "half");
  Tensor o = m.output(2, "o"), o2 = m.output(3, "o2");
  // `whole` is written in two halves, then read: live from the first
  // half. Only half of `half` is written before all of it is read: its
  // other half comes from before the run, so it is always live.
  Engine engine(m.graph, Sequence{Copy(in, whole.slice(0, 128)),
                                  Copy(in, whole.slice(128, 256)), Copy(whole, o),
                                  Copy(in, half.slice(0, 128)), Copy(half, o2)});
  const ProfileValue p = engine.getGraphProfile();
  CHECK(liveRanges(p, "whole") == Ranges{{0, 2}});
  CHECK(alwaysLive(p, "half"));
  CHECK(tileTotal(p, 1) == stack + kb + kb);
  CHECK(category(p, "variable", "nonOverlapped", 1) == kb);
}

TEST_CASE("Weights streamed from the host are always live",
          "[model][memory][liveness]") {
  Model m;
  Tensor w = m.on(0, "weights"), kept = m.on(1, "kept");
  Tensor t = m.on(2, "activation"), o = m.output(3, "o");
  Tensor c = m.graph.addConstant<float>(FLOAT, {256}, 0.5f, "half");
  m.graph.setTileMapping(c, 0);
  auto stream = m.graph.addHostToDeviceFIFO("weights", FLOAT, 256);
  // Program 0 streams the weights in and writes `kept`; program 1, run
  // after it, reads both. Both must survive between the runs.
  Sequence load{Copy(stream, w), Copy(c, kept)};
  Sequence step{Copy(w, t), Copy(t, o), Copy(kept, o)};
  Engine engine(m.graph, {load, step});
  const ProfileValue p = engine.getGraphProfile();
  CHECK(alwaysLive(p, "weights"));
  CHECK(alwaysLive(p, "kept"));
  CHECK(alwaysLive(p, "half")); // constants
  CHECK(liveness(p)["alwaysLive"]["weights"].asUint() == kb);
  // Steps 0, 1: program 0; steps 2 to 4: program 1.
  CHECK(liveRanges(p, "activation") == Ranges{{2, 3}});
  CHECK(stepBytes(p) == std::vector<std::uint64_t>{0, 0, kb, kb, 0});
  CHECK(liveness(p)["steps"][0]["type"].asString() == "StreamCopy");
  CHECK(tileTotal(p, 0) == stack + 2 * kb);
  // The numbers are still right.
  engine.load(m.device);
  std::vector<float> host(256, 3.0f), out(256);
  engine.connectStream("weights", host.data());
  engine.run(0);
  engine.run(1);
  engine.readTensor("o", out.data(), out.data() + out.size());
  CHECK(out == std::vector<float>(256, 0.5f));
}

TEST_CASE("A variable used across a Repeat is live through the loop",
          "[model][memory][liveness]") {
  auto build = [](unsigned count) {
    Model m;
    Tensor in = m.input(0, "in");
    Tensor u = m.on(1, "u"), v = m.on(1, "v"), t = m.on(2, "t");
    Tensor o = m.output(3, "o");
    // Steps: 0 in -> u; loop { 1 u -> t, 2 t -> o, 3 in -> v }; 4 v -> o.
    // Every iteration reads u, written before the loop: u is live until
    // the loop ends. t is written and read within an iteration; v is
    // written in the loop and read after it.
    Sequence body{Copy(u, t), Copy(t, o), Copy(in, v)};
    Engine engine(m.graph, Sequence{Copy(in, u), Repeat(count, body), Copy(v, o)});
    return engine.getGraphProfile();
  };
  const ProfileValue loop = build(3);
  CHECK(liveRanges(loop, "u") == Ranges{{0, 3}});
  CHECK(liveRanges(loop, "t") == Ranges{{1, 2}});
  CHECK(liveRanges(loop, "v") == Ranges{{3, 4}});
  // u and v are both live in step 3: tile 1 holds both.
  CHECK(tileTotal(loop, 1) == stack + 2 * kb);
  CHECK(stepBytes(loop) == std::vector<std::uint64_t>{kb, 2 * kb, 2 * kb, 2 * kb, kb});
  // Run once, u is dead after step 1 and v can take its place.
  const ProfileValue once = build(1);
  CHECK(liveRanges(once, "u") == Ranges{{0, 1}});
  CHECK(tileTotal(once, 1) == stack + kb);
}

TEST_CASE("A loop that reads what an earlier iteration wrote",
          "[model][memory][liveness]") {
  Model m;
  Tensor in = m.input(0, "in");
  Tensor acc = m.on(1, "acc"), prev = m.on(2, "prev"), scratch = m.on(2, "scratch");
  Tensor o = m.output(3, "o");
  // Steps: 0 in -> acc; loop { 1 prev -> scratch, 2 acc -> prev,
  // 3 scratch -> o }; 4 acc -> o. prev is read in an iteration before it
  // is written, and never before the loop: its first value comes from the
  // previous run, so it is always live. scratch lives within an iteration;
  // acc through the loop, which reads it in every iteration.
  Sequence body{Copy(prev, scratch), Copy(acc, prev), Copy(scratch, o)};
  Engine engine(m.graph, Sequence{Copy(in, acc), Repeat(2, body), Copy(acc, o)});
  const ProfileValue p = engine.getGraphProfile();
  CHECK(alwaysLive(p, "prev"));
  CHECK(liveRanges(p, "scratch") == Ranges{{1, 3}});
  CHECK(liveRanges(p, "acc") == Ranges{{0, 4}});
}

TEST_CASE("What one branch of an If writes is not certain after it",
          "[model][memory][liveness]") {
  Model m;
  Tensor in = m.input(0, "in");
  Tensor both = m.on(1, "both"), one = m.on(1, "one");
  Tensor o = m.output(2, "o");
  Tensor flag = m.flag(3);
  // Both branches write `both`; only one writes `one`: after the If,
  // `one` may hold what the previous run left, so it is always live.
  Engine engine(m.graph, Sequence{If(flag, Sequence{Copy(in, both), Copy(in, one)},
                                     Sequence{Copy(in, both)}),
                                  Copy(both, o), Copy(one, o)});
  const ProfileValue p = engine.getGraphProfile();
  CHECK(alwaysLive(p, "one"));
  // Steps: 0 the test, 1-2 the then branch, 3 the else branch, 4, 5.
  CHECK(liveRanges(p, "both") == Ranges{{1, 4}});
}

TEST_CASE("A variable written again in full starts a new life",
          "[model][memory][liveness]") {
  Model m;
  Tensor in = m.input(0, "in");
  Tensor t = m.on(1, "t"), u = m.on(1, "u");
  Tensor o = m.output(2, "o"), o2 = m.output(3, "o2");
  // A function that writes t and reads it, called twice, with u live
  // between the calls. Steps: 0, 1 the first call; 2 in -> u, 3 u -> o2;
  // 4, 5 the second call.
  Function f = m.graph.addFunction(Sequence{Copy(in, t), Copy(t, o)});
  Engine calls(m.graph, Sequence{Call(f), Copy(in, u), Copy(u, o2), Call(f)});
  const ProfileValue p = calls.getGraphProfile();
  CHECK(liveRanges(p, "t") == Ranges{{0, 1}, {4, 5}});
  CHECK(liveRanges(p, "u") == Ranges{{2, 3}});
  CHECK(stepBytes(p) == std::vector<std::uint64_t>(6, kb));
  // One of them at a time; but t keeps its address between its lives, so
  // u is placed beside it: the difference counts as a gap.
  CHECK(tileTotal(p, 1) == stack + kb);
  CHECK(tileTotal(p, 1, true) == stack + 2 * kb);
  // Written in a branch, t may still hold what it held before (the other
  // branch keeps it): its life goes on. Steps: 0, 1, 2 the test, 3 the
  // branch, 4.
  Tensor flag = m.flag(3);
  Engine branch(m.graph, Sequence{Copy(in, t), Copy(t, o), If(flag, Copy(in, t), Sequence{}),
                                  Copy(t, o)});
  CHECK(liveRanges(branch.getGraphProfile(), "t") == Ranges{{0, 4}});
}

TEST_CASE("Sharing memory lets a graph fit that would not otherwise",
          "[model][memory][liveness]") {
  // Two temporaries of 400,000 bytes on a 624 KiB tile of a Mk2: one at
  // a time they fit; both at once they do not.
  auto compile = [](bool overlap) {
    TwoTemporaries m(100000);
    return compileGraph(m.graph, {m.program(overlap)});
  };
  CHECK_NOTHROW(compile(false));
  CHECK_THROWS_AS(compile(true), graph_memory_allocation_error);
}
