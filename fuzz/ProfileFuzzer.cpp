// The reports the Engine writes, read back by libpva: the first byte
// chooses what the rest is.
//   0 (and most values): a profile.pop (SQLite), opened and walked through
//      every accessor of the report model;
//   1: a debug.cbor, checked by openReport before the profile is read.
// Every failure must be a pva::error naming the file.
#include <pva/pva.hpp>

#include "FuzzSupport.hpp"

#include <set>
#include <string>

namespace {

// Bounds the walk: a corrupt profile may list a great many rows.
constexpr std::size_t maxItems = 256;

template <class Container> std::size_t bounded(const Container &c) {
  return c.size() < maxItems ? c.size() : maxItems;
}

volatile std::uint64_t sink; // keeps the values read from being dropped

template <class Number> void use(Number v) { sink = sink + std::uint64_t(v != 0); }
void use(const std::string &s) { sink = sink + s.size(); }

void walkProgram(const std::shared_ptr<pva::Program> &program,
                 std::set<unsigned> &seen) {
  if (!program || !seen.insert(program->_id()).second || seen.size() > maxItems)
    return;
  use(std::uint64_t(program->type()));
  use(program->name());
  if (auto *onTile = dynamic_cast<const pva::OnTileExecuteProgram *>(program.get()))
    use(onTile->computeset().name());
  if (auto *exchange = dynamic_cast<const pva::ExchangeProgram *>(program.get())) {
    use(exchange->totalBytes());
    use(exchange->bytesSentByTile().size());
    use(exchange->bytesReceivedByTile().size());
    use(exchange->estimatedCyclesByTile().size());
  }
  if (auto *repeat = dynamic_cast<const pva::RepeatProgram *>(program.get()))
    use(repeat->repeatCount());
  if (auto *call = dynamic_cast<const pva::CallProgram *>(program.get()))
    walkProgram(call->target(), seen);
  if (auto *sync = dynamic_cast<const pva::SyncProgram *>(program.get()))
    use(sync->syncType());
  for (const auto &child : program->children())
    walkProgram(child, seen);
}

void walkCompilation(const pva::Compilation &c) {
  const pva::Target target = c.target();
  use(std::uint64_t(target.type()));
  use(std::uint64_t(target.architecture()));
  use(target.numIPUs());
  use(target.tilesPerIpu());
  use(target.numTiles());
  use(target.bytesPerTile());
  use(target.clockFrequency());
  use(target.numWorkerContexts());
  const pva::Graph graph = c.graph();
  use(graph.numVertices() + graph.numEdges() + graph.numVariables() +
      graph.numComputeSets());

  const auto tiles = c.tiles();
  for (std::size_t i = 0; i != bounded(tiles); ++i) {
    const pva::TileMemory memory = tiles[i].memory();
    use(tiles[i].ipu());
    use(memory.total().includingGaps() + memory.nonInterleaved().excludingGaps() +
        memory.interleaved().includingGaps() + memory.overflowed().includingGaps());
    use(memory.alwaysLiveBytes() + memory.notAlwaysLiveBytes());
    const auto vertices = memory.vertices();
    for (std::size_t v = 0; v != bounded(vertices); ++v) {
      use(vertices[v].type().name());
      use(vertices[v].codeBytes() + vertices[v].copyPointerBytes() +
          vertices[v].descriptorBytes() + vertices[v].edgePointerBytes() +
          vertices[v].paddingBytes() + vertices[v].vertexDataBytes());
    }
    const pva::MemoryCategories categories = memory.category();
    for (const auto &name : categories.names())
      use(categories.byName(name).total());
  }
  const auto ipus = c.ipus();
  for (std::size_t i = 0; i != bounded(ipus); ++i)
    use(ipus[i].tiles().size());
  for (const auto &type : c.vertexTypes()) {
    use(type.name());
    use(type.size());
  }
  const auto computeSets = c.computeSets();
  for (std::size_t i = 0; i != bounded(computeSets); ++i) {
    const auto &cs = computeSets[i];
    use(cs.name());
    use(cs.numVertices() + cs.cycles());
    for (const auto &v : cs.vertices()) {
      use(v.type().name());
      use(v.count());
    }
    use(cs.cyclesByTile().size() + cs.activeCyclesByTile().size());
  }
  const auto variables = c.variables();
  for (std::size_t i = 0; i != bounded(variables); ++i) {
    use(variables[i].name());
    use(variables[i].type());
    use(variables[i].numElements() + variables[i].elementBytes() +
        variables[i].isConstant());
  }
  std::set<unsigned> seen;
  for (const auto &p : c.programs())
    walkProgram(p, seen);
  for (const auto &p : c.controlPrograms())
    walkProgram(p, seen);
  for (const auto &p : c.functionPrograms())
    walkProgram(p, seen);
  const auto steps = c.livenessProgramSteps();
  for (std::size_t i = 0; i != bounded(steps); ++i) {
    use(steps[i].name());
    walkProgram(steps[i].program(), seen);
    const pva::NotAlwaysLiveMemory live = steps[i].notAlwaysLiveMemory();
    use(live.bytes());
    for (const auto &v : live.variables())
      use(v.name());
  }
  for (const auto &v : c.alwaysLiveVariables())
    use(v.size());
  const pva::LoweredVariables lowered = c.loweredVariables();
  if (lowered.present()) {
    const auto all = lowered.all();
    for (std::size_t i = 0; i != bounded(all); ++i) {
      use(all[i].name());
      use(all[i].tile() + all[i].address() + all[i].bytes());
      use(all[i].variable().name());
      use(lowered.forTile(all[i].tile()).size());
    }
  }
  for (const auto &[name, value] : c.optimizationInfo())
    use(value);
}

void walkExecution(const pva::Execution &e) {
  use(e.runsTotal());
  use(e.cyclesByTile().size());
  const auto runs = e.runs();
  std::set<unsigned> seen;
  for (std::size_t r = 0; r != bounded(runs); ++r) {
    const pva::Run &run = runs[r];
    use(run.name());
    walkProgram(run.program(), seen);
    use(run.programIndex() + run.cycles() + run.startCycle() + run.stepsTruncated());
    use(run.microseconds().end() - run.microseconds().start());
    const auto steps = run.steps();
    for (std::size_t s = 0; s != bounded(steps); ++s) {
      const pva::ExecutionStep &step = steps[s];
      walkProgram(step.program(), seen);
      use(step.cycles() + step.startCycle() + step.cyclesByTile().size());
      for (const auto &ipu : step.ipus())
        use(ipu.cycles() + ipu.activeCycles().cyclesTo().max());
      for (const auto &cs : step.computeSets())
        use(cs.name());
    }
  }
  use(e.steps().size());
}

void readProfile(const std::string &path) {
  const pva::Report report = pva::openReport(path);
  use(report.poplarVersion().string());
  use(report.version().string());
  use(report.engineName());
  use(report.complete());
  walkCompilation(report.compilation());
  walkExecution(report.execution());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  try {
    if (data[0] == 1) {
      const std::string debug = fuzz::scratchFile("debug.cbor", data + 1, size - 1);
      pva::openReport("no-such-profile.pop", debug);
    } else {
      readProfile(fuzz::scratchFile("profile.pop", data + 1, size - 1));
    }
  } catch (const pva::error &) {
  }
  return 0;
}
