// Sessions: the IR is prepared from the model, lowered into a poplar graph
// with three programs (weights from host; the step: batchesPerStep
// repeats of inputs in, ops, anchors out; weights to host), compiled into
// an Engine, and
// run with the user's IStepIO connected to the streams by callbacks.
#include "ir/Ir.hpp"
#include "lowering/Lowering.hpp"
#include "ops/PoplibsOptions.hpp"
#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/session.hpp>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>

namespace popart {

class SessionImpl {
public:
  Ir ir;
  std::shared_ptr<DeviceInfo> device;
  DataFlow dataFlow;
  SessionOptions options;
  std::unique_ptr<poplar::Graph> graph;
  std::unique_ptr<poplar::Engine> engine;
  std::map<TensorId, int64_t> inputElements; // per batch
  std::map<TensorId, int64_t> anchorElements; // per fetch
  std::exception_ptr callbackError;
  IStepIO *stepio = nullptr;
  bool prepared = false;
  // Simulated cycles of the last run, kept when
  // SessionOptions::instrumentWithHardwareCycleCounter is set.
  uint64_t lastRunCycles = 0;
  enum Program { WeightsFromHost = 0, Step = 1, WeightsToHost = 2 };

  void lower();
  void connectStreams();
};

namespace {

// Host data of a tensor converted to its device type.
std::vector<char> toDevice(const std::vector<char> &data, DataType type) {
  if (type != DataType::INT64 && type != DataType::DOUBLE &&
      type != DataType::UINT64)
    return data;
  std::vector<char> out(data.size() / 2);
  const std::size_t n = data.size() / 8;
  for (std::size_t i = 0; i < n; ++i) {
    if (type == DataType::DOUBLE) {
      double d;
      std::memcpy(&d, data.data() + 8 * i, 8);
      float f = static_cast<float>(d);
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      int64_t v;
      std::memcpy(&v, data.data() + 8 * i, 8);
      int32_t w = static_cast<int32_t>(v);
      std::memcpy(out.data() + 4 * i, &w, 4);
    }
  }
  return out;
}

void fromDevice(const void *src, void *dst, int64_t n, DataType type) {
  if (type == DataType::INT64 || type == DataType::UINT64) {
    for (int64_t i = 0; i < n; ++i) {
      int32_t w;
      std::memcpy(&w, static_cast<const char *>(src) + 4 * i, 4);
      int64_t v = w;
      std::memcpy(static_cast<char *>(dst) + 8 * i, &v, 8);
    }
  } else if (type == DataType::DOUBLE) {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, static_cast<const char *>(src) + 4 * i, 4);
      double d = f;
      std::memcpy(static_cast<char *>(dst) + 8 * i, &d, 8);
    }
  } else {
    std::memcpy(dst, src, n * getDataTypeInfo(type).nbytes());
  }
}

std::vector<std::size_t> dims(const Shape &s) {
  return std::vector<std::size_t>(s.begin(), s.end());
}

template <typename T>
poplar::Tensor addConstant(poplar::Graph &graph, const Tensor &t,
                           const poplar::Type &type, const std::vector<char> &data) {
  return graph.addConstant(type, dims(t.info.shape()),
                           reinterpret_cast<const T *>(data.data()), t.id);
}

// The graph does not fit in the device's tile memory.
class OutOfMemoryError : public memory_allocation_err {
public:
  OutOfMemoryError(const std::string &what, std::string summary,
                   std::string profilePath)
      : memory_allocation_err(
            logging::format("Out of memory compiling the graph: {}", what)),
        summary(std::move(summary)), profilePath(std::move(profilePath)) {}
  std::unique_ptr<memory_allocation_err> clone() const override {
    return std::make_unique<OutOfMemoryError>(*this);
  }
  std::string getSummaryReport() const override { return summary; }
  std::string getProfilePath() const override { return profilePath; }

private:
  std::string summary, profilePath;
};

} // namespace

