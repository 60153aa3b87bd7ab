// Sessions: the IR is prepared from the model (and, for training, the
// loss and optimiser), lowered into a poplar graph and its programs
// (lowering/IrLowering.hpp), compiled into an Engine, and run with the
// user's IStepIO connected to the streams by callbacks. The host keeps a
// copy of every variable (weights, optimiser state) in the IR's tensors.
#include "ir/HostData.hpp"
#include "onnx/OnnxUtil.hpp"
#include "session/SessionImpl.hpp"
#include "session/SessionOptionsCheck.hpp"
#include "transforms/StreamingMemory.hpp"

#include <popart/error.hpp>
#include <popart/irbuilder.hpp>
#include <popart/logging.hpp>
#include <popart/op/loss.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <fstream>
#include <random>
#include <sstream>

namespace popart {

namespace {

IrBundle makeBundle(const std::string &model, const DataFlow &dataFlow,
                    const InputShapeInfo &inputShapeInfo,
                    const SessionOptions &options, const Patterns &patterns) {
  IrBundle b;
  b.model = onnxutil::getModelProto(model);
  b.dataFlow = dataFlow;
  b.inputShapeInfo = inputShapeInfo;
  b.options = options;
  b.patterns = patterns;
  return b;
}

uint64_t randomSeedFromEntropy() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) | rd();
}

} // namespace

void SessionImpl::prepare(const IrBundle &bundle, const std::string &kind) {
  if (!device)
    throw error("{} '{}': no device given", kind, name);
  logging::session::info("Creating {} '{}' on {}", kind, name,
                         device->toString());
  checkSessionOptions(bundle.options, kind == "TrainingSession");
  IrBundle onDevice = bundle;
  onDevice.numIpus = ipusPerReplica(bundle.options);
  strings = std::make_unique<StringBoundary>(onDevice.model, onDevice.dataFlow,
                                             onDevice.inputShapeInfo);
  if (!strings->active())
    strings.reset();
  ir.prepare(onDevice);
  if (strings)
    strings->resolveInfos(
        [this](const TensorId &id) { return ir.getMainGraph().getTensor(id).info; });
  checkPrepared();
  checkDistribution();
}

int64_t SessionImpl::ipusPerReplica(const SessionOptions &o) const {
  const int64_t replicas = o.enableReplicatedGraphs ? o.replicatedGraphCount : 1;
  const int64_t ipus = device->getNumIpus();
  // The CPU device is one host standing for as many IPUs as there are
  // replicas (poplar runs each replica's copy of the graph on it).
  if (replicas <= 1 || device->getType() == DeviceType::Cpu)
    return ipus;
  const bool virtualGraphs = o.virtualGraphMode == VirtualGraphMode::Manual ||
                             o.virtualGraphMode == VirtualGraphMode::Auto;
  // Each replica has IPUs of its own: the device must have them all.
  if (!virtualGraphs && ipus != replicas)
    throw error("If virtual graphs are disabled, the replicated graph count "
                "({}) needs to be equal to the number of IPUs ({})",
                replicas, ipus);
  if (ipus % replicas != 0)
    throw error("SessionOptions::replicatedGraphCount {}: the device's {} "
                "IPUs cannot be shared out evenly between the replicas "
                "(acquire a device of replicatedGraphCount times the IPUs of "
                "one replica)",
                replicas, ipus);
  return ipus / replicas;
}

void SessionImpl::checkPrepared() {
  // Manual placement: each op's virtual graph must be an IPU of the device
  // (the ops then share one graph over all of the device's tiles).
  if (options().virtualGraphMode == VirtualGraphMode::Manual)
    for (const Op *op : ir.getSchedule()) {
      if (op->settings.vgraphId == unusedVGraphId)
        throw error("{} has no virtual graph, which the Manual virtual graph "
                    "mode needs (Builder::virtualGraph)",
                    op->str());
      if (op->settings.vgraphId < 0 ||
          op->settings.vgraphId >= ipusPerReplica(options()))
        throw error("{} is on virtual graph {}, but {} has {} IPUs", op->str(),
                    op->settings.vgraphId,
                    ir.getReplicationFactor() > 1 ? "each replica"
                                                  : "the device",
                    ipusPerReplica(options()));
    }
  // Every op must have a lowering and every tensor a device type:
  // unsupported models fail here, not later.
  std::vector<const Graph *> graphs = ir.getSubgraphs();
  graphs.push_back(&ir.getMainGraph());
  for (const Graph *g : graphs) {
    for (const auto &op : g->getOps())
      LoweringRegistry::instance().get(*op.second);
    for (const auto &t : g->getTensors()) {
      try {
        deviceType(t.second->info.dataType());
      } catch (const error &e) {
        throw error("Tensor '{}': {}", t.first, e.what());
      }
    }
  }
  randomSeed = randomSeedFromEntropy();
}

