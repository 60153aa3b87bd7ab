// Graph construction: variables, constants, initial values, clones,
// compute sets and functions.
#include "graph/GraphImpl.hpp"
#include "graph/TensorImpl.hpp"

#include "core/ElementConversion.hpp"
#include "core/Logging.hpp"
#include "core/TypeInfo.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <numeric>
#include <sstream>

namespace poplar {
namespace {

std::uint64_t nextGraphId() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

std::string shapeString(ArrayRef<std::size_t> shape) {
  std::ostringstream os;
  os << '{';
  for (std::size_t i = 0; i != shape.size(); ++i)
    os << (i ? "," : "") << shape[i];
  os << '}';
  return os.str();
}

std::size_t product(ArrayRef<std::size_t> shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

std::shared_ptr<const Graph::View> topLevelView(const Target &target) {
  auto view = std::make_shared<Graph::View>();
  view->target = target;
  view->tiles.resize(target.getNumTiles());
  std::iota(view->tiles.begin(), view->tiles.end(), 0u);
  view->topLevelToLocal = view->tiles;
  return view;
}

} // namespace

void Graph::Impl::checkOwnership(const Tensor &t, const std::string &what) const {
  if (!t.valid())
    throw poplar_error(what + ": the tensor is not valid (default-constructed)");
  // A view has the graph of all its variables (concat refuses a mix).
  if (t.getImpl().graphId != id)
    throw poplar_error(what + ": tensor '" + t.getDebugStr() +
                       "' belongs to a different graph");
}

bool Graph::Impl::hasStreamHandle(const std::string &handle) const {
  return std::any_of(streams.begin(), streams.end(),
                     [&](const auto &s) { return s->handle == handle; });
}

namespace {

// The target of one of `factor` replicas on `target`: its IPUs shared out
// evenly. A one-IPU target stands for as many IPUs as there are replicas
// (the IPU Model simulates each replica on its own IPU).
Target replicaTarget(const Target &target, unsigned factor) {
  if (factor == 0)
    throw poplar_error("Graph: the replication factor must be at least 1");
  if (factor == 1 || target.getNumIPUs() == 1)
    return target;
  if (target.getNumIPUs() % factor != 0)
    throw poplar_error("Graph: a replication factor of " +
                       std::to_string(factor) + " does not divide the " +
                       std::to_string(target.getNumIPUs()) +
                       " IPUs of the target");
  return target.createVirtualTarget(target.getNumIPUs() / factor,
                                    target.getTilesPerIPU());
}

} // namespace

Graph::Graph(const Target &target, replication_factor r)
    : impl(std::make_shared<Impl>()),
      view(topLevelView(replicaTarget(target, r.value))) {
  impl->id = nextGraphId();
  impl->target = view->target;
  impl->deviceTarget = target;
  impl->replicationFactor = r.value;
  logging::debug(logging::Module::Graph,
                 "Created graph {} for {} target ({} tiles, {} replicas)",
                 impl->id, toString(target.getTargetType()),
                 impl->target.getNumTiles(), r.value);
}

Graph::Graph(const Device &device, replication_factor r)
    : Graph(device.getTarget(), r) {}

Graph::Graph(std::shared_ptr<Impl> i, std::shared_ptr<const View> v)
    : impl(std::move(i)), view(std::move(v)) {}

Graph::Graph(Graph &&) noexcept = default;
Graph &Graph::operator=(Graph &&) noexcept = default;
Graph::~Graph() = default;

const Target &Graph::getTarget() const { return view->target; }
unsigned Graph::getReplicationFactor() const { return impl->replicationFactor; }

Graph Graph::createReplicatedGraph(unsigned replicationFactor) {
  const std::string what =
      "createReplicatedGraph(" + std::to_string(replicationFactor) + ")";
  if (impl->replicationFactor != 1)
    throw poplar_error(what + ": the graph is already replicated " +
                       std::to_string(impl->replicationFactor) + " times");
  if (view->tiles.size() != impl->target.getNumTiles())
    throw poplar_error(what + ": only a top-level graph can be replicated, "
                              "not a virtual graph");
  if (!impl->variables.empty() || !impl->computeSets.empty() ||
      !impl->streams.empty() || !impl->remoteBuffers.empty() ||
      !impl->functions.empty())
    throw poplar_error(what + ": the graph already holds variables, compute "
                              "sets, streams or functions; replicate it "
                              "before adding any (its replicas share one "
                              "compiled graph)");
  if (replicationFactor > 1 && impl->target.getNumIPUs() % replicationFactor)
    throw poplar_error(what + ": the factor does not divide the " +
                       std::to_string(impl->target.getNumIPUs()) +
                       " IPUs of the graph");
  const Target replica = replicaTarget(impl->target, replicationFactor);
  impl->replicationFactor = replicationFactor;
  impl->target = replica;
  return Graph(impl, topLevelView(replica));
}

Tensor Graph::getNonReplicatedTensor(const Tensor &t) const {
  throw poplar_error(
      "getNonReplicatedTensor('" + (t.valid() ? t.getDebugStr() : "") +
      "'): the replicas of a graph share one compiled graph here, so no "
      "graph holds every replica's copy; read and write each replica's data "
      "with Engine::readTensor/writeTensor or replicated streams");
}

Tensor Graph::addReplicationIndexConstant(const DebugContext &debugContext) {
  const std::uint32_t zero = 0;
  Tensor t = addConstantFromHost(UNSIGNED_INT, {}, UNSIGNED_INT, &zero, true,
                                 debugContext);
  impl->variables.back().isReplicationIndex = true;
  return t;
}

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape,
                          const DebugContext &debugContext) {
  const std::string &name = debugContext.getPathName();
  if (!isDeviceType(type))
    throw type_error("Cannot add variable '" + name + "' of type " +
                     type.toString().str() + ": the device has no such type");
  if (type == QUARTER)
    throw type_error("Cannot add variable '" + name +
                     "' of type quarter: it needs metadata this SDK does not "
                     "support");
  const std::size_t varId = impl->variables.size();
  VariableInfo info;
  info.name = name;
  info.type = type;
  info.shape = shape.vec();
  info.numElements = product(shape);
  info.whole =
      layout::makeVariable(impl->id, varId, type, info.shape, false, name);
  impl->variables.push_back(std::move(info));
  logging::trace(logging::Module::Graph, "Added variable '{}' {} {}", name,
                 type.toString().str(), shapeString(shape));
  return impl->variables.back().whole;
}

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape,
                          VariableMappingMethod mappingMethod,
                          const DebugContext &debugContext) {
  if (mappingMethod == VariableMappingMethod::LINEAR)
    return addLinearlyMappedVariable(type, shape, debugContext);
  return addVariable(type, shape, debugContext);
}