void SessionImpl::lower() {
  graph = std::make_unique<poplar::Graph>(device->getTarget());
  popops::addCodelets(*graph);
  poplin::addCodelets(*graph);
  popnn::addCodelets(*graph);
  // SessionOptions::partialsTypeMatMuls is the default of every matmul's
  // partialsType; a node's own setPartialsType overrides it.
  auto matmulOptions = options.matmulOptions;
  if (!options.partialsTypeMatMuls.empty())
    matmulOptions["partialsType"] = partialsTypeOption(
        options.partialsTypeMatMuls, "SessionOptions::partialsTypeMatMuls");
  LoweringContext ctx(*graph, matmulOptions, options.convolutionOptions);
  poplar::program::Sequence weights, toHost, body, before, after;
  Graph &g = ir.getMainGraph();

  for (const auto &p : g.getTensors()) {
    const Tensor &t = *p.second;
    if (t.producer)
      continue;
    const poplar::Type type = deviceType(t.info.dataType());
    if (t.type == TensorType::Const) {
      std::vector<char> data = toDevice(t.data, t.info.dataType());
      poplar::Tensor c;
      if (type == poplar::HALF)
        c = graph->addConstantHalf(type, dims(t.info.shape()),
                                   reinterpret_cast<const uint16_t *>(data.data()), t.id);
      else if (type == poplar::FLOAT)
        c = addConstant<float>(*graph, t, type, data);
      else if (type == poplar::INT)
        c = addConstant<int>(*graph, t, type, data);
      else if (type == poplar::UNSIGNED_INT)
        c = addConstant<unsigned>(*graph, t, type, data);
      else if (type == poplar::BOOL)
        c = addConstant<bool>(*graph, t, type, data);
      else if (type == poplar::SIGNED_CHAR)
        c = addConstant<signed char>(*graph, t, type, data);
      else if (type == poplar::UNSIGNED_CHAR)
        c = addConstant<unsigned char>(*graph, t, type, data);
      else if (type == poplar::SHORT)
        c = addConstant<short>(*graph, t, type, data);
      else if (type == poplar::UNSIGNED_SHORT)
        c = addConstant<unsigned short>(*graph, t, type, data);
      else
        throw error("Constant '{}' of type {} is not supported on the device",
                    t.id, t.info.data_type());
      poputil::mapTensorLinearly(*graph, c);
      ctx.set(t, c);
    } else if (t.type == TensorType::Stream || t.type == TensorType::Variable) {
      poplar::Tensor v = graph->addVariable(type, dims(t.info.shape()), t.id);
      poputil::mapTensorLinearly(*graph, v);
      auto stream = graph->addHostToDeviceFIFO(t.id, type, t.info.nelms());
      (t.type == TensorType::Stream ? body : weights)
          .add(poplar::program::Copy(stream, v));
      if (t.type == TensorType::Stream)
        inputElements[t.id] = t.info.nelms();
      else
        toHost.add(poplar::program::Copy(
            v, graph->addDeviceToHostFIFO(t.id + "/toHost", type, t.info.nelms())));
      ctx.set(t, v);
    }
  }

  auto &registry = LoweringRegistry::instance();
  for (const Op *op : ir.getSchedule()) {
    logging::devicex::debug("Lowering {}", op->str());
    registry.get(*op)(*op, ctx, body);
  }

  // Anchors: ALL every batch, EVERYN every N-th batch (a counter), FINAL
  // after the last batch, SUM a running sum copied after the last batch.
  poplar::Tensor counter;
  if (dataFlow.isBatchCountingRequired()) {
    counter = graph->addVariable(poplar::INT, {}, "batchCounter");
    graph->setTileMapping(counter, 0);
    popops::zero(*graph, counter, before, "batchCounter");
    popops::mapInPlace(*graph, popops::expr::_1 + popops::expr::Const(1),
                       {counter}, body, "batchCounter");
  }
  for (const auto &id : dataFlow.anchors()) {
    const Tensor &t = g.getTensor(id);
    poplar::Tensor value = ctx.get(t);
    auto stream = graph->addDeviceToHostFIFO(id, value.elementType(), t.info.nelms());
    anchorElements[id] = t.info.nelms();
    const auto art = dataFlow.art(id);
    switch (art.id()) {
    case AnchorReturnTypeId::All:
      body.add(poplar::program::Copy(value, stream));
      break;
    case AnchorReturnTypeId::Final:
      after.add(poplar::program::Copy(value, stream));
      break;
    case AnchorReturnTypeId::EveryN: {
      poplar::program::Sequence check;
      poplar::Tensor due = popops::map(
          *graph,
          popops::expr::Equal(popops::expr::Rem(popops::expr::_1,
                                                popops::expr::Const(art.rp())),
                              popops::expr::Const(0)),
          {counter}, check, id + "/everyN");
      body.add(check);
      body.add(poplar::program::If(due, poplar::program::Copy(value, stream)));
      break;
    }
    case AnchorReturnTypeId::Sum: {
      poplar::Tensor sum = graph->clone(value, id + "/sum");
      popops::zero(*graph, sum, before, id + "/sum");
      popops::addInPlace(*graph, sum, value, body, id + "/sum");
      after.add(poplar::program::Copy(sum, stream));
      break;
    }
    }
  }
  poplar::program::Sequence step;
  step.add(before);
  step.add(poplar::program::Repeat(static_cast<unsigned>(dataFlow.batchesPerStep()), body));
  step.add(after);

  poplar::OptionFlags engineOptions;
  for (const auto &o : options.engineOptions)
    engineOptions.set(o.first, o.second);
  logging::devicex::info("Compiling the poplar graph");
  try {
    engine = std::make_unique<poplar::Engine>(
        *graph, std::vector<poplar::program::Program>{weights, step, toHost},
        engineOptions);
  } catch (const poplar::graph_memory_allocation_error &e) {
    // As the original: the memory error with the graph's profile summary.
    std::ostringstream summary;
    poplar::printProfileSummary(summary, e.graphProfile);
    auto dir = options.engineOptions.find("autoReport.directory");
    throw OutOfMemoryError(e.what(), summary.str(),
                           dir == options.engineOptions.end() ? "" : dir->second);
  }
}

