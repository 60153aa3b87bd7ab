#include "ir/Ir.hpp"
#include "ir/HostData.hpp"
#include "onnx/OnnxUtil.hpp"
#include "transforms/Autodiff.hpp"
#include "transforms/GraphBuilding.hpp"
#include "transforms/InPlace.hpp"
#include "transforms/OptimizerUpdates.hpp"
#include "transforms/Pipeline.hpp"
#include "transforms/Recompute.hpp"
#include "transforms/VirtualGraphs.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/onnxoperators.gen.hpp>
#include <popart/op/loss.hpp>
#include <popart/tensornames.hpp>
#include <popart/opserialiser.hpp>

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace popart {
namespace {

std::string upper(std::string s) {
  for (auto &c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The checkpoints selected by the options and POPART_DOT_CHECKS
// ("FWD0:FINAL"), upper case.
std::set<std::string> selectedDotChecks(const SessionOptions &options) {
  std::set<std::string> checks;
  for (const auto &c : options.dotChecks)
    checks.insert(upper(c));
  if (const char *env = std::getenv("POPART_DOT_CHECKS")) {
    std::stringstream in(env);
    std::string item;
    while (std::getline(in, item, ':'))
      if (!item.empty())
        checks.insert(upper(item));
  }
  return checks;
}

void setInputShapes(onnx::ModelProto &model, const InputShapeInfo &shapes) {
  for (auto &input : *model.mutable_graph()->mutable_input()) {
    if (!shapes.has(input.name()))
      continue;
    const TensorInfo &info = shapes.get(input.name());
    auto *tt = input.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(getONNXDataTypeAsInt(info.dataType()));
    tt->clear_shape();
    auto *shape = tt->mutable_shape();
    for (auto d : info.shape())
      shape->add_dim()->set_dim_value(d);
  }
}

} // namespace

Ir::Ir() : mainGraph(*this) {}

void Ir::prepare(const IrBundle &bundle) {
  model = bundle.model;
  dataFlow = bundle.dataFlow;
  options = bundle.options;
  dotChecks = selectedDotChecks(options);
  mode = bundle.optimizer ? ExecutionMode::Training : ExecutionMode::Inference;
  if (bundle.optimizer)
    optimizer = bundle.optimizer->clone();
  try {
    if (dataFlow.batchesPerStep() <= 0)
      throw error("DataFlow: batchesPerStep must be at least 1, not {}",
                  dataFlow.batchesPerStep());
    if (!options.enableReplicatedGraphs && options.replicatedGraphCount > 1)
      throw error("enableReplicatedGraphs is false, but replicatedGraphCount "
                  "> 1. Either enable replication, or set the replicated "
                  "graph count to 1");
    if (options.replicatedGraphCount < 1)
      throw error("SessionOptions::replicatedGraphCount must be at least 1, "
                  "not {}",
                  options.replicatedGraphCount);
    if (!isTraining() && options.getAccumulationFactor() != 1)
      throw error("SessionOptions::enableGradientAccumulation: gradient "
                  "accumulation needs a TrainingSession (accumulationFactor "
                  "{})",
                  options.getAccumulationFactor());
    if (options.enableGradientAccumulation && options.accumulationFactor < 1)
      throw error("SessionOptions::accumulationFactor must be at least 1, not "
                  "{}",
                  options.accumulationFactor);
    const int64_t opset = onnxutil::aiOnnxOpsetVersion(model);
    logging::ir::info("Preparing the IR of a model of ai.onnx opset {} with "
                      "{} nodes for {}",
                      opset, model.graph().node_size(),
                      isTraining() ? "training" : "inference");
    setInputShapes(model, bundle.inputShapeInfo);
    {
      // Outputs whose type ONNX could not infer when the model was built
      // (shapes computed from data) are left out of the check: the IR
      // works their types out itself.
      onnx::ModelProto checked = model;
      auto *outputs = checked.mutable_graph()->mutable_output();
      for (int i = outputs->size(); i-- > 0;)
        if (!outputs->Get(i).has_type())
          outputs->DeleteSubrange(i, 1);
      onnxutil::checkModel(checked);
    }
    onnxutil::inferShapes(model);

    importOnnxGraph(model, bundle.inputShapeInfo, options, mode, mainGraph);
    anchorSequenceElements();
    readInputSettings();
    if (isTraining() || !bundle.losses.empty() || !bundle.loss.empty())
      setFinalLoss(bundle);
    dotCheckpoint("FWD0");
    const int rewrites = applyPatterns(mainGraph, bundle.patterns, dataFlow);
    const int folded = foldConstants(mainGraph);
    logging::ir::debug("Patterns made {} rewrites, constant folding {} more",
                       rewrites, folded);
    dotCheckpoint("FWD1");
    std::set<OpId> modelOps;
    for (const auto &op : mainGraph.getOps())
      modelOps.insert(op.first);
    if (isTraining())
      prepareTraining(bundle.patterns);
    checkAnchors();
    if (options.virtualGraphMode == VirtualGraphMode::Manual ||
        options.virtualGraphMode == VirtualGraphMode::Auto)
    {
      placeOnVirtualGraphs(*this, modelOps, bundle.numIpus);
      placedOnIpus = true;
    }
    if (options.enablePipelining)
      pipelineStages = assignPipelineStages(*this, modelOps);
    schedule = mainGraph.getOpSchedule(options.kahnTieBreaker);
    // In a pipeline a tensor is kept for later stages from its producer's
    // stage: no op may change it in place after.
    if (bundle.patterns.isInPlaceEnabled() && pipelineStages == 0) {
      const int inplace = applyInPlace(*this, schedule);
      logging::ir::debug("InPlace: {} ops write into their inputs", inplace);
    }
    dotCheckpoint("FINAL");
  } catch (const std::exception &) {
    if (const char *dump = std::getenv("POPART_IR_DUMP")) {
      std::ofstream out(dump);
      out << serialise();
    }
    throw;
  }
  if (const char *dump = std::getenv("POPART_IR_DUMP")) {
    std::ofstream out(dump);
    if (!out)
      throw error("POPART_IR_DUMP: cannot write '{}'", dump);
    out << serialise();
  }
  logging::ir::info("IR prepared: {} ops, {} tensors", mainGraph.getOps().size(),
                    mainGraph.getTensors().size());
}

void Ir::setFinalLoss(const IrBundle &bundle) {
  if (!bundle.loss.empty() && !bundle.losses.empty())
    throw error("A session takes either a loss tensor or loss objects, not "
                "both");
  if (!bundle.loss.empty()) {
    if (!mainGraph.hasTensor(bundle.loss))
      throw error("The loss '{}' is not a tensor of the model", bundle.loss);
    finalLossId = bundle.loss;
  } else {
    if (bundle.losses.empty())
      throw error("A TrainingSession needs a loss");
    // The loss objects become ops of the model; several are summed.
    std::vector<TensorId> outputs;
    for (const Loss *loss : bundle.losses) {
      Op::Settings settings(mainGraph, loss->output(0));
      settings.vgraphId = loss->getVirtualGraphId();
      settings.pipelineStage = loss->getPipelineStage();
      auto op = loss->getOp(settings);
      // Inputs a loss streams (labels) that the model lacks are streamed
      // with the shapes InputShapeInfo gives.
      for (const auto &id : loss->getStreamTensorNames())
        if (!mainGraph.hasTensor(id)) {
          if (!bundle.inputShapeInfo.has(id))
            throw error("The input '{}' of the loss '{}' is not a tensor of "
                        "the model: give its type and shape with "
                        "InputShapeInfo to stream it",
                        id, loss->output(0));
          mainGraph.addTensor(id, bundle.inputShapeInfo.get(id),
                              TensorType::Stream);
          mainGraph.inputs.push_back(id);
        }
      std::vector<TensorId> ins;
      for (int i = 0; i < loss->input_size(); ++i) {
        if (!mainGraph.hasTensor(loss->input(i)))
          throw error("The input '{}' of the loss '{}' is not a tensor of the "
                      "model",
                      loss->input(i), loss->output(0));
        ins.push_back(loss->input(i));
      }
      if (mainGraph.hasTensor(loss->output(0)))
        throw error("The loss output '{}' is already a tensor of the model",
                    loss->output(0));
      Op &added = mainGraph.addOp(std::move(op));
      mainGraph.connect(added, ins, {loss->output(0)});
      outputs.push_back(loss->output(0));
    }
    if (outputs.size() == 1) {
      finalLossId = outputs[0];
    } else {
      finalLossId = mainGraph.uniqueId("finalLoss");
      addBuiltinOp(mainGraph, Onnx::Operators::Sum_8, "finalLoss", outputs,
                   {finalLossId});
    }
  }
  const Tensor &loss = mainGraph.getTensor(finalLossId);
  if (loss.info.dataType() != DataType::FLOAT &&
      loss.info.dataType() != DataType::FLOAT16)
    throw error("The loss '{}' must be FLOAT or FLOAT16, not {}", finalLossId,
                loss.info.data_type());
  // The backward pass starts from one value (as the original requires).
  if (loss.info.nelms() > 1)
    throw error("Loss tensor, '{}', must be a scalar tensor", finalLossId);
}

void Ir::prepareTraining(const Patterns &patterns) {
  // The gradient of the loss: the loss scaling, in the loss's shape.
  const Tensor &loss = mainGraph.getTensor(finalLossId);
  const TensorId ls = lossScalingTensor(*this, loss.info.dataType());
  const TensorId shape = mainGraph.uniqueId(finalLossId + "_shape");
  std::vector<double> dimsOfLoss(loss.info.shape().begin(),
                                 loss.info.shape().end());
  mainGraph.addTensor(shape, TensorInfo(DataType::INT64, {loss.info.rank()}),
                      TensorType::Const,
                      fromDoubles(dimsOfLoss, DataType::INT64));
  const TensorId seed = getGradId(finalLossId);
  addBuiltinOp(mainGraph, Onnx::Operators::Expand_8, seed + "/seed",
               {ls, shape}, {seed});

  std::set<TensorId> anchoredGradients;
  for (const auto &a : dataFlow.anchors())
    if (isGradId(a) && a != seed) {
      const TensorId of = getNonGradId(a);
      if (!mainGraph.hasTensor(of))
        throw error("Anchor '{}': '{}' is not a tensor of the model", a, of);
      anchoredGradients.insert(of);
    }
  annotateRecomputation(*this, options.autoRecomputation);
  std::set<const Op *> forwardOps;
  for (const auto &p : mainGraph.getOps())
    forwardOps.insert(p.second.get());
  const auto weights =
      growBackwardPass(*this, finalLossId, seed, anchoredGradients);
  growOptimizerUpdates(*this, weights);
  growRecomputation(*this, forwardOps);
  // The patterns again, on the backward pass (SoftmaxGradDirect, ...).
  const int rewrites = applyPatterns(mainGraph, patterns, dataFlow);
  logging::ir::debug("Patterns made {} rewrites after autodiff", rewrites);
  initialiseOptimizerState();
  dotCheckpoint("BWD0");
  foldConstants(mainGraph);
  orderInPlaceUpdates(*this);
}

const Optimizer &Ir::getOptimizer() const {
  if (!optimizer)
    throw error("The session has no optimizer (it is not a TrainingSession)");
  return *optimizer;
}

int64_t Ir::getAccumulationFactor() const {
  return options.getAccumulationFactor();
}

void Ir::readInputSettings() {
  const std::string prefix =
      std::string(sReplicatedStreamMode) + sNameDelimiter;
  for (const auto &meta : model.metadata_props()) {
    if (meta.key().rfind(prefix, 0) != 0)
      continue;
    const TensorId id = meta.key().substr(prefix.size());
    const bool broadcast =
        meta.value() ==
        std::to_string(static_cast<int>(ReplicatedStreamMode::Broadcast));
    if (!broadcast && meta.value() != std::to_string(static_cast<int>(
                                          ReplicatedStreamMode::Replicate)))
      throw error("The model's metadata '{}' is '{}', not a "
                  "ReplicatedStreamMode",
                  meta.key(), meta.value());
    if (broadcast && mainGraph.hasTensor(id) &&
        mainGraph.getTensor(id).type == TensorType::Stream)
      broadcastInputs.insert(id);
  }
}

int64_t Ir::getReplicationFactor() const {
  return options.enableReplicatedGraphs ? options.replicatedGraphCount : 1;
}

bool Ir::requiresRandomSeed() const {
  for (const auto &p : mainGraph.getOps())
    if (p.second->requiresRandomSeed())
      return true;
  for (const auto &g : subgraphs)
    for (const auto &p : g.second->getOps())
      if (p.second->requiresRandomSeed())
        return true;
  return false;
}

void Ir::addStateInitialisation(const TensorId &state, const TensorId &weight,
                                std::function<float(const Optimizer &)> factor) {
  stateInitialisations.push_back({state, weight, std::move(factor)});
}

void Ir::initialiseOptimizerState() {
  for (const auto &s : stateInitialisations) {
    Tensor &state = mainGraph.getTensor(s.state);
    const Tensor &weight = mainGraph.getTensor(s.weight);
    const double f = s.factor(getOptimizer());
    auto values = toDoubles(weight.data, weight.info.dataType());
    for (auto &v : values)
      v *= f;
    state.data = fromDoubles(values, state.info.dataType());
  }
}

void Ir::updateOptimizer(const Optimizer &newOptimizer) {
  getOptimizer().validReplacement(newOptimizer);
  optimizer = newOptimizer.clone();
  for (const auto &t : optimizerTensors) {
    Tensor &tensor = mainGraph.getTensor(t.id);
    tensor.data = fromDoubles({t.value(*optimizer)}, tensor.info.dataType());
  }
}

void Ir::anchorSequenceElements() {
  // An anchor naming a sequence or optional output stands for its elements
  // (`name[0]` ...), returned as it asks.
  if (mainGraph.sequenceOutputs.empty())
    return;
  AnchorReturnTypeMap anchors;
  for (const auto &id : dataFlow.anchors()) {
    auto found = mainGraph.sequenceOutputs.find(id);
    if (found == mainGraph.sequenceOutputs.end()) {
      anchors.emplace(id, dataFlow.art(id));
      continue;
    }
    for (const auto &element : found->second)
      anchors.emplace(element, dataFlow.art(id));
  }
  dataFlow = DataFlow(dataFlow.batchesPerStep(), anchors);
}

void Ir::checkAnchors() const {
  for (const auto &id : dataFlow.anchors())
    if (!mainGraph.hasTensor(id))
      throw error("Anchor tensor '{}' is not in the model", id);
}

std::string Ir::serialise() const {
  nlohmann::json j;
  j["tensors"] = nlohmann::json::array();
  for (const auto &p : mainGraph.getTensors()) {
    std::ostringstream info;
    info << p.second->info;
    j["tensors"].push_back({{"id", p.first},
                            {"tensor_type", tensorTypeName(p.second->type)},
                            {"info", info.str()}});
  }
  auto opJson = [](const Op &op) {
    nlohmann::json o;
    o["type"] = op.opid.type;
    o["domain"] = op.opid.domain;
    o["version"] = op.opid.version;
    o["name"] = op.name();
    o["inputs"] = nlohmann::json::array();
    for (Tensor *t : op.inputs)
      o["inputs"].push_back(t ? t->id : "");
    o["outputs"] = nlohmann::json::array();
    for (Tensor *t : op.outputs)
      o["outputs"].push_back(t ? t->id : "");
    OpAttributeMap attrs;
    op.appendAttributes(attrs);
    o["attributes"] = attrs.attributes();
    return o;
  };
  j["maingraph"] = nlohmann::json::array();
  if (!schedule.empty())
    for (const Op *op : schedule)
      j["maingraph"].push_back(opJson(*op));
  else
    for (const auto &p : mainGraph.getOps())
      j["maingraph"].push_back(opJson(*p.second));
  // Each subgraph under its id, its ops in schedule order.
  for (const auto &g : subgraphs) {
    auto &ops = j[g.first] = nlohmann::json::array();
    for (const Op *op : g.second->getOpSchedule(options.kahnTieBreaker))
      ops.push_back(opJson(*op));
  }
  return j.dump(2);
}

void Ir::dotCheckpoint(const std::string &checkpoint) const {
  if (!dotChecks.count(checkpoint) && !dotChecks.count("ALL"))
    return;
  const std::string dir = options.logDir.empty() ? "." : options.logDir;
  const std::string file = dir + "/" + checkpoint + ".dot";
  std::ofstream out(file);
  if (!out)
    throw error("Cannot write the DOT file '{}'", file);
  out << "digraph net {\n  size=\"6,6\";\n";
  int n = 0;
  for (const auto &p : mainGraph.getOps()) {
    if (n < options.firstDotOp || n >= options.finalDotOp) {
      ++n;
      continue;
    }
    ++n;
    const Op &op = *p.second;
    std::string label = op.opid.type + (options.dotOpNames ? " " + op.name() : "");
    out << "  n_" << op.id << " [shape=box, label=\"" << label << "\"];\n";
    for (Tensor *t : op.inputs)
      if (t)
        out << "  \"" << t->id << "\" -> n_" << op.id << ";\n";
    for (Tensor *t : op.outputs)
      if (t) {
        std::ostringstream info;
        info << t->info;
        out << "  \"" << t->id << "\" [color=grey, label=\"" << t->id << "\\n"
            << info.str() << "\"];\n  n_" << op.id << " -> \"" << t->id
            << "\";\n";
      }
  }
  out << "}\n";
  logging::ir::info("Wrote DOT file {} at checkpoint {}", file, checkpoint);
}

} // namespace popart

namespace popart {

void Ir::prepareBuilt(const DataFlow &dataFlow_, const SessionOptions &options_) {
  dataFlow = dataFlow_;
  options = options_;
  dotChecks = selectedDotChecks(options);
  mode = ExecutionMode::Inference;
  if (dataFlow.batchesPerStep() <= 0)
    throw error("DataFlow: batchesPerStep must be at least 1, not {}",
                dataFlow.batchesPerStep());
  // Replicas (in this process) run the IR side by side, each on its own
  // data; it is an inference IR, with no gradients to accumulate or to
  // reduce across processes.
  if (options.enableDistributedReplicatedGraphs ||
      options.getAccumulationFactor() != 1)
    throw error("An IR built op by op runs without distributed replicas or "
                "gradient accumulation (SessionOptions::"
                "enableDistributedReplicatedGraphs {}, accumulationFactor {})",
                options.enableDistributedReplicatedGraphs,
                options.getAccumulationFactor());
  if (!options.enableReplicatedGraphs && options.replicatedGraphCount > 1)
    throw error("enableReplicatedGraphs is false, but replicatedGraphCount "
                "> 1. Either enable replication, or set the replicated "
                "graph count to 1");
  logging::ir::info("Preparing an IR built op by op: {} ops in the main graph, "
                    "{} subgraphs",
                    mainGraph.getOps().size(), subgraphs.size());
  dotCheckpoint("FWD0");
  checkAnchors();
  schedule = mainGraph.getOpSchedule(options.kahnTieBreaker);
  dotCheckpoint("FINAL");
  if (const char *dump = std::getenv("POPART_IR_DUMP")) {
    std::ofstream out(dump);
    if (!out)
      throw error("POPART_IR_DUMP: cannot write '{}'", dump);
    out << serialise();
  }
}

} // namespace popart
