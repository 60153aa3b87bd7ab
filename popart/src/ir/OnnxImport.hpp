// The import of ONNX graphs into IR graphs: the main graph, and the
// subgraphs of control-flow nodes (If, Loop, Scan), whose nodes may read
// values of the graphs enclosing them.
#ifndef POPART_SRC_IR_ONNXIMPORT_HPP
#define POPART_SRC_IR_ONNXIMPORT_HPP

#include "ir/Graph.hpp"

#include <popart/sessionoptions.hpp>

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace popart {

/// What every node of a model is imported with.
struct OnnxImportSettings {
  /// The model's opset of each domain.
  std::map<std::string, int64_t> opsets;
  const SessionOptions &options;
  /// The subgraph of each callee of the builder's Call nodes (by the
  /// callee's bytes and the infos of its inputs), shared by the calls of
  /// one callee.
  std::shared_ptr<std::map<std::string, std::string>> callees =
      std::make_shared<std::map<std::string, std::string>>();
};

/// The ONNX names a graph being imported can read, and the IR tensors they
/// are. The main graph's values keep their ONNX names; a subgraph's are
/// "<graph id>/<name>", so that the values of every graph have ids of
/// their own. A subgraph reads a value of an enclosing graph through an
/// input of its own (an "implicit" input, which its op passes in), or, for
/// a constant, a copy of it.
class OnnxScope {
public:
  explicit OnnxScope(Graph &graph) : graph(graph) {}
  OnnxScope(Graph &graph, OnnxScope &parent) : graph(graph), parent(&parent) {}
  OnnxScope(const OnnxScope &) = delete;
  OnnxScope &operator=(const OnnxScope &) = delete;

  Graph &graph;
  /// The IR tensor of the value `name` that `reader` (a node's name, for
  /// the error) reads: popart::error if no enclosing graph has it.
  TensorId resolve(const std::string &name, const std::string &reader);
  /// The IR id of a new value `name` of this graph.
  TensorId define(const std::string &name);
  /// Adds a formal input of a subgraph.
  TensorId addInput(const std::string &name, const TensorInfo &info);
  /// The values of the enclosing graph this subgraph reads through inputs:
  /// (tensor of the parent graph, input of this graph), in input order.
  const std::vector<std::pair<TensorId, TensorId>> &getImplicitInputs() const {
    return implicitInputs;
  }

private:
  OnnxScope *parent = nullptr;
  std::map<std::string, TensorId> names;
  std::vector<std::pair<TensorId, TensorId>> implicitInputs;
};

/// Imports the nodes of `g` into the scope's graph, in order (constant
/// ones folded as they are made).
void importOnnxNodes(const onnx::GraphProto &g,
                     const OnnxImportSettings &settings, OnnxScope &scope);

/// Imports `body` as a new subgraph of the IR, in a scope whose parent is
/// `parent`, with formal inputs of the infos given (ONNX leaves them out
/// where they follow from the op's inputs); `nodeName` names it in errors.
std::unique_ptr<OnnxScope>
importBody(const onnx::GraphProto &body, const std::vector<TensorInfo> &inputs,
           const OnnxImportSettings &settings, OnnxScope &parent,
           const std::string &nodeName);

/// Whether a node is ai.onnx.preview.training's Gradient.
bool isGradientNode(const std::string &domain, const std::string &type);
/// Imports a Gradient node of `enclosing` (the graph whose nodes compute
/// its "y"): the gradient subgraph of those nodes, run by a CallOp
/// (OnnxGradientImport.cpp).
void importGradientNode(const onnx::NodeProto &node,
                        const std::string &nodeName,
                        const onnx::GraphProto &enclosing,
                        const OnnxImportSettings &settings, OnnxScope &scope);

/// Whether a node runs subgraphs (If, Loop, Scan of ai.onnx; Call and
/// PackedDataBlock of ai.graphcore).
bool isControlFlowNode(const std::string &domain, const std::string &type);
/// Imports such a node: its subgraphs become graphs of the IR, run by an
/// IfOp, OnnxLoopOp, ScanOp, CallOp or PackedDataBlockOp added to the
/// scope's graph and returned
/// (OnnxControlFlowImport.cpp).
Op &importControlFlowNode(const onnx::NodeProto &node,
                           const std::string &nodeName, OpVersion version,
                           const OnnxImportSettings &settings,
                           OnnxScope &scope);

} // namespace popart

#endif
