// The compilation part of a report: target, graph, tiles and their memory,
// vertex types, compute sets, variables and liveness.
#include "ReportData.hpp"

#include <algorithm>

namespace pva {

using detail::ReportData;

// Memory.

std::uint64_t MemoryCategory::total() const {
  return regions[0].total() + regions[1].total() + regions[2].total();
}

MemoryCategories::MemoryCategories(ReportHandle report, unsigned tile)
    : report(std::move(report)), tile(tile) {}

MemoryCategory MemoryCategories::byName(const std::string &name) const {
  const auto &names = report->categoryNames;
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw error("No memory category '" + name + "' in the profile '" + report->path + "'");
  return report->tileCategories.at(tile).at(std::size_t(it - names.begin()));
}

std::vector<std::string> MemoryCategories::names() const { return report->categoryNames; }

VertexType VertexMemory::type() const {
  return VertexType(report, report->vertexMemory.at(row).vertexType);
}
std::uint64_t VertexMemory::codeBytes() const { return report->vertexMemory.at(row).code; }
std::uint64_t VertexMemory::copyPointerBytes() const {
  return report->vertexMemory.at(row).copyPointers;
}
std::uint64_t VertexMemory::descriptorBytes() const {
  return report->vertexMemory.at(row).descriptors;
}
std::uint64_t VertexMemory::edgePointerBytes() const {
  return report->vertexMemory.at(row).edgePointers;
}
std::uint64_t VertexMemory::paddingBytes() const { return report->vertexMemory.at(row).padding; }
std::uint64_t VertexMemory::vertexDataBytes() const {
  return report->vertexMemory.at(row).vertexData;
}

MemorySize TileMemory::total() const { return report->tiles.at(tile).total; }
MemorySize TileMemory::nonInterleaved() const { return report->tiles.at(tile).regions[0]; }
MemorySize TileMemory::interleaved() const { return report->tiles.at(tile).regions[1]; }
MemorySize TileMemory::overflowed() const { return report->tiles.at(tile).regions[2]; }

std::uint64_t TileMemory::alwaysLiveBytes() const {
  std::uint64_t bytes = 0;
  for (const auto &c : report->tileCategories.at(tile))
    bytes += c.nonInterleaved().nonOverlapped() + c.interleaved().nonOverlapped() +
             c.overflowed().nonOverlapped();
  return bytes;
}

std::uint64_t TileMemory::notAlwaysLiveBytes() const {
  // The overlapped categories count each variable and buffer once though
  // they share memory; the tile's total has their peak over the steps.
  return total().excludingGaps() - alwaysLiveBytes();
}

std::vector<VertexMemory> TileMemory::vertices() const {
  std::vector<VertexMemory> out;
  for (auto row : report->vertexMemoryByTile.at(tile))
    out.emplace_back(report, row);
  return out;
}

unsigned Tile::ipu() const { return report->tiles.at(num).ipu; }

std::vector<Tile> IPU::tiles() const {
  std::vector<Tile> out;
  const unsigned perIpu = report->target.tilesPerIpu;
  for (unsigned t = number * perIpu; t != (number + 1) * perIpu; ++t)
    out.emplace_back(report, t);
  return out;
}

// Target and graph.

Target::Type Target::type() const {
  const auto &t = report->target.type;
  if (t == "IPU_MODEL")
    return Type::IpuModel;
  if (t == "IPU")
    return Type::Ipu;
  if (t == "CPU")
    return Type::Cpu;
  return Type::Unknown;
}

IPU::Architecture Target::architecture() const {
  const auto &a = report->target.architecture;
  if (a == "ipu1")
    return IPU::Architecture::Ipu1;
  if (a == "ipu2")
    return IPU::Architecture::Ipu2;
  if (a == "ipu21")
    return IPU::Architecture::Ipu21;
  return IPU::Architecture::Unknown;
}

unsigned Target::numIPUs() const { return report->target.numIpus; }
unsigned Target::tilesPerIpu() const { return report->target.tilesPerIpu; }
unsigned Target::numTiles() const { return report->target.numTiles; }
std::uint64_t Target::bytesPerTile() const { return report->target.bytesPerTile; }
double Target::clockFrequency() const { return report->target.clockFrequency; }
unsigned Target::numWorkerContexts() const { return report->target.numWorkerContexts; }

namespace {
std::uint64_t statistic(const ReportData &r, const std::string &name) {
  auto it = r.graphStats.find(name);
  if (it == r.graphStats.end())
    throw error("The profile '" + r.path + "' has no graph statistic " + name);
  return it->second;
}
} // namespace

std::uint64_t Graph::numVertices() const { return statistic(*report, "numVertices"); }
std::uint64_t Graph::numEdges() const { return statistic(*report, "numEdges"); }
std::uint64_t Graph::numVariables() const { return statistic(*report, "numVars"); }
std::uint64_t Graph::numComputeSets() const { return statistic(*report, "numComputeSets"); }

// Vertices and compute sets.

const std::string &VertexType::name() const { return report->vertexTypes.at(id).name; }
std::uint64_t VertexType::size() const { return report->vertexTypes.at(id).stateBytes; }

VertexType VertexInstances::type() const {
  return VertexType(report, report->computeSetVertexTypes.at(row).vertexType);
}
std::uint64_t VertexInstances::count() const {
  return report->computeSetVertexTypes.at(row).count;
}

const std::string &ComputeSet::name() const { return report->computeSets.at(id).name; }
std::uint64_t ComputeSet::numVertices() const {
  return report->computeSets.at(id).numVertices;
}
std::uint64_t ComputeSet::cycles() const { return report->computeSets.at(id).cycles; }

std::vector<VertexInstances> ComputeSet::vertices() const {
  std::vector<VertexInstances> out;
  for (auto row : report->computeSets.at(id).vertexTypes)
    out.emplace_back(report, row);
  return out;
}

std::vector<std::uint64_t> ComputeSet::cyclesByTile() const {
  std::vector<std::uint64_t> cycles(report->target.numTiles, 0);
  for (const auto &t : report->computeSets.at(id).tiles)
    cycles.at(t.tile) = t.cycles;
  return cycles;
}

std::vector<std::uint64_t> ComputeSet::activeCyclesByTile() const {
  std::vector<std::uint64_t> cycles(report->target.numTiles, 0);
  for (const auto &t : report->computeSets.at(id).tiles)
    cycles.at(t.tile) = t.active;
  return cycles;
}

// Variables.

const std::string &Variable::name() const { return report->variables.at(id).name; }
const std::string &Variable::type() const { return report->variables.at(id).type; }
std::uint64_t Variable::numElements() const { return report->variables.at(id).numElements; }
std::uint64_t Variable::elementBytes() const { return report->variables.at(id).elementBytes; }
bool Variable::isConstant() const { return report->variables.at(id).constant; }

unsigned LoweredVariable::_id() const { return report->loweredVariables().at(row).variable; }
const std::string &LoweredVariable::name() const {
  return report->variables.at(_id()).name;
}
unsigned LoweredVariable::tile() const { return report->loweredVariables().at(row).tile; }
std::uint64_t LoweredVariable::address() const {
  return report->loweredVariables().at(row).address;
}
std::uint64_t LoweredVariable::bytes() const {
  return report->loweredVariables().at(row).bytes;
}
Variable LoweredVariable::variable() const { return Variable(report, _id()); }

bool LoweredVariables::present() const { return report->hasLoweredVariables; }

namespace {
void requireLowered(const ReportData &r) {
  if (!r.hasLoweredVariables)
    throw error("The profile '" + r.path + "' has no lowered variables (it was "
                "written without autoReport.outputLoweredVars)");
}
} // namespace

std::vector<LoweredVariable> LoweredVariables::all() const {
  requireLowered(*report);
  return detail::handles<LoweredVariable>(report, report->loweredVariables().size());
}

std::vector<LoweredVariable> LoweredVariables::forTile(unsigned tile) const {
  requireLowered(*report);
  if (tile >= report->target.numTiles)
    throw error("Tile " + std::to_string(tile) + " is not one of the " +
                std::to_string(report->target.numTiles) + " tiles of the profile '" +
                report->path + "'");
  const auto &rows = report->loweredVariables();
  // Rows are sorted by tile.
  auto first = std::lower_bound(rows.begin(), rows.end(), tile,
                                [](const detail::LoweredRow &r, unsigned t) { return r.tile < t; });
  std::vector<LoweredVariable> out;
  for (auto it = first; it != rows.end() && it->tile == tile; ++it)
    out.emplace_back(report, std::size_t(it - rows.begin()));
  return out;
}

// Liveness.

const std::string &ProgramStep::name() const {
  return report->livenessSteps.at(position).name;
}

std::shared_ptr<Program> ProgramStep::program() const {
  return detail::makeProgram(report, report->livenessSteps.at(position).program);
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemory() const {
  const auto &step = report->livenessSteps.at(position);
  std::vector<LivenessVariable> live;
  for (const auto &v : report->livenessVariables) {
    if (v.first > position)
      break; // sorted by first step
    if (v.last >= position)
      live.emplace_back(report->variables.at(v.variable).name, v.bytes);
  }
  static const char *buffers[3] = {"<message>", "<outputEdge>", "<rearrangement>"};
  for (unsigned k = 0; k != 3; ++k)
    if (step.buffers[k] != 0)
      live.emplace_back(buffers[k], step.buffers[k]);
  return NotAlwaysLiveMemory(step.bytes, std::move(live));
}

// Compilation.

std::vector<Tile> Compilation::tiles() const {
  return detail::handles<Tile>(report, report->target.numTiles);
}

std::vector<IPU> Compilation::ipus() const {
  return detail::handles<IPU>(report, report->target.numIpus);
}

std::vector<VertexType> Compilation::vertexTypes() const {
  return detail::handles<VertexType>(report, report->vertexTypes.size());
}

std::vector<ComputeSet> Compilation::computeSets() const {
  return detail::handles<ComputeSet>(report, report->computeSets.size());
}

std::vector<Variable> Compilation::variables() const {
  return detail::handles<Variable>(report, report->variables.size());
}

std::vector<std::shared_ptr<Program>> Compilation::programs() const {
  std::vector<std::size_t> ids(report->programs.size());
  for (std::size_t i = 0; i != ids.size(); ++i)
    ids[i] = i;
  return detail::programs(report, ids);
}

std::vector<std::shared_ptr<Program>> Compilation::controlPrograms() const {
  return detail::programs(report, report->controlPrograms);
}

std::vector<std::shared_ptr<Program>> Compilation::functionPrograms() const {
  return detail::programs(report, report->functionPrograms);
}

std::vector<ProgramStep> Compilation::livenessProgramSteps() const {
  return detail::handles<ProgramStep>(report, report->livenessSteps.size());
}

std::vector<LivenessVariable> Compilation::alwaysLiveVariables() const {
  std::vector<LivenessVariable> out;
  for (const auto &[name, bytes] : report->alwaysLive)
    out.emplace_back(name, bytes);
  return out;
}

std::map<std::string, double> Compilation::optimizationInfo() const {
  return report->optimizationInfo;
}

} // namespace pva