void SessionImpl::connectStreams() {
  Graph &g = ir.getMainGraph();
  for (const auto &in : io.inputs) {
    const TensorId id = in.first;
    const int64_t n = in.second;
    const DataType type = g.getTensor(id).info.dataType();
    const bool broadcast = ir.isBroadcastInput(id);
    engine->connectStreamToCallback(
        IrLowering::inputStream(id), [this, id, n, type, broadcast](void *p) {
          try {
            ConstVoidData data = stepio->in(id, n, false, broadcast);
            if (data.info.nelms() != n)
              throw error("The data given for input '{}' has {} elements, "
                          "not the {} of one batch",
                          id, data.info.nelms(), n);
            if (data.info.dataType() != type)
              throw error("The data given for input '{}' is {}, not {}", id,
                          data.info.data_type(), getDataTypeInfo(type).name());
            std::vector<char> bytes(static_cast<const char *>(data.data),
                                    static_cast<const char *>(data.data) +
                                        n * getDataTypeInfo(type).nbytes());
            bytes = toDeviceBytes(bytes, type);
            if (!bytes.empty()) // a stream of no elements has no buffer
              std::memcpy(p, bytes.data(), bytes.size());
            stepio->inComplete(id, n, broadcast);
          } catch (...) {
            if (!callbackError)
              callbackError = std::current_exception();
          }
        });
  }
  for (const auto &a : io.anchors) {
    const TensorId id = a.first;
    const int64_t n = a.second;
    const DataType type = g.getTensor(id).info.dataType();
    engine->connectStreamToCallback(
        IrLowering::anchorStream(id), [this, id, n, type](void *p) {
          try {
            MutableVoidData data = stepio->out(id, n);
            if (data.info.dataType() != type)
              throw error("The output array of anchor '{}' is {}, not {}", id,
                          data.info.data_type(), getDataTypeInfo(type).name());
            fromDeviceBytes(p, data.data, n, type);
            stepio->outComplete(id);
          } catch (...) {
            if (!callbackError)
              callbackError = std::current_exception();
          }
        });
  }
  // Variables and optimiser scalars move from and to their host copies.
  auto fromHost = [&](const TensorId &id) {
    Tensor *t = &g.getTensor(id);
    engine->connectStreamToCallback(IrLowering::fromHostStream(id),
                                    [t](void *dst) {
                                      auto bytes = toDeviceBytes(
                                          t->data, t->info.dataType());
                                      if (!bytes.empty())
                                        std::memcpy(dst, bytes.data(),
                                                    bytes.size());
                                    });
  };
  // Every replica holds the same weights: the host copy is replica 0's.
  const auto replicas = static_cast<unsigned>(ir.getReplicationFactor());
  for (const auto &id : io.variables) {
    if (isReplicaSharded(g.getTensor(id))) {
      connectShardStreams(id);
      continue;
    }
    fromHost(id);
    Tensor *t = &g.getTensor(id);
    engine->connectStreamToCallback(
        IrLowering::toHostStream(id), 0, [t](void *src) {
          fromDeviceBytes(src, t->data.data(), t->info.nelms(),
                          t->info.dataType());
        });
    for (unsigned r = 1; r < replicas; ++r)
      engine->connectStreamToCallback(IrLowering::toHostStream(id), r,
                                      [](void *) {});
  }
  for (const auto &id : io.optimizerScalars)
    fromHost(id);
  connectHostReduceStreams();
  if (io.randomSeed)
    engine->connectStreamToCallback(IrLowering::randomSeedStream(),
                                    [this](void *dst) {
                                      const uint32_t words[2] = {
                                          static_cast<uint32_t>(randomSeed),
                                          static_cast<uint32_t>(randomSeed >> 32)};
                                      std::memcpy(dst, words, sizeof(words));
                                    });
}

