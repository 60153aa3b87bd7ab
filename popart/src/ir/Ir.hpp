// The IR of a session: the main graph built from the ONNX model, and its
// preparation (construction with constant folding, patterns, checks,
// schedule), with DOT files at the named checkpoints (POPART_DOT_CHECKS)
// and the serialised IR (POPART_IR_DUMP).
#ifndef POPART_SRC_IR_IR_HPP
#define POPART_SRC_IR_IR_HPP

#include "ir/Graph.hpp"

#include <popart/dataflow.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/patterns/patterns.hpp>
#include <popart/sessionoptions.hpp>

#include <onnx/onnx_pb.h>

#include <set>
#include <string>

namespace popart {

class Ir {
public:
  void prepare(onnx::ModelProto model, const InputShapeInfo &shapes,
               const DataFlow &dataFlow, const SessionOptions &options,
               const Patterns &patterns);

  Graph &getMainGraph() { return mainGraph; }
  const Graph &getMainGraph() const { return mainGraph; }
  const DataFlow &getDataFlow() const { return dataFlow; }
  const SessionOptions &getSessionOptions() const { return options; }
  const onnx::ModelProto &getModel() const { return model; }
  const std::vector<Op *> &getSchedule() const { return schedule; }

  /// The IR as JSON: tensors (id, type, info) and ops (schedule order).
  std::string serialise() const;
  /// Writes a DOT file if the checkpoint is selected.
  void dotCheckpoint(const std::string &checkpoint) const;

private:
  void checkAnchors() const;

  Graph mainGraph;
  DataFlow dataFlow;
  SessionOptions options;
  onnx::ModelProto model;
  std::set<std::string> dotChecks;
  std::vector<Op *> schedule;
};

/// Builds the graph from the ONNX model (ops made through the OpManager;
/// constant subgraphs folded as they are built).
void importOnnxGraph(const onnx::ModelProto &model, const InputShapeInfo &shapes,
                     const SessionOptions &options, Graph &graph);

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
