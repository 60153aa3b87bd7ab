// libpva against the Engine's own profiles: the matrix products of
// tutorial 4 are compiled and run three times on the IPU Model with the
// autoReport options, and what pva reads from profile.pop is compared with
// Engine::getGraphProfile() and getExecutionProfile() of the same Engine.
#include <pva/pva.hpp>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using poplar::ProfileValue;

namespace {

const fs::path reportDir = fs::path(PVA_TEST_DIR) / "matmul";

std::vector<std::uint64_t> numbers(const ProfileValue &v) {
  std::vector<std::uint64_t> out;
  for (const auto &x : v.asVector())
    out.push_back(x.asUint());
  return out;
}

/// Tutorial 4's (m1 * m2) * m3, run three times; the profiles of its
/// Engine, and whether the report was complete while the Engine lived.
struct MatMulRun {
  ProfileValue graph, execution;
  bool completeWhileAlive = true;
  std::uint64_t runsWhileAlive = 0;

  MatMulRun() {
    fs::remove_all(reportDir);
    poplar::IPUModel model;
    model.tilesPerIPU = 16;
    poplar::Device device = model.createDevice();
    poplar::Graph g(device.getTarget());
    popops::addCodelets(g);
    poplin::addCodelets(g);
    auto m1 = g.addVariable(poplar::FLOAT, {90, 60}, "m1");
    auto m2 = g.addVariable(poplar::FLOAT, {60, 30}, "m2");
    auto m3 = g.addVariable(poplar::FLOAT, {30, 20}, "m3");
    for (const auto &m : {m1, m2, m3}) {
      poputil::mapTensorLinearly(g, m);
    }
    // m1 comes from the host and m5 goes back by streams: StreamCopy
    // programs; m2 and m3 are written once.
    poplar::program::Sequence prog;
    auto in = g.addHostToDeviceFIFO("m1-in", poplar::FLOAT, 90 * 60);
    prog.add(poplar::program::Copy(in, m1));
    g.createHostWrite("m2-write", m2);
    g.createHostWrite("m3-write", m3);
    auto m4 = poplin::matMul(g, m1, m2, prog, "m4");
    auto m5 = poplin::matMul(g, m4, m3, prog, "m5");
    auto out = g.addDeviceToHostFIFO("m5-out", poplar::FLOAT, 90 * 20);
    prog.add(poplar::program::Copy(m5, out));
    poplar::Engine engine(g, prog,
                          {{"autoReport.outputGraphProfile", "true"},
                           {"autoReport.outputExecutionProfile", "true"},
                           {"autoReport.outputLoweredVars", "true"},
                           {"autoReport.outputDebugInfo", "true"},
                           {"autoReport.executionProfileProgramRunCount", "3"},
                           {"autoReport.directory", reportDir.string()},
                           {"debug.retainDebugInformation", "true"}});
    engine.load(device);
    std::vector<float> h1(90 * 60, 1.0f), h2(60 * 30, 0.5f), h3(30 * 20, 0.25f),
        h5(90 * 20);
    engine.writeTensor("m2-write", h2.data(), h2.data() + h2.size());
    engine.writeTensor("m3-write", h3.data(), h3.data() + h3.size());
    engine.connectStream("m1-in", h1.data());
    engine.connectStream("m5-out", h5.data());
    engine.run(0, "first");
    engine.run(0, "second");
    engine.run(0);
    graph = engine.getGraphProfile();
    execution = engine.getExecutionProfile();
    auto alive = pva::openReport((reportDir / "profile.pop").string());
    completeWhileAlive = alive.complete();
    runsWhileAlive = alive.execution().runs().size();
  }
};

const MatMulRun &matMul() {
  static const MatMulRun run;
  return run;
}

// The Engine's program types and pva's.
const std::map<std::string, pva::Program::Type> &programTypes() {
  using T = pva::Program::Type;
  static const std::map<std::string, T> types = {
      {"Sequence", T::Sequence},     {"OnTileExecute", T::OnTileExecute},
      {"DoExchange", T::DoExchange}, {"GlobalExchange", T::GlobalExchange},
      {"StreamCopy", T::StreamCopyMid}, {"Repeat", T::Repeat},
      {"Sync", T::Sync},             {"Call", T::Call},
      {"IfElse", T::IfElse},         {"Switch", T::Switch}};
  return types;
}

pva::Report report() { return pva::openReport((reportDir / "profile.pop").string()); }

} // namespace

