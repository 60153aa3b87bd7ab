// The IR of a session: the main graph built from the ONNX model, and its
// preparation: construction with constant folding, patterns, and for
// training the loss, the backward pass (autodiff) and the optimiser's
// weight updates; then the checks and the schedule. DOT files are written
// at the named checkpoints (POPART_DOT_CHECKS) and the IR as JSON
// (POPART_IR_DUMP).
#ifndef POPART_SRC_IR_IR_HPP
#define POPART_SRC_IR_IR_HPP

#include "ir/Graph.hpp"

#include <popart/dataflow.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns/patterns.hpp>
#include <popart/sessionoptions.hpp>

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace popart {

class Loss;

enum class ExecutionMode { Inference, Training };

/// Everything a session's IR is prepared from.
struct IrBundle {
  onnx::ModelProto model;
  InputShapeInfo inputShapeInfo;
  DataFlow dataFlow;
  /// The loss tensor (training), or "" (inference, or losses below).
  TensorId loss;
  /// Losses of the older interface, added to the model as ops.
  std::vector<const Loss *> losses;
  /// The optimiser (training only).
  const Optimizer *optimizer = nullptr;
  SessionOptions options;
  Patterns patterns;
  /// The IPUs of one replica (virtual graphs).
  int64_t numIpus = 1;
};

/// A hyper-parameter tensor of the optimiser: a scalar whose value the
/// optimiser-from-host program writes (computed from the optimiser's
/// values, so that updateOptimizerFromHost can change it).
struct OptimizerTensor {
  TensorId id;
  std::function<float(const Optimizer &)> value;
};

class Ir {
public:
  Ir();
  Ir(const Ir &) = delete;
  Ir &operator=(const Ir &) = delete;

  void prepare(const IrBundle &bundle);

  Graph &getMainGraph() { return mainGraph; }
  const Graph &getMainGraph() const { return mainGraph; }

  // Subgraphs, called by CallOp and LoopOp (Subgraphs.cpp). "" is the main
  // graph.
  Graph &createGraph(const std::string &id);
  bool hasGraph(const std::string &id) const;
  Graph &getGraph(const std::string &id);
  const Graph &getGraph(const std::string &id) const;
  std::vector<const Graph *> getSubgraphs() const;
  /// Drops a subgraph no op calls (one built only to be differentiated).
  void removeGraph(const std::string &id);

  /// Prepares an IR whose graphs were built op by op (IrBuilder, the IR
  /// of popart.ir) rather than imported: the checks and the schedule.
  void prepareBuilt(const DataFlow &dataFlow, const SessionOptions &options);
  const DataFlow &getDataFlow() const { return dataFlow; }
  const SessionOptions &getSessionOptions() const { return options; }
  const onnx::ModelProto &getModel() const { return model; }
  const std::vector<Op *> &getSchedule() const { return schedule; }
  /// Whether the main graph's ops were placed on IPUs, with copies
  /// between them (transforms/VirtualGraphs.hpp): each is lowered into
  /// its IPU's virtual graph.
  bool isPlacedOnIpus() const { return placedOnIpus; }
  /// The stages of a pipelined IR (transforms/Pipeline.hpp), else 0.
  int64_t getNumPipelineStages() const { return pipelineStages; }

  ExecutionMode getExecutionMode() const { return mode; }
  /// An IR built op by op (IrBuilder): its ops do what they say whatever
  /// the session (a Dropout in training mode drops).
  bool isBuiltOpByOp() const { return builtOpByOp; }
  void setBuiltOpByOp() { builtOpByOp = true; }
  bool isTraining() const { return mode == ExecutionMode::Training; }
  /// The loss the backward pass starts from (training).
  const TensorId &getFinalLossId() const { return finalLossId; }
  const Optimizer &getOptimizer() const;
  bool hasOptimizer() const { return optimizer != nullptr; }
  /// The optimiser's scalars held in tensors; their data follows the
  /// optimiser (see updateOptimizer).
  std::vector<OptimizerTensor> &getOptimizerTensors() { return optimizerTensors; }
  const std::vector<OptimizerTensor> &getOptimizerTensors() const {
    return optimizerTensors;
  }
  /// Optimiser state that starts as factor(optimizer) * weight (SGD1's
  /// velocity); applied to the host copies when the IR is prepared and
  /// when the weights are reset.
  void addStateInitialisation(const TensorId &state, const TensorId &weight,
                              std::function<float(const Optimizer &)> factor);
  void initialiseOptimizerState();
  /// Replaces the optimiser (popart::error unless it is a valid
  /// replacement) and recomputes the data of its scalar tensors.
  void updateOptimizer(const Optimizer &newOptimizer);
  /// The number of micro-batches of each weight update.
  int64_t getAccumulationFactor() const;
  /// The replicas of the graph in this process (replicatedGraphCount with
  /// enableReplicatedGraphs, else 1).
  int64_t getReplicationFactor() const;
  /// Whether some op draws random numbers (the session then has a seed).
  bool requiresRandomSeed() const;
  /// Whether an input is streamed once to every replica
  /// (InputSettings' ReplicatedStreamMode::Broadcast) rather than per
  /// replica.
  bool isBroadcastInput(const TensorId &id) const {
    return broadcastInputs.count(id) != 0;
  }

  /// The IR as JSON: tensors (id, type, info) and ops (schedule order).
  std::string serialise() const;
  /// Writes a DOT file if the checkpoint is selected.
  void dotCheckpoint(const std::string &checkpoint) const;

private:
  void checkAnchors() const;
  void anchorSequenceElements();
  /// The inputs the builder marked ReplicatedStreamMode::Broadcast (the
  /// model's metadata).
  void readInputSettings();
  void setFinalLoss(const IrBundle &bundle);
  void prepareTraining(const Patterns &patterns);

  Graph mainGraph;
  std::map<std::string, std::unique_ptr<Graph>> subgraphs;
  DataFlow dataFlow;
  SessionOptions options;
  onnx::ModelProto model;
  std::set<std::string> dotChecks;
  std::set<TensorId> broadcastInputs;
  std::vector<Op *> schedule;
  bool placedOnIpus = false;
  int64_t pipelineStages = 0;
  ExecutionMode mode = ExecutionMode::Inference;
  bool builtOpByOp = false;
  TensorId finalLossId;
  std::unique_ptr<Optimizer> optimizer;
  std::vector<OptimizerTensor> optimizerTensors;
  struct StateInitialisation {
    TensorId state, weight;
    std::function<float(const Optimizer &)> factor;
  };
  std::vector<StateInitialisation> stateInitialisations;
};

/// Builds the graph from the ONNX model (ops made through the OpManager;
/// constant subgraphs folded as they are built). In training, initializers
/// of floating-point types are variables (the weights).
void importOnnxGraph(const onnx::ModelProto &model, const InputShapeInfo &shapes,
                     const SessionOptions &options, ExecutionMode mode,
                     Graph &graph);

/// Replaces an op whose inputs are all constant by the constant it
/// computes; returns whether it did.
bool foldConstantOp(Graph &graph, Op &op);
/// Folds every foldable op (the ConstExprFolding transform).
int foldConstants(Graph &graph);

/// Applies the enabled patterns until none matches; returns the number of
/// rewrites.
int applyPatterns(Graph &graph, const Patterns &patterns,
                  const DataFlow &dataFlow);

} // namespace popart

#endif