// Replicated tensor sharding: replica r holds part r of the host's whole
// tensor (elements r * part ... , the last part padded with zeros).
void SessionImpl::connectShardStreams(const TensorId &id) {
  Tensor *t = &ir.getMainGraph().getTensor(id);
  const auto replicas = static_cast<unsigned>(ir.getReplicationFactor());
  const int64_t part = t->info.nelms();
  const int64_t whole = hostInfo(*t).nelms();
  const DataType type = t->info.dataType();
  const int64_t hostBytes = getDataTypeInfo(type).nbytes();
  for (unsigned r = 0; r < replicas; ++r) {
    const int64_t begin = std::min(whole, r * part);
    const int64_t count = std::min(whole, begin + part) - begin;
    engine->connectStreamToCallback(
        IrLowering::fromHostStream(id), r,
        [t, begin, count, part, whole, type](void *dst) {
          const auto bytes = toDeviceBytes(t->data, type);
          const int64_t deviceBytes = static_cast<int64_t>(bytes.size()) / whole;
          std::memset(dst, 0, static_cast<std::size_t>(part * deviceBytes));
          std::memcpy(dst, bytes.data() + begin * deviceBytes,
                      static_cast<std::size_t>(count * deviceBytes));
        });
    engine->connectStreamToCallback(
        IrLowering::toHostStream(id), r,
        [t, begin, count, hostBytes, type](const void *src) {
          fromDeviceBytes(src, t->data.data() + begin * hostBytes, count, type);
        });
  }
}

void SessionImpl::remoteVariablesFromHost() {
  const auto replicas = static_cast<unsigned>(ir.getReplicationFactor());
  for (const TensorId &id : io.remoteVariables) {
    const Tensor &t = ir.getMainGraph().getTensor(id);
    const std::vector<char> bytes = toDeviceBytes(t.data, t.info.dataType());
    const int64_t whole = hostInfo(t).nelms(), part = t.info.nelms();
    const std::size_t elementBytes = bytes.size() / static_cast<std::size_t>(whole);
    std::vector<char> row(static_cast<std::size_t>(part) * elementBytes, 0);
    for (unsigned r = 0; r < replicas; ++r) {
      // Replica r's part: elements r * part ..., zeros past the end.
      const int64_t begin = isReplicaSharded(t) ? std::min(whole, r * part) : 0;
      const int64_t count = std::min(whole, begin + part) - begin;
      std::fill(row.begin(), row.end(), 0);
      std::memcpy(row.data(), bytes.data() + begin * elementBytes,
                  static_cast<std::size_t>(count) * elementBytes);
      engine->copyToRemoteBuffer(row.data(), remoteBufferName(id), 0, r);
    }
  }
}

void SessionImpl::remoteVariablesToHost() {
  const auto replicas = static_cast<unsigned>(ir.getReplicationFactor());
  for (const TensorId &id : io.remoteVariables) {
    Tensor &t = ir.getMainGraph().getTensor(id);
    const DataType type = t.info.dataType();
    const int64_t whole = hostInfo(t).nelms(), part = t.info.nelms();
    const int64_t hostBytes = getDataTypeInfo(type).nbytes();
    const std::size_t deviceBytes =
        toDeviceBytes(std::vector<char>(static_cast<std::size_t>(hostBytes)),
                      type)
            .size();
    std::vector<char> row(static_cast<std::size_t>(part) * deviceBytes);
    const unsigned parts = isReplicaSharded(t) ? replicas : 1;
    for (unsigned r = 0; r < parts; ++r) {
      const int64_t begin = std::min(whole, r * part);
      const int64_t count = std::min(whole, begin + part) - begin;
      engine->copyFromRemoteBuffer(remoteBufferName(id), row.data(), 0, r);
      fromDeviceBytes(row.data(), t.data.data() + begin * hostBytes, count,
                      type);
    }
  }
}

void SessionImpl::runProgram(ProgramIndex p, const std::string &debugName) {
  engine->run(static_cast<unsigned>(p), debugName);
}