TEST_CASE("The target and graph are the Engine's", "[pva]") {
  const auto &g = matMul().graph;
  const auto r = report();
  const auto t = r.compilation().target();
  CHECK(t.type() == pva::Target::Type::IpuModel);
  CHECK(t.architecture() == pva::IPU::Architecture::Ipu2);
  CHECK(t.numTiles() == g["target"]["numTiles"].asUint());
  CHECK(t.tilesPerIpu() == g["target"]["tilesPerIPU"].asUint());
  CHECK(t.numIPUs() == g["target"]["numIPUs"].asUint());
  CHECK(t.bytesPerTile() == g["target"]["bytesPerTile"].asUint());
  CHECK(t.bytesPerIPU() == g["target"]["bytesPerIPU"].asUint());
  CHECK(t.totalMemory() == g["target"]["totalMemory"].asUint());
  CHECK(t.clockFrequency() == g["target"]["clockFrequency"].asDouble());
  CHECK(t.numWorkerContexts() == g["target"]["numWorkerContexts"].asUint());
  const auto graph = r.compilation().graph();
  CHECK(graph.numVertices() == g["graph"]["numVertices"].asUint());
  CHECK(graph.numEdges() == g["graph"]["numEdges"].asUint());
  CHECK(graph.numVariables() == g["graph"]["numVars"].asUint());
  CHECK(graph.numComputeSets() == g["graph"]["numComputeSets"].asUint());
  CHECK(r.poplarVersion().string() == POPLAR_SDK_VERSION_STRING);
  CHECK(r.version().major() == 3);
  CHECK(r.complete());
  CHECK_FALSE(matMul().completeWhileAlive);
}

TEST_CASE("Tile memory is the Engine's, by region and category", "[pva]") {
  const auto &m = matMul().graph["memory"];
  const auto r = report();
  const auto tiles = r.compilation().tiles();
  REQUIRE(tiles.size() == 16);
  const auto total = numbers(m["byTile"]["total"]);
  const auto gaps = numbers(m["byTile"]["totalIncludingGaps"]);
  const auto interleaved = numbers(m["byTile"]["interleaved"]);
  const auto nonInterleavedGaps = numbers(m["byTile"]["nonInterleavedIncludingGaps"]);
  const auto names = tiles[0].memory().category().names();
  REQUIRE(names.size() == m["byCategory"].asMap().size());
  std::uint64_t variables = 0;
  for (const auto &tile : tiles) {
    const unsigned t = tile.number();
    const auto mem = tile.memory();
    CHECK(mem.total().excludingGaps() == total[t]);
    CHECK(mem.total().includingGaps() == gaps[t]);
    CHECK(mem.interleaved().excludingGaps() == interleaved[t]);
    CHECK(mem.nonInterleaved().includingGaps() == nonInterleavedGaps[t]);
    // Always live: every category's non-overlapped bytes; the rest of the
    // total is the block the overlapped buffers share.
    std::uint64_t nonOverlapped = 0;
    for (const auto &name : names) {
      const auto &c = m["byCategory"][name];
      for (const char *region : {"nonInterleaved", "interleaved", "overflowed"})
        nonOverlapped += numbers(c[region]["nonOverlapped"])[t];
      const auto cat = mem.category().byName(name);
      CHECK(cat.total() == numbers(c["total"])[t]);
      CHECK(cat.nonInterleaved().nonOverlapped() ==
            numbers(c["nonInterleaved"]["nonOverlapped"])[t]);
      CHECK(cat.interleaved().overlapped() == numbers(c["interleaved"]["overlapped"])[t]);
      CHECK(cat.overflowed().total() ==
            numbers(c["overflowed"]["nonOverlapped"])[t] +
                numbers(c["overflowed"]["overlapped"])[t]);
    }
    CHECK(mem.alwaysLiveBytes() == nonOverlapped);
    CHECK(mem.notAlwaysLiveBytes() == total[t] - nonOverlapped);
    CHECK(mem.category().vertexCode().total() == mem.category().byName("vertexCode").total());
    variables += mem.category().variable().total();
  }
  CHECK(variables > 0);
  CHECK_THROWS_WITH(tiles[0].memory().category().byName("nothing"),
                    Catch::Contains("No memory category 'nothing'"));
}

