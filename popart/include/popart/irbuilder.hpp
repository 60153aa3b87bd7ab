// IrBuilder: an IR made graph by graph and op by op rather than imported
// from an ONNX model (the C++ side of the Python module popart.ir). Its
// ops are the IR's own, made by the same op table as those of a model's
// nodes, and it runs in InferenceSession::createFromIr.
#ifndef POPART_IRBUILDER_HPP
#define POPART_IRBUILDER_HPP

#include <popart/dataflow.hpp>
#include <popart/names.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/vendored/any.hpp>
#include <popart/voiddata.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class Ir;
class InferenceSession;

class POPART_API IrBuilder {
public:
  IrBuilder();
  ~IrBuilder();
  IrBuilder(const IrBuilder &) = delete;
  IrBuilder &operator=(const IrBuilder &) = delete;

  // Graphs: "" is the main graph; subgraphs have ids of their own.
  void createGraph(const std::string &graphId);
  bool hasGraph(const std::string &graphId) const;
  /// A new input of a subgraph, in order (its tensor `id`).
  void addGraphInput(const std::string &graphId, const TensorId &id,
                     const TensorInfo &info);
  /// Marks a tensor of a subgraph as its next output.
  void addGraphOutput(const std::string &graphId, const TensorId &id);
  std::vector<TensorId> getGraphInputIds(const std::string &graphId) const;
  std::vector<TensorId> getGraphOutputIds(const std::string &graphId) const;

  // Tensors.
  /// A variable of the main graph (kept on the device between steps, moved
  /// by weightsFromHost/weightsToHost), starting as `data`.
  void addVariable(const TensorId &id, const ConstVoidData &data);
  void addConstant(const std::string &graphId, const TensorId &id,
                   const ConstVoidData &data);
  /// A host-to-device stream of the main graph (an input of the session,
  /// read once per batch; the HostLoad op reads it).
  void addStream(const TensorId &id, const TensorInfo &info);
  bool hasTensor(const std::string &graphId, const TensorId &id) const;
  TensorInfo getTensorInfo(const std::string &graphId, const TensorId &id) const;
  /// "ActGrad", "Const", "Stream" or "Variable".
  std::string getTensorType(const std::string &graphId, const TensorId &id) const;
  /// `base`, or `base`__N when `base` is taken in the graph.
  TensorId uniqueId(const std::string &graphId, const TensorId &base) const;

  // Ops.
  /// Adds the op `opid` to a graph, made by the op table from the
  /// attributes as the op of an ONNX node would be, with its inputs
  /// ("" for an absent optional one) and outputs; returns the op's id.
  /// popart::error naming the op for bad inputs or attributes.
  /// virtualGraph: the IPU of the op, or -1 for none.
  int64_t addOp(const std::string &graphId, const OperatorIdentifier &opid,
                const std::vector<TensorId> &inputs,
                const std::vector<TensorId> &outputs,
                const std::map<std::string, any> &attributes,
                const std::string &name, int64_t virtualGraph = -1);
  /// An input of a Call or Loop op passed by reference: what the subgraph
  /// does to it is done to the caller's tensor.
  void setCallInputModified(const std::string &graphId, int64_t opId,
                            int inIndex);
  std::vector<TensorId> getOpOutputIds(const std::string &graphId,
                                       int64_t opId) const;
  /// Op `after` runs after op `before` (beyond what their data needs).
  void addTopoCon(const std::string &graphId, int64_t before, int64_t after);

  // What a session needs.
  void setDataFlow(const DataFlow &dataFlow);
  const DataFlow &getDataFlow() const { return dataFlow; }
  SessionOptions &getSessionOptions() { return options; }
  const SessionOptions &getSessionOptions() const { return options; }
  /// Sets every op up again from its inputs (after changes to tensors),
  /// checking each graph.
  void updateVertices();
  /// Whether a session has taken the IR (it cannot change after that).
  bool isInSession() const { return inSession; }
  /// The IR as JSON (the form POPART_IR_DUMP writes).
  std::string serialise() const;

private:
  friend class InferenceSession;
  void checkEditable(const char *what) const;
  std::shared_ptr<Ir> ir;
  DataFlow dataFlow;
  SessionOptions options;
  bool inSession = false;
};

} // namespace popart

#endif