void SessionImpl::connectStreams() {
  Graph &g = ir.getMainGraph();
  for (const auto &in : inputElements) {
    const TensorId id = in.first;
    const int64_t n = in.second;
    const DataType type = g.getTensor(id).info.dataType();
    engine->connectStreamToCallback(id, [this, id, n, type](void *p) {
      try {
        ConstVoidData data = stepio->in(id, n, false);
        if (data.info.nelms() != n)
          throw error("The data given for input '{}' has {} elements, not the "
                      "{} of one batch",
                      id, data.info.nelms(), n);
        if (data.info.dataType() != type)
          throw error("The data given for input '{}' is {}, not {}", id,
                      data.info.data_type(), getDataTypeInfo(type).name());
        std::vector<char> bytes(static_cast<const char *>(data.data),
                                static_cast<const char *>(data.data) +
                                    n * getDataTypeInfo(type).nbytes());
        bytes = toDevice(bytes, type);
        std::memcpy(p, bytes.data(), bytes.size());
        stepio->inComplete(id, n);
      } catch (...) {
        if (!callbackError)
          callbackError = std::current_exception();
      }
    });
  }
  for (const auto &a : anchorElements) {
    const TensorId id = a.first;
    const int64_t n = a.second;
    const DataType type = g.getTensor(id).info.dataType();
    engine->connectStreamToCallback(id, [this, id, n, type](void *p) {
      try {
        MutableVoidData data = stepio->out(id, n);
        if (data.info.dataType() != type)
          throw error("The output array of anchor '{}' is {}, not {}", id,
                      data.info.data_type(), getDataTypeInfo(type).name());
        fromDevice(p, data.data, n, type);
        stepio->outComplete(id);
      } catch (...) {
        if (!callbackError)
          callbackError = std::current_exception();
      }
    });
  }
}

Session::Session() : impl(std::make_unique<SessionImpl>()) {}
Session::~Session() = default;
InferenceSession::InferenceSession() = default;
InferenceSession::~InferenceSession() = default;