TEST_CASE("Compute sets, vertices and programs are the Engine's", "[pva]") {
  const auto &g = matMul().graph;
  const auto c = report().compilation();
  const auto sets = c.computeSets();
  const auto &names = g["computeSets"]["names"];
  REQUIRE(sets.size() == names.size());
  std::uint64_t vertices = 0;
  for (std::size_t i = 0; i != sets.size(); ++i) {
    CHECK(sets[i].name() == names[i].asString());
    CHECK(sets[i].cyclesByTile() ==
          numbers(g["computeSets"]["cycleEstimates"]["cyclesByTile"][i]));
    CHECK(sets[i].activeCyclesByTile() ==
          numbers(g["computeSets"]["cycleEstimates"]["activeCyclesByTile"][i]));
    const auto counts = numbers(g["computeSets"]["vertexCounts"][i]);
    const auto types = numbers(g["computeSets"]["vertexTypes"][i]);
    std::map<std::string, std::uint64_t> expected, got;
    for (std::size_t k = 0; k != counts.size(); ++k)
      expected[g["vertexTypes"]["names"][types[k]].asString()] += counts[k];
    for (const auto &v : sets[i].vertices())
      got[v.type().name()] += v.count();
    CHECK(got == expected);
    for (const auto &[name, n] : got)
      vertices += n;
  }
  CHECK(vertices == c.graph().numVertices());

  const auto programs = c.programs();
  const auto &expected = g["programs"];
  REQUIRE(programs.size() == expected.size());
  for (std::size_t i = 0; i != programs.size(); ++i) {
    const auto &p = expected[i];
    CHECK(programs[i]->_id() == i);
    const std::string type = p["type"].asString();
    INFO("program " << i << " of type " << type);
    REQUIRE(programTypes().count(type));
    CHECK(programs[i]->type() == programTypes().at(type));
    std::vector<std::uint64_t> children;
    for (const auto &child : programs[i]->children())
      children.push_back(child->_id());
    if (p.asMap().count("children"))
      CHECK(children == numbers(p["children"]));
    if (type == "OnTileExecute") {
      const auto &exec = dynamic_cast<const pva::OnTileExecuteProgram &>(*programs[i]);
      CHECK(exec.computeset()._id() == p["computeSet"].asUint());
    }
    if (type == "Repeat")
      CHECK(dynamic_cast<const pva::RepeatProgram &>(*programs[i]).repeatCount() ==
            p["repeatCount"].asUint());
  }
  REQUIRE(c.controlPrograms().size() == 1);
  CHECK(c.controlPrograms()[0]->_id() == g["controlPrograms"][0].asUint());
}

TEST_CASE("The visitor sees each program as its type", "[pva]") {
  struct Counter : pva::ProgramVisitor {
    std::map<std::string, unsigned> seen;
    std::set<unsigned> computeSets;
    void visitOnTileExecute(const pva::OnTileExecuteProgram &p) override {
      ++seen["OnTileExecute"];
      computeSets.insert(p.computeset()._id());
    }
    void visitDoExchange(const pva::DoExchangeProgram &p) override {
      ++seen["DoExchange"];
      CHECK(p.totalBytes() > 0);
    }
    void visitStreamCopyMid(const pva::StreamCopyMidProgram &) override {
      ++seen["StreamCopy"];
    }
    void visitSequence(const pva::Program &) override { ++seen["Sequence"]; }
  } counter;
  std::map<std::string, unsigned> expected;
  for (const auto &p : matMul().graph["programs"].asVector())
    ++expected[p["type"].asString()];
  for (const auto &p : report().compilation().programs())
    p->accept(counter);
  for (const char *type : {"OnTileExecute", "DoExchange", "StreamCopy", "Sequence"})
    CHECK(counter.seen[type] == expected[type]);
  CHECK(counter.seen["OnTileExecute"] > 0);
  CHECK(counter.seen["StreamCopy"] == 2); // m1 in, m5 out
}