void SessionImpl::sendPending() {
  if (optimizerPending && !io.optimizerScalars.empty())
    runProgram(ProgramIndex::OptimizerFromHost);
  optimizerPending = false;
  if (seedPending && io.randomSeed)
    runProgram(ProgramIndex::RandomSeedFromHost);
  seedPending = false;
}

Session::Session() : impl(std::make_unique<SessionImpl>()) {}
Session::~Session() = default;
InferenceSession::InferenceSession() = default;
InferenceSession::~InferenceSession() = default;
TrainingSession::TrainingSession() = default;
TrainingSession::~TrainingSession() = default;

std::unique_ptr<InferenceSession> InferenceSession::createFromOnnxModel(
    const std::string &model, const DataFlow &dataFlow,
    std::shared_ptr<DeviceInfo> deviceInfo, const InputShapeInfo &inputShapeInfo,
    const SessionOptions &userOptions, const Patterns &patterns,
    const std::string name) {
  std::unique_ptr<InferenceSession> s(new InferenceSession());
  s->impl->name = name;
  s->impl->device = deviceInfo;
  s->impl->prepare(
      makeBundle(model, dataFlow, inputShapeInfo, userOptions, patterns),
      "InferenceSession");
  return s;
}

std::unique_ptr<InferenceSession> InferenceSession::createFromOnnxModel(
    const std::string &model, const DataFlow &dataFlow,
    std::shared_ptr<DeviceInfo> deviceInfo, const std::vector<Loss *> &losses,
    const InputShapeInfo &inputShapeInfo, const SessionOptions &userOptions,
    const Patterns &patterns) {
  std::unique_ptr<InferenceSession> s(new InferenceSession());
  s->impl->name = "inference";
  s->impl->device = deviceInfo;
  IrBundle b =
      makeBundle(model, dataFlow, inputShapeInfo, userOptions, patterns);
  for (const Loss *l : losses) {
    if (!l)
      throw error("InferenceSession: a loss given is null");
    b.losses.push_back(l);
  }
  s->impl->prepare(b, "InferenceSession");
  return s;
}

std::unique_ptr<TrainingSession> TrainingSession::createFromOnnxModel(
    const std::string &model, const DataFlow &dataFlow, const TensorId &loss,
    const Optimizer &optimizer, std::shared_ptr<DeviceInfo> deviceInfo,
    const InputShapeInfo &inputShapeInfo, const SessionOptions &userOptions,
    const Patterns &patterns, const std::string name) {
  std::unique_ptr<TrainingSession> s(new TrainingSession());
  s->impl->name = name;
  s->impl->device = deviceInfo;
  IrBundle b =
      makeBundle(model, dataFlow, inputShapeInfo, userOptions, patterns);
  if (loss.empty())
    throw error("TrainingSession '{}': no loss tensor given", name);
  b.loss = loss;
  b.optimizer = &optimizer;
  s->impl->prepare(b, "TrainingSession");
  return s;
}

std::unique_ptr<TrainingSession> TrainingSession::createFromOnnxModel(
    const std::string &model, const DataFlow &dataFlow,
    const std::vector<Loss *> &losses, const Optimizer &optimizer,
    std::shared_ptr<DeviceInfo> deviceInfo, const InputShapeInfo &inputShapeInfo,
    const SessionOptions &userOptions, const Patterns &patterns,
    const std::string name) {
  std::unique_ptr<TrainingSession> s(new TrainingSession());
  s->impl->name = name;
  s->impl->device = deviceInfo;
  IrBundle b =
      makeBundle(model, dataFlow, inputShapeInfo, userOptions, patterns);
  if (losses.empty())
    throw error("TrainingSession '{}': no loss given", name);
  for (const Loss *l : losses) {
    if (!l)
      throw error("TrainingSession '{}': a loss given is null", name);
    b.losses.push_back(l);
  }
  b.optimizer = &optimizer;
  s->impl->prepare(b, "TrainingSession");
  return s;
}

