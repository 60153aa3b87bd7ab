// pva_core: libpva as the Python module of the package pva. Every method
// without arguments is a property, as in the original module
// (`report.compilation.target.numTiles`); methods with arguments stay
// methods (`loweredVariables.forTile(3)`).
#include "PvaModule.hpp"

#include <pybind11/stl.h>

namespace pva {
namespace python {

namespace {

using CategoryAccessor = MemoryCategory (MemoryCategories::*)() const;

const std::vector<std::pair<const char *, CategoryAccessor>> &memoryCategoryAccessors() {
  using C = MemoryCategories;
  static const std::vector<std::pair<const char *, CategoryAccessor>> accessors = {
      {"variable", &C::variable},
      {"constant", &C::constant},
      {"message", &C::message},
      {"outputEdge", &C::outputEdge},
      {"rearrangement", &C::rearrangement},
      {"stack", &C::stack},
      {"vertexInstanceState", &C::vertexInstanceState},
      {"vertexFieldData", &C::vertexFieldData},
      {"vectorListDescriptor", &C::vectorListDescriptor},
      {"copyDescriptor", &C::copyDescriptor},
      {"vertexCode", &C::vertexCode},
      {"controlCode", &C::controlCode},
      {"internalExchangeCode", &C::internalExchangeCode},
      {"hostExchangeCode", &C::hostExchangeCode},
      {"globalExchangeCode", &C::globalExchangeCode}};
  return accessors;
}

void bindMemory(py::module_ &m) {
  py::class_<MemorySize>(m, "MemorySize")
      .def_property_readonly("includingGaps", &MemorySize::includingGaps)
      .def_property_readonly("excludingGaps", &MemorySize::excludingGaps);
  py::class_<MemoryCategoryRegion>(m, "MemoryCategoryRegion")
      .def_property_readonly("nonOverlapped", &MemoryCategoryRegion::nonOverlapped)
      .def_property_readonly("overlapped", &MemoryCategoryRegion::overlapped)
      .def_property_readonly("total", &MemoryCategoryRegion::total);
  py::class_<MemoryCategory>(m, "MemoryCategory")
      .def_property_readonly("nonInterleaved", &MemoryCategory::nonInterleaved)
      .def_property_readonly("interleaved", &MemoryCategory::interleaved)
      .def_property_readonly("overflowed", &MemoryCategory::overflowed)
      .def_property_readonly("total", &MemoryCategory::total);
  py::class_<MemoryCategories> categories(m, "MemoryCategories");
  categories.def("byName", &MemoryCategories::byName, py::arg("name"))
      .def_property_readonly("names", &MemoryCategories::names);
  // One property per category of the IPU Model, from the accessor table.
  for (const auto &[name, accessor] : memoryCategoryAccessors())
    categories.def_property_readonly(name, accessor);
  py::class_<VertexMemory>(m, "VertexMemory")
      .def_property_readonly("type", &VertexMemory::type)
      .def_property_readonly("codeBytes", &VertexMemory::codeBytes)
      .def_property_readonly("copyPointerBytes", &VertexMemory::copyPointerBytes)
      .def_property_readonly("descriptorBytes", &VertexMemory::descriptorBytes)
      .def_property_readonly("edgePointerBytes", &VertexMemory::edgePointerBytes)
      .def_property_readonly("paddingBytes", &VertexMemory::paddingBytes)
      .def_property_readonly("vertexDataBytes", &VertexMemory::vertexDataBytes);
  py::class_<TileMemory>(m, "TileMemory")
      .def_property_readonly("total", &TileMemory::total)
      .def_property_readonly("nonInterleaved", &TileMemory::nonInterleaved)
      .def_property_readonly("interleaved", &TileMemory::interleaved)
      .def_property_readonly("overflowed", &TileMemory::overflowed)
      .def_property_readonly("category", &TileMemory::category)
      .def_property_readonly("alwaysLiveBytes", &TileMemory::alwaysLiveBytes)
      .def_property_readonly("notAlwaysLiveBytes", &TileMemory::notAlwaysLiveBytes)
      .def_property_readonly("vertices", &TileMemory::vertices);
}

void bindTarget(py::module_ &m) {
  py::class_<Tile>(m, "Tile")
      .def_property_readonly("number", &Tile::number)
      .def_property_readonly("ipu", &Tile::ipu)
      .def_property_readonly("memory", &Tile::memory);
  py::class_<IPU> ipu(m, "IPU");
  py::enum_<IPU::Architecture>(ipu, "Architecture")
      .value("Ipu1", IPU::Architecture::Ipu1)
      .value("Ipu2", IPU::Architecture::Ipu2)
      .value("Ipu21", IPU::Architecture::Ipu21)
      .value("Unknown", IPU::Architecture::Unknown);
  ipu.def_property_readonly("id", &IPU::id).def_property_readonly("tiles", &IPU::tiles);
  py::class_<Target> target(m, "Target");
  py::enum_<Target::Type>(target, "Type")
      .value("Cpu", Target::Type::Cpu)
      .value("IpuModel", Target::Type::IpuModel)
      .value("Ipu", Target::Type::Ipu)
      .value("Unknown", Target::Type::Unknown);
  target.def_property_readonly("type", &Target::type)
      .def_property_readonly("architecture", &Target::architecture)
      .def_property_readonly("numIPUs", &Target::numIPUs)
      .def_property_readonly("tilesPerIpu", &Target::tilesPerIpu)
      .def_property_readonly("numTiles", &Target::numTiles)
      .def_property_readonly("numReplicas", &Target::numReplicas)
      .def_property_readonly("ipusPerReplica", &Target::ipusPerReplica)
      .def_property_readonly("tilesPerReplica", &Target::tilesPerReplica)
      .def_property_readonly("bytesPerTile", &Target::bytesPerTile)
      .def_property_readonly("bytesPerIPU", &Target::bytesPerIPU)
      .def_property_readonly("totalMemory", &Target::totalMemory)
      .def_property_readonly("memoryPerReplica", &Target::memoryPerReplica)
      .def_property_readonly("clockFrequency", &Target::clockFrequency)
      .def_property_readonly("numWorkerContexts", &Target::numWorkerContexts);
  py::class_<Graph>(m, "Graph")
      .def_property_readonly("numVertices", &Graph::numVertices)
      .def_property_readonly("numEdges", &Graph::numEdges)
      .def_property_readonly("numVariables", &Graph::numVariables)
      .def_property_readonly("numComputeSets", &Graph::numComputeSets);
}

void bindGraphElements(py::module_ &m) {
  py::class_<VertexType>(m, "VertexType")
      .def_property_readonly("name", &VertexType::name)
      .def_property_readonly("size", &VertexType::size)
      .def_property_readonly("_id", &VertexType::_id);
  py::class_<VertexInstances>(m, "VertexInstances")
      .def_property_readonly("type", &VertexInstances::type)
      .def_property_readonly("count", &VertexInstances::count);
  py::class_<ComputeSet>(m, "ComputeSet")
      .def_property_readonly("_id", &ComputeSet::_id)
      .def_property_readonly("name", &ComputeSet::name)
      .def_property_readonly("numVertices", &ComputeSet::numVertices)
      .def_property_readonly("vertices", &ComputeSet::vertices)
      .def_property_readonly("cyclesByTile", &ComputeSet::cyclesByTile)
      .def_property_readonly("estimatedCyclesByTile", &ComputeSet::estimatedCyclesByTile)
      .def_property_readonly("activeCyclesByTile", &ComputeSet::activeCyclesByTile)
      .def_property_readonly("cycles", &ComputeSet::cycles);
  py::class_<Variable>(m, "Variable")
      .def_property_readonly("_id", &Variable::_id)
      .def_property_readonly("name", &Variable::name)
      .def_property_readonly("type", &Variable::type)
      .def_property_readonly("numElements", &Variable::numElements)
      .def_property_readonly("elementBytes", &Variable::elementBytes)
      .def_property_readonly("bytes", &Variable::bytes)
      .def_property_readonly("isConstant", &Variable::isConstant);
  py::class_<LoweredVariable>(m, "LoweredVariable")
      .def_property_readonly("_id", &LoweredVariable::_id)
      .def_property_readonly("name", &LoweredVariable::name)
      .def_property_readonly("tile", &LoweredVariable::tile)
      .def_property_readonly("address", &LoweredVariable::address)
      .def_property_readonly("bytes", &LoweredVariable::bytes)
      .def_property_readonly("variable", &LoweredVariable::variable);
  py::class_<LoweredVariables>(m, "LoweredVariables")
      .def_property_readonly("present", &LoweredVariables::present)
      .def_property_readonly("all", &LoweredVariables::all)
      .def("forTile", &LoweredVariables::forTile, py::arg("tile"));
  py::class_<LivenessVariable>(m, "LivenessVariable")
      .def_property_readonly("name", &LivenessVariable::name)
      .def_property_readonly("size", &LivenessVariable::size);
  py::class_<NotAlwaysLiveMemory>(m, "NotAlwaysLiveMemory")
      .def_property_readonly("bytes", &NotAlwaysLiveMemory::bytes)
      .def_property_readonly("variables", &NotAlwaysLiveMemory::variables);
  py::class_<ProgramStep>(m, "ProgramStep")
      .def_property_readonly("name", &ProgramStep::name)
      .def_property_readonly("program", &ProgramStep::program)
      .def_property_readonly("notAlwaysLiveMemory", &ProgramStep::notAlwaysLiveMemory);
}

void bindExecution(py::module_ &m) {
  py::class_<CycleStats>(m, "CycleStats")
      .def_property_readonly("min", &CycleStats::min)
      .def_property_readonly("max", &CycleStats::max)
      .def_property_readonly("mean", &CycleStats::mean);
  py::class_<CycleInterval>(m, "CycleInterval")
      .def_property_readonly("cyclesFrom", &CycleInterval::cyclesFrom)
      .def_property_readonly("cyclesTo", &CycleInterval::cyclesTo);
  py::class_<ExecutionStepIpu>(m, "ExecutionStepIpu")
      .def_property_readonly("cycles", &ExecutionStepIpu::cycles)
      .def_property_readonly("activeCycles", &ExecutionStepIpu::activeCycles)
      .def_property_readonly("tileBalance", &ExecutionStepIpu::tileBalance)
      .def_property_readonly("activeTileBalance", &ExecutionStepIpu::activeTileBalance);
  py::class_<ExecutionStep>(m, "ExecutionStep")
      .def_property_readonly("program", &ExecutionStep::program)
      .def_property_readonly("cycles", &ExecutionStep::cycles)
      .def_property_readonly("startCycle", &ExecutionStep::startCycle)
      .def_property_readonly("cyclesByTile", &ExecutionStep::cyclesByTile)
      .def_property_readonly("ipus", &ExecutionStep::ipus)
      .def_property_readonly("computeSets", &ExecutionStep::computeSets);
  py::class_<TimeInterval>(m, "TimeInterval")
      .def_property_readonly("start", &TimeInterval::start)
      .def_property_readonly("end", &TimeInterval::end);
  py::class_<Run>(m, "Run")
      .def_property_readonly("_id", &Run::_id)
      .def_property_readonly("name", &Run::name)
      .def_property_readonly("program", &Run::program)
      .def_property_readonly("programIndex", &Run::programIndex)
      .def_property_readonly("cycles", &Run::cycles)
      .def_property_readonly("startCycle", &Run::startCycle)
      .def_property_readonly("microseconds", &Run::microseconds)
      .def_property_readonly("steps", &Run::steps)
      .def_property_readonly("stepsTruncated", &Run::stepsTruncated);
  py::class_<Execution>(m, "Execution")
      .def_property_readonly("runs", &Execution::runs)
      .def_property_readonly("steps", &Execution::steps)
      .def_property_readonly("runsTotal", &Execution::runsTotal)
      .def_property_readonly("cyclesByTile", &Execution::cyclesByTile);
}

void bindReport(py::module_ &m) {
  py::class_<Version>(m, "Version")
      .def_property_readonly("major", &Version::major)
      .def_property_readonly("minor", &Version::minor)
      .def_property_readonly("point", &Version::point)
      .def_property_readonly("string", &Version::string)
      .def("__repr__", &Version::string);
  py::class_<Compilation>(m, "Compilation")
      .def_property_readonly("target", &Compilation::target)
      .def_property_readonly("graph", &Compilation::graph)
      .def_property_readonly("tiles", &Compilation::tiles)
      .def_property_readonly("ipus", &Compilation::ipus)
      .def_property_readonly("vertexTypes", &Compilation::vertexTypes)
      .def_property_readonly("computeSets", &Compilation::computeSets)
      .def_property_readonly("variables", &Compilation::variables)
      .def_property_readonly("programs", &Compilation::programs)
      .def_property_readonly("controlPrograms", &Compilation::controlPrograms)
      .def_property_readonly("functionPrograms", &Compilation::functionPrograms)
      .def_property_readonly("livenessProgramSteps", &Compilation::livenessProgramSteps)
      .def_property_readonly("alwaysLiveVariables", &Compilation::alwaysLiveVariables)
      .def_property_readonly("loweredVariables", &Compilation::loweredVariables)
      .def_property_readonly("optimizationInfo", &Compilation::optimizationInfo);
  py::class_<Report>(m, "Report")
      .def_property_readonly("compilation", &Report::compilation)
      .def_property_readonly("execution", &Report::execution)
      .def_property_readonly("poplarVersion", &Report::poplarVersion)
      .def_property_readonly("version", &Report::version)
      .def_property_readonly("engineName", &Report::engineName)
      .def_property_readonly("complete", &Report::complete)
      .def_property_readonly("path", &Report::path);
  m.def("openReport", &openReport, py::arg("profilePath"), py::arg("debugPath") = "");
}

} // namespace

} // namespace python
} // namespace pva

PYBIND11_MODULE(pva_core, m) {
  using namespace pva::python;
  m.doc() = "libpva: the reports (profile.pop) of the Poplar Engine";
  py::register_exception<pva::error>(m, "pva_exception", PyExc_RuntimeError);
  bindMemory(m);
  bindTarget(m);
  bindGraphElements(m);
  bindPrograms(m);
  bindExecution(m);
  bindReport(m);
}