TEST_CASE("Liveness is the Engine's", "[pva]") {
  const auto &live = matMul().graph["memory"]["liveness"];
  const auto c = report().compilation();
  std::map<std::string, std::uint64_t> always;
  for (const auto &v : c.alwaysLiveVariables())
    always[v.name()] = v.size();
  std::map<std::string, std::uint64_t> expected;
  for (const auto &[name, bytes] : live["alwaysLive"].asMap())
    expected[name] = bytes.asUint();
  CHECK(always == expected);
  // Streamed and written by the host: always live; the first product
  // (its partials and output) is not.
  CHECK(always.at("m1") == 90 * 60 * 4);
  CHECK(always.at("m2") == 60 * 30 * 4);
  for (const auto &entry : always)
    CHECK(entry.first.rfind("m4/", 0) != 0);
  const auto steps = c.livenessProgramSteps();
  REQUIRE(steps.size() == live["steps"].size());
  std::vector<bool> m4Live(steps.size(), false);
  for (std::size_t i = 0; i != steps.size(); ++i) {
    INFO("step " << i);
    const auto &step = live["steps"][i];
    CHECK(steps[i].name() == step["name"].asString());
    const auto memory = steps[i].notAlwaysLiveMemory();
    CHECK(memory.bytes() == step["liveBytes"].asUint());
    const auto program = steps[i].program();
    REQUIRE(program);
    CHECK(program->_id() == step["program"].asUint());
    CHECK(program->type() == programTypes().at(step["type"].asString()));
    // What is live in the step adds up to its bytes.
    std::uint64_t sum = 0;
    for (const auto &v : memory.variables()) {
      sum += v.size();
      if (v.name().rfind("m4/", 0) == 0)
        m4Live[i] = true;
    }
    CHECK(sum == memory.bytes());
  }
  // The stream copy of m1 comes first; m4 is made after it and read by
  // the second product, before its result is streamed out.
  REQUIRE(steps.size() > 2);
  CHECK(steps.front().program()->type() == pva::Program::Type::StreamCopyMid);
  CHECK(steps.back().program()->type() == pva::Program::Type::StreamCopyMid);
  CHECK(steps.front().notAlwaysLiveMemory().variables().empty());
  CHECK_FALSE(m4Live.front());
  CHECK_FALSE(m4Live.back());
  CHECK(std::count(m4Live.begin(), m4Live.end(), true) > 0);
}

TEST_CASE("Lowered variables hold each variable where its memory is", "[pva]") {
  const auto c = report().compilation();
  REQUIRE(c.loweredVariables().present());
  std::map<std::string, std::uint64_t> bytesByName;
  for (unsigned t = 0; t != 16; ++t) {
    auto vars = c.loweredVariables().forTile(t);
    std::uint64_t end = 0;
    for (const auto &v : vars) {
      CHECK(v.tile() == t);
      CHECK(v.address() >= end); // sorted, not overlapping
      end = v.address() + v.bytes();
      bytesByName[v.name()] += v.bytes();
    }
  }
  // Every element of the inputs, once.
  CHECK(bytesByName.at("m1") == 90 * 60 * 4);
  CHECK(bytesByName.at("m2") == 60 * 30 * 4);
  CHECK(bytesByName.at("m3") == 30 * 20 * 4);
  CHECK_THROWS_WITH(c.loweredVariables().forTile(16), Catch::Contains("Tile 16"));
}