std::unique_ptr<InferenceSession>
InferenceSession::createFromIr(IrBuilder &builder,
                               std::shared_ptr<DeviceInfo> deviceInfo,
                               const std::string name) {
  if (builder.isInSession())
    throw error("InferenceSession::createFromIr: the IR is already in a "
                "session");
  SessionOptions options = builder.getSessionOptions();
  // The IR's HostLoad/HostStore ops are its host copies and its main graph
  // is the body of the step's loop, as these options say: required, then
  // checked as the lowering's own.
  for (const auto &[option, value] :
       {std::pair<const char *, bool>{"useHostCopyOps", options.useHostCopyOps},
        {"enableExplicitMainLoops", options.enableExplicitMainLoops}})
    if (!value)
      throw error("InferenceSession::createFromIr: an IR built op by op needs "
                  "SessionOptions::{} = true",
                  option);
  options.useHostCopyOps = false;
  options.enableExplicitMainLoops = false;
  std::unique_ptr<InferenceSession> s(new InferenceSession());
  s->impl = std::make_unique<SessionImpl>(builder.ir);
  s->impl->name = name;
  s->impl->device = deviceInfo;
  if (!deviceInfo)
    throw error("InferenceSession '{}': no device given", name);
  logging::session::info("Creating InferenceSession '{}' of an IR built op by "
                         "op on {}",
                         name, deviceInfo->toString());
  checkSessionOptions(options, false);
  s->impl->ipusPerReplica(options); // the device must hold the replicas
  s->impl->ir.prepareBuilt(builder.getDataFlow(), options);
  s->impl->checkPrepared();
  builder.inSession = true;
  return s;
}

void TrainingSession::updateOptimizerFromHost(const Optimizer *optimizer) {
  if (!optimizer)
    throw error("updateOptimizerFromHost: no optimizer given");
  impl->ir.updateOptimizer(*optimizer);
  impl->optimizerPending = true;
  if (impl->engineLoaded)
    impl->sendPending();
}

void Session::prepareDevice(bool loadEngine) {
  impl->prepareEngine(impl->options().compileEngine);
  impl->prepared = true;
  if (loadEngine && impl->engine)
    loadEngineAndConnectStreams();
}

void Session::loadEngineAndConnectStreams() {
  if (!impl->engine)
    throw error("loadEngineAndConnectStreams: there is no engine (call "
                "prepareDevice{})",
                impl->prepared ? ", with SessionOptions::compileEngine true"
                               : "");
  impl->engine->load(impl->device->getDevice());
  impl->connectStreams();
  impl->engineLoaded = true;
  impl->optimizerPending = impl->seedPending = true;
}

void Session::weightsFromHost() {
  if (!impl->engineLoaded)
    throw error("weightsFromHost: call prepareDevice first");
  if (impl->options().enableDistributedReplicatedGraphs)
    impl->broadcastVariables();
  impl->sendPending();
  impl->runProgram(ProgramIndex::WeightsFromHost);
  impl->remoteVariablesFromHost();
  impl->weightsOnDevice = true;
}

void Session::weightsToHost() {
  if (!impl->engineLoaded)
    throw error("weightsToHost: call prepareDevice first");
  impl->runProgram(ProgramIndex::WeightsToHost);
  impl->remoteVariablesToHost();
}

namespace {

// The variables a user reads and writes by id: weights and optimiser state.
Tensor &hostVariable(Graph &g, const TensorId &id, const char *what) {
  if (!g.hasTensor(id))
    throw error("{}: '{}' is not a tensor of the session", what, id);
  Tensor &t = g.getTensor(id);
  if (t.type != TensorType::Variable ||
      t.variableKind == VariableKind::HyperParameter)
    throw error("{}: '{}' is not a weight or optimiser state (it is {})", what,
                id, tensorTypeName(t.type));
  return t;
}

void checkBuffer(const Tensor &t, const MutableVoidData &buffer,
                 const char *what) {
  if (!buffer.data)
    throw error("{}: the buffer of '{}' is null", what, t.id);
  if (buffer.info.dataType() != t.info.dataType())
    throw error("{}: the buffer of '{}' is {}, not {}", what, t.id,
                buffer.info.data_type(), t.info.data_type());
  if (buffer.info.nelms() != hostInfo(t).nelms())
    throw error("{}: the buffer of '{}' has {} elements, not {}", what, t.id,
                buffer.info.nelms(), hostInfo(t).nelms());
}

} // namespace