Tensor Graph::addLinearlyMappedVariable(const Type &type,
                                        ArrayRef<std::size_t> shape,
                                        const DebugContext &debugContext) {
  return addLinearlyMappedVariable(type, shape, 1, 1, debugContext);
}

Tensor Graph::addLinearlyMappedVariable(const Type &type,
                                        ArrayRef<std::size_t> shape,
                                        unsigned minElementsPerTile,
                                        unsigned grainSize,
                                        const DebugContext &debugContext) {
  Tensor t = addVariable(type, shape, debugContext);
  const std::size_t n = t.numElements();
  const std::size_t numTiles = view->tiles.size();
  const std::size_t grain = std::max(1u, grainSize);
  const std::size_t grains = (n + grain - 1) / grain;
  std::size_t grainsPerTile = (grains + numTiles - 1) / numTiles;
  const std::size_t minGrains =
      (std::max(1u, minElementsPerTile) + grain - 1) / grain;
  grainsPerTile = std::max(grainsPerTile, minGrains);
  Tensor flat = t.flatten();
  const std::size_t perTile = grainsPerTile * grain;
  for (std::size_t tile = 0, begin = 0; begin < n; ++tile, begin += perTile)
    setTileMapping(flat.slice(begin, std::min(n, begin + perTile)),
                   static_cast<unsigned>(tile));
  return t;
}

void Graph::checkConstantSize(const Type &type, ArrayRef<std::size_t> shape,
                              std::size_t numValues,
                              const DebugContext &debugContext) const {
  if (numValues != product(shape))
    throw tensor_creation_error(
        "Constant '" + debugContext.getPathName() + "' of shape " +
        shapeString(shape) + " needs " + std::to_string(product(shape)) +
        " values but " + std::to_string(numValues) + " were given");
}