std::unique_ptr<InferenceSession> InferenceSession::createFromOnnxModel(
    const std::string &model, const DataFlow &dataFlow,
    std::shared_ptr<DeviceInfo> deviceInfo, const InputShapeInfo &inputShapeInfo,
    const SessionOptions &userOptions, const Patterns &patterns,
    const std::string name) {
  if (!deviceInfo)
    throw error("InferenceSession '{}': no device given", name);
  std::unique_ptr<InferenceSession> s(new InferenceSession());
  s->impl->device = deviceInfo;
  s->impl->dataFlow = dataFlow;
  s->impl->options = userOptions;
  logging::session::info("Creating InferenceSession '{}' on {}", name,
                         deviceInfo->toString());
  if (userOptions.enablePipelining)
    throw error("InferenceSession '{}': pipelining is not supported",
                name);
  if (userOptions.virtualGraphMode == VirtualGraphMode::Auto ||
      userOptions.virtualGraphMode == VirtualGraphMode::ExecutionPhases)
    throw error("InferenceSession '{}': only the Off and Manual virtual graph "
                "modes are supported",
                name);
  s->impl->ir.prepare(onnxutil::getModelProto(model), inputShapeInfo, dataFlow,
                      userOptions, patterns);
  // Manual placement: each op's virtual graph must be an IPU of the device
  // (the ops then share one graph over all of the device's tiles).
  if (userOptions.virtualGraphMode == VirtualGraphMode::Manual)
    for (const Op *op : s->impl->ir.getSchedule()) {
      if (op->settings.vgraphId == unusedVGraphId)
        throw error("{} has no virtual graph, which the Manual virtual graph "
                    "mode needs (Builder::virtualGraph)",
                    op->str());
      if (op->settings.vgraphId < 0 || op->settings.vgraphId >= deviceInfo->getNumIpus())
        throw error("{} is on virtual graph {}, but the device has {} IPUs",
                    op->str(), op->settings.vgraphId, deviceInfo->getNumIpus());
    }
  // Every op must have a lowering and every tensor a device type:
  // unsupported models fail here, not later.
  for (const Op *op : s->impl->ir.getSchedule())
    LoweringRegistry::instance().get(*op);
  for (const auto &t : s->impl->ir.getMainGraph().getTensors()) {
    try {
      deviceType(t.second->info.dataType());
    } catch (const error &e) {
      throw error("Tensor '{}': {}", t.first, e.what());
    }
  }
  return s;
}

void Session::prepareDevice(bool loadEngine) {
  impl->lower();
  impl->prepared = true;
  if (loadEngine)
    loadEngineAndConnectStreams();
}

void Session::loadEngineAndConnectStreams() {
  if (!impl->engine)
    throw error("prepareDevice must be called before the engine is loaded");
  impl->engine->load(impl->device->getDevice());
  impl->connectStreams();
}

void Session::weightsFromHost() {
  if (!impl->prepared)
    throw error("weightsFromHost: call prepareDevice first");
  for (const auto &p : impl->ir.getMainGraph().getTensors())
    if (p.second->type == TensorType::Variable) {
      auto data = std::make_shared<std::vector<char>>(
          toDevice(p.second->data, p.second->info.dataType()));
      impl->engine->connectStreamToCallback(
          p.first, [data](void *dst) { std::memcpy(dst, data->data(), data->size()); });
    }
  impl->engine->run(SessionImpl::WeightsFromHost);
}

void Session::weightsToHost() {
  if (!impl->prepared)
    throw error("weightsToHost: call prepareDevice first");
  for (const auto &p : impl->ir.getMainGraph().getTensors()) {
    Tensor *t = p.second.get();
    if (t->type == TensorType::Variable)
      impl->engine->connectStreamToCallback(p.first + "/toHost", [t](void *src) {
        fromDevice(src, t->data.data(), t->info.nelms(), t->info.dataType());
      });
  }
  impl->engine->run(SessionImpl::WeightsToHost);
}