void Session::readWeights(const IWeightsIO &weightsIO) {
  for (const auto &p : impl->ir.getMainGraph().getTensors()) {
    const Tensor &t = *p.second;
    if (t.type != TensorType::Variable ||
        t.variableKind == VariableKind::HyperParameter ||
        !weightsIO.contains(t.id))
      continue;
    MutableVoidData buffer = weightsIO.weight(t.id);
    checkBuffer(t, buffer, "readWeights");
    std::memcpy(buffer.data, t.data.data(), t.data.size());
  }
}

void Session::writeWeights(const IWeightsIO &weightsIO) {
  // An inference session with constantWeights holds the model's
  // initializers as constants: writing one would change nothing.
  for (const auto &init : impl->ir.getModel().graph().initializer()) {
    const Graph &g = impl->ir.getMainGraph();
    const bool isVariable = g.hasTensor(init.name()) &&
                            g.getTensor(init.name()).type ==
                                TensorType::Variable;
    if (!isVariable && weightsIO.contains(init.name()))
      throw error("writeWeights: '{}' is a constant of this session, not a "
                  "weight it can change (an InferenceSession holds its "
                  "initializers as constants unless "
                  "SessionOptions::constantWeights is false)",
                  init.name());
  }
  for (const auto &p : impl->ir.getMainGraph().getTensors()) {
    Tensor &t = *p.second;
    if (t.type != TensorType::Variable ||
        t.variableKind == VariableKind::HyperParameter ||
        !weightsIO.contains(t.id))
      continue;
    MutableVoidData buffer = weightsIO.weight(t.id);
    checkBuffer(t, buffer, "writeWeights");
    std::memcpy(t.data.data(), buffer.data, t.data.size());
  }
}

void Session::resetHostWeights(
    const std::string &modelPath,
    const bool ignoreWeightsInModelWithoutCorrespondingHostWeight) {
  const onnx::ModelProto model = onnxutil::getModelProto(modelPath);
  Graph &g = impl->ir.getMainGraph();
  for (const auto &init : model.graph().initializer()) {
    const bool known = g.hasTensor(init.name()) &&
                       g.getTensor(init.name()).type == TensorType::Variable;
    if (!known) {
      if (ignoreWeightsInModelWithoutCorrespondingHostWeight)
        continue;
      throw error("resetHostWeights: the model's initializer '{}' is not a "
                  "weight of the session",
                  init.name());
    }
    Tensor &t = hostVariable(g, init.name(), "resetHostWeights");
    const TensorInfo info(init);
    if (info.shape() != hostInfo(t).shape() ||
        info.dataType() != t.info.dataType())
      throw error("resetHostWeights: the model's '{}' is {} {}, the session's "
                  "{} {}",
                  init.name(), info.data_type(), info.shape(),
                  t.info.data_type(), t.info.shape());
    t.data = onnxutil::tensorData(init);
  }
  if (impl->ir.isTraining())
    impl->ir.initialiseOptimizerState();
}

void Session::setRandomSeed(uint64_t seedValue) {
  impl->randomSeed = seedValue;
  impl->seedPending = true;
  if (impl->engineLoaded)
    impl->sendPending();
}

uint64_t Session::getRandomSeed() const { return impl->randomSeed; }

void Session::run(IStepIO &stepio, std::string debugName) {
  if (!impl->engineLoaded)
    throw error("Session::run: call prepareDevice first");
  if (!impl->strings) {
    impl->runStep(stepio, debugName);
    return;
  }
  // STRING tensors are the host's: its ops run around the device's step.
  const int64_t valuesPerStep = impl->ir.getDataFlow().batchesPerStep() *
                                impl->ir.getAccumulationFactor() *
                                impl->ir.getReplicationFactor();
  impl->strings->run(
      stepio, valuesPerStep,
      [&](IStepIO &io) { impl->runStep(io, debugName); },
      [&](const TensorId &id) {
        return impl->ir.getMainGraph().getTensor(id).info;
      });
}