Tensor Graph::addConstantFromHost(const Type &type, ArrayRef<std::size_t> shape,
                                  const Type &hostType, const void *values,
                                  bool broadcastScalar,
                                  const DebugContext &debugContext) {
  Tensor t = addVariable(type, shape, debugContext);
  VariableInfo &info = impl->variables.back();
  info.isConstant = true;
  info.whole = layout::makeVariable(impl->id, impl->variables.size() - 1, type,
                                    info.shape, true, info.name);
  const std::size_t size = typeSize(type);
  info.initialValue.resize(info.numElements * size);
  if (info.numElements != 0) {
    if (broadcastScalar) {
      convertElements(hostType, values, type, info.initialValue.data(), 1);
      for (std::size_t i = 1; i != info.numElements; ++i)
        std::copy_n(info.initialValue.data(), size,
                    info.initialValue.data() + i * size);
    } else {
      if (!values)
        throw tensor_creation_error("Constant '" + info.name +
                                    "': no values given (null pointer)");
      convertElements(hostType, values, type, info.initialValue.data(),
                      info.numElements);
    }
  }
  return info.whole;
}

Tensor Graph::addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                              std::uint16_t val,
                              const DebugContext &debugContext) {
  if (type != HALF)
    throw type_error("addConstantHalf('" + debugContext.getPathName() +
                     "'): the type must be half, not " + type.toString().str());
  return addConstantFromHost(HALF, shape, HALF, &val, true, debugContext);
}

Tensor Graph::addConstantHalf(const Type &type, ArrayRef<std::size_t> shape,
                              const std::uint16_t *values,
                              const DebugContext &debugContext) {
  if (type != HALF)
    throw type_error("addConstantHalf('" + debugContext.getPathName() +
                     "'): the type must be half, not " + type.toString().str());
  return addConstantFromHost(HALF, shape, HALF, values, false, debugContext);
}

void Graph::setInitialValueFromHost(const Tensor &t, const Type &hostType,
                                    const void *values, std::size_t numValues) {
  impl->checkOwnership(t, "setInitialValue");
  if (numValues != t.numElements())
    throw poplar_error("setInitialValue: tensor '" + t.getDebugStr() +
                       "' has " + std::to_string(t.numElements()) +
                       " elements but " + std::to_string(numValues) +
                       " values were given");
  if (t.containsConstant())
    throw poplar_error("setInitialValue: tensor '" + t.getDebugStr() +
                       "' is a constant");
  const std::size_t size = typeSize(t.elementType());
  const auto *in = static_cast<const unsigned char *>(values);
  const std::size_t hostSize = typeSize(hostType);
  for (const auto &run : layout::flatRuns(t)) {
    VariableInfo &info = impl->variables[run.var];
    if (info.initialValue.empty())
      info.initialValue.assign(info.numElements * size, 0);
    for (std::size_t i = 0; i != run.length; ++i) {
      const std::int64_t element = run.start + run.stride * std::int64_t(i);
      convertElements(hostType, in + (run.begin + i) * hostSize, info.type,
                      info.initialValue.data() + element * size, 1);
    }
  }
}

void Graph::setInitialValueHalf(const Tensor &t, ArrayRef<std::uint16_t> values) {
  if (t.valid() && t.elementType() != HALF)
    throw type_error("setInitialValueHalf: tensor '" + t.getDebugStr() +
                     "' is not of type half");
  setInitialValueFromHost(t, HALF, values.data(), values.size());
}

Tensor Graph::getVariable(VariableRef v) const {
  if (v.getId() >= impl->variables.size())
    throw index_error("getVariable: no variable with id " +
                      std::to_string(v.getId()));
  return impl->variables[v.getId()].whole;
}

bool Graph::isConstant(VariableRef v) const {
  return getVariable(v).containsConstant();
}

Function Graph::addFunction(const program::Program &program) {
  impl->functions.push_back(program);
  return Function(static_cast<unsigned>(impl->functions.size() - 1));
}

} // namespace poplar