void Session::run(IStepIO &stepio, std::string debugName) {
  if (!impl->prepared)
    throw error("Session::run: call prepareDevice first");
  const int bps = impl->dataFlow.batchesPerStep();
  std::map<TensorId, int64_t> ins, outs;
  for (const auto &i : impl->inputElements)
    ins[i.first] = i.second * bps;
  for (const auto &a : impl->anchorElements)
    outs[a.first] = a.second * impl->dataFlow.numOutFetchesPerRepl(impl->options, a.first);
  if (stepio.runtimeAssertsEnabled())
    stepio.assertNumElements(ins, outs);
  impl->stepio = &stepio;
  impl->callbackError = nullptr;
  logging::session::debug("Running a step of {} batches", bps);
  const bool countCycles = impl->options.instrumentWithHardwareCycleCounter &&
                           impl->device->getType() != DeviceType::Cpu;
  const auto cyclesSoFar = [&] {
    return impl->engine->getExecutionProfile()["simulation"]["cycles"].asUint();
  };
  const uint64_t cyclesBefore = countCycles ? cyclesSoFar() : 0;
  impl->engine->run(SessionImpl::Step, debugName);
  if (countCycles)
    impl->lastRunCycles = cyclesSoFar() - cyclesBefore;
  impl->stepio = nullptr;
  if (impl->callbackError)
    std::rethrow_exception(impl->callbackError);
}

void Session::modelToHost(const std::string &fn) {
  // The model with each initializer's data from the host copy (which
  // weightsToHost brings up to date).
  onnx::ModelProto model = impl->ir.getModel();
  const Graph &g = impl->ir.getMainGraph();
  for (auto &init : *model.mutable_graph()->mutable_initializer())
    if (g.hasTensor(init.name())) {
      const Tensor &t = g.getTensor(init.name());
      if (t.type == TensorType::Variable || t.type == TensorType::Const)
        onnxutil::setTensorData(init, t.info, t.data.data());
    }
  std::ofstream out(fn, std::ios::binary);
  if (!out || !model.SerializeToOstream(&out))
    throw error("modelToHost: cannot write '{}'", fn);
}

TensorInfo Session::getInfo(TensorId id) const {
  return impl->ir.getMainGraph().getTensor(id).info;
}
bool Session::hasInfo(TensorId id) const {
  return impl->ir.getMainGraph().hasTensor(id);
}
std::vector<TensorId> Session::getAllTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &p : impl->ir.getMainGraph().getTensors())
    ids.push_back(p.first);
  return ids;
}

std::string Session::getSummaryReport(bool resetProfile) const {
  if (!impl->engine)
    throw error("getSummaryReport: the session has no engine (call "
                "prepareDevice)");
  std::ostringstream out;
  poplar::OptionFlags reportOptions; // SessionOptions::reportOptions
  for (const auto &o : impl->options.reportOptions)
    reportOptions.set(o.first, o.second);
  impl->engine->printProfileSummary(out, reportOptions);
  if (resetProfile)
    impl->engine->resetExecutionProfile();
  return out.str();
}

uint64_t Session::getCycleCount(std::string id) const {
  if (!id.empty())
    throw error("getCycleCount: there is one cycle counter (the whole step), "
                "not '{}'",
                id);
  if (!impl->options.instrumentWithHardwareCycleCounter)
    throw error("getCycleCount: SessionOptions::"
                "instrumentWithHardwareCycleCounter is not set");
  if (impl->device->getType() == DeviceType::Cpu)
    throw error("getCycleCount: the CPU device counts no cycles");
  return impl->lastRunCycles;
}

std::string Session::getGraphReport(bool useCbor) const {
  if (!impl->engine)
    throw error("getGraphReport: call prepareDevice first");
  std::ostringstream out;
  if (useCbor)
    poplar::serializeToCBOR(out, impl->engine->getGraphProfile());
  else
    poplar::serializeToJSON(out, impl->engine->getGraphProfile());
  return out.str();
}

std::string Session::getExecutionReport(bool useCbor, bool resetProfile) const {
  if (!impl->engine)
    throw error("getExecutionReport: call prepareDevice first");
  std::ostringstream out;
  if (useCbor)
    poplar::serializeToCBOR(out, impl->engine->getExecutionProfile());
  else
    poplar::serializeToJSON(out, impl->engine->getExecutionProfile());
  if (resetProfile)
    impl->engine->resetExecutionProfile();
  return out.str();
}

std::string Session::serializeIr(IrSerializationFormat) const {
  return impl->ir.serialise();
}


std::shared_ptr<DeviceInfo> Session::getDevice() const { return impl->device; }
const DataFlow &Session::getDataFlow() const { return impl->dataFlow; }
const SessionOptions &Session::getSessionOptions() const { return impl->options; }

} // namespace popart