void SessionImpl::runStep(IStepIO &given, const std::string &debugName) {
  sendPending();
  const auto &dataFlow = ir.getDataFlow();
  const int64_t bps = dataFlow.batchesPerStep();
  const int64_t af = ir.getAccumulationFactor();
  const int64_t replicas = ir.getReplicationFactor();
  // [batchesPerStep, accumulationFactor, replicationFactor, micro-batch]
  std::map<TensorId, int64_t> ins, outs;
  for (const auto &i : io.inputs)
    ins[i.first] = i.second * bps * af *
                   (ir.isBroadcastInput(i.first) ? 1 : replicas);
  for (const auto &a : io.anchors)
    outs[a.first] = a.second * replicas *
                    dataFlow.numOutFetchesPerRepl(options(), a.first);
  if (given.runtimeAssertsEnabled()) {
    try {
      given.assertNumElements(ins, outs);
    } catch (const error &e) {
      throw error("{} (arrays are [batchesPerStep {}, accumulationFactor {}, "
                  "replicationFactor {}, *tensor shape] with the factors of "
                  "1 dropped)",
                  e.what(), bps, af, replicas);
    }
  }
  stepio = &given;
  callbackError = nullptr;
  logging::session::debug("Running a step of {} batches", bps);
  const bool countCycles = options().instrumentWithHardwareCycleCounter &&
                           device->getType() != DeviceType::Cpu;
  const auto cyclesSoFar = [&] {
    return engine->getExecutionProfile()["simulation"]["cycles"].asUint();
  };
  const uint64_t cyclesBefore = countCycles ? cyclesSoFar() : 0;
  runProgram(ProgramIndex::Step, debugName);
  if (countCycles)
    lastRunCycles = cyclesSoFar() - cyclesBefore;
  stepio = nullptr;
  if (callbackError)
    std::rethrow_exception(callbackError);
}

void Session::modelToHost(const std::string &fn) {
  // The model with each initializer's data from the host copy (which
  // weightsToHost brings up to date), and the optimiser state as further
  // initializers.
  onnx::ModelProto model = impl->ir.getModel();
  const Graph &g = impl->ir.getMainGraph();
  std::set<TensorId> written;
  for (auto &init : *model.mutable_graph()->mutable_initializer())
    if (g.hasTensor(init.name())) {
      const Tensor &t = g.getTensor(init.name());
      if (t.type == TensorType::Variable || t.type == TensorType::Const)
        onnxutil::setTensorData(init, t.info, t.data.data());
      written.insert(init.name());
    }
  for (const auto &p : g.getTensors()) {
    const Tensor &t = *p.second;
    if (t.type == TensorType::Variable &&
        t.variableKind == VariableKind::OptimizerState && !written.count(t.id)) {
      auto *init = model.mutable_graph()->add_initializer();
      init->set_name(t.id);
      onnxutil::setTensorData(*init, hostInfo(t), t.data.data());
    }
  }
  std::ofstream out(fn, std::ios::binary);
  if (!out || !model.SerializeToOstream(&out))
    throw error("modelToHost: cannot write '{}'", fn);
}

TensorInfo Session::getInfo(TensorId id) const {
  if (impl->strings && impl->strings->hasTensor(id))
    return impl->strings->info(id);
  if (!impl->ir.getMainGraph().hasTensor(id))
    throw error("getInfo: no tensor '{}' in the session", id);
  return impl->ir.getMainGraph().getTensor(id).info;
}
bool Session::hasInfo(TensorId id) const {
  return (impl->strings && impl->strings->hasTensor(id)) || impl->ir.getMainGraph().hasTensor(id);
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
  for (const auto &o : impl->options().reportOptions)
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
  if (!impl->options().instrumentWithHardwareCycleCounter)
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
const DataFlow &Session::getDataFlow() const {
  return impl->strings ? impl->strings->userDataFlow() : impl->ir.getDataFlow();
}

void Session::connectStreamToCallback(const std::string &streamHandle,
                                      std::function<void(void *)> callback,
                                      unsigned index) {
  if (!impl->engineLoaded)
    throw error("connectStreamToCallback('{}'): call prepareDevice first",
                streamHandle);
  if (!callback)
    throw error("connectStreamToCallback('{}'): the callback is empty",
                streamHandle);
  try {
    impl->engine->connectStreamToCallback(streamHandle, index,
                                          std::move(callback));
  } catch (const poplar::poplar_error &e) {
    throw error("connectStreamToCallback('{}'): {}", streamHandle, e.what());
  }
}

const std::vector<std::string> &TrainingSession::getHostReduceStreamIds() const {
  return impl->hostReduceStreamIds;
}
const SessionOptions &Session::getSessionOptions() const {
  return impl->options();
}

} // namespace popart