TEST_CASE("Runs, steps and cycles per tile are the Engine's", "[pva]") {
  const auto &sim = matMul().execution["simulation"];
  const auto r = report();
  const auto runs = r.execution().runs();
  REQUIRE(runs.size() == 3);
  CHECK(matMul().runsWhileAlive == 3);
  CHECK(r.execution().runsTotal() == 3);
  CHECK(runs[0].name() == "first");
  CHECK(runs[1].name() == "second");
  CHECK(runs[2].name() == "");
  std::uint64_t cycles = 0;
  for (const auto &run : runs) {
    CHECK(run.startCycle() == cycles);
    cycles += run.cycles();
    CHECK(run.programIndex() == 0);
    CHECK_FALSE(run.stepsTruncated());
  }
  CHECK(cycles == sim["cycles"].asUint());
  CHECK(runs[1].microseconds().start() ==
        Approx(double(runs[0].cycles()) / r.compilation().target().clockFrequency() * 1e6));

  // The Engine's steps leave out control flow: match the others in order.
  const auto &expected = sim["steps"].asVector();
  std::size_t k = 0;
  std::map<std::string, std::vector<std::uint64_t>> byActivity;
  const unsigned numTiles = r.compilation().target().numTiles();
  for (const char *a : {"OnTileExecute", "DoExchange", "StreamCopy"})
    byActivity[a].assign(numTiles, 0);
  for (const auto &run : runs)
    for (const auto &step : run.steps()) {
      const auto program = step.program();
      const auto perTile = step.cyclesByTile();
      if (program && program->type() != pva::Program::Type::Sync) {
        const auto type = program->type();
        const char *activity = type == pva::Program::Type::OnTileExecute ? "OnTileExecute"
                               : type == pva::Program::Type::DoExchange  ? "DoExchange"
                               : type == pva::Program::Type::StreamCopyMid
                                   ? "StreamCopy"
                                   : nullptr;
        if (!activity)
          continue; // control flow
        REQUIRE(k < expected.size());
        const auto &e = expected[k++];
        CHECK(e["type"].asString() == activity);
        CHECK(program->_id() == e["program"].asUint());
        CHECK(step.cycles() == e["cycles"].asUint());
        CHECK(run.startCycle() + step.startCycle() == e["cyclesFrom"].asUint());
        const auto ipu = step.ipus().at(0);
        CHECK(ipu.cycles() == step.cycles());
        CHECK(ipu.activeCycles().cyclesFrom().min() == e["cyclesFrom"].asUint());
        CHECK(ipu.activeCycles().cyclesTo().max() <= e["cyclesTo"].asUint());
        CHECK(ipu.tileBalance() == Approx(e["tileBalance"].asDouble()));
        if (type == pva::Program::Type::OnTileExecute) {
          CHECK(ipu.activeTileBalance() == Approx(e["activeTileBalance"].asDouble()));
          REQUIRE(step.computeSets().size() == 1);
          CHECK(step.computeSets()[0]._id() == e["computeSet"].asUint());
        }
        for (unsigned t = 0; t != numTiles; ++t)
          byActivity[activity][t] += perTile[t];
      } else {
        // Syncs between programs take every tile for the whole step.
        REQUIRE(k < expected.size());
        CHECK(expected[k++]["type"].asString() == "Sync");
        CHECK(perTile == std::vector<std::uint64_t>(numTiles, step.cycles()));
      }
    }
  CHECK(k == expected.size());
  // What each tile did, summed over the steps, is the Engine's per-tile total.
  CHECK(byActivity["OnTileExecute"] == numbers(sim["cyclesByTile"]["compute"]));
  CHECK(byActivity["DoExchange"] == numbers(sim["cyclesByTile"]["doExchange"]));
  CHECK(byActivity["StreamCopy"] == numbers(sim["cyclesByTile"]["streamCopy"]));
}

TEST_CASE("Files that are not profiles are errors naming the file", "[pva]") {
  fs::create_directories(PVA_TEST_DIR);
  CHECK_THROWS_WITH(pva::openReport(PVA_TEST_DIR "/missing.pop"),
                    Catch::Contains("missing.pop"));
  const std::string text = PVA_TEST_DIR "/text.pop";
  std::ofstream(text) << "not a database\n";
  CHECK_THROWS_AS(pva::openReport(text), pva::error);
  CHECK_THROWS_WITH(pva::openReport(text), Catch::Contains("text.pop"));
  matMul();
  CHECK_THROWS_WITH(pva::openReport((reportDir / "profile.pop").string(), text),
                    Catch::Contains("is not a debug.cbor"));
  CHECK(pva::openReport((reportDir / "profile.pop").string(),
                        (reportDir / "debug.cbor").string())
            .complete());
}
