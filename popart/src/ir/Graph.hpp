// A graph of the IR: its tensors and ops, its inputs (streams) and
// outputs, and the edits patterns and transforms make.
#ifndef POPART_SRC_IR_GRAPH_HPP
#define POPART_SRC_IR_GRAPH_HPP

#include <popart/op.hpp>
#include <popart/tensor.hpp>

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace popart {

class Ir;

class Graph {
public:
  /// id: "" for the main graph, the subgraph's id otherwise.
  explicit Graph(Ir &ir, std::string id = "") : ir(ir), id(std::move(id)) {}
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  Ir &getIr() const { return ir; }
  const std::string &getGraphId() const { return id; }
  bool isMainGraph() const { return id.empty(); }

  Tensor &addTensor(const TensorId &id, const TensorInfo &info,
                    TensorType type, std::vector<char> data = {});
  bool hasTensor(const TensorId &id) const { return tensors.count(id) != 0; }
  Tensor &getTensor(const TensorId &id) const;
  const std::map<TensorId, std::unique_ptr<Tensor>> &getTensors() const {
    return tensors;
  }

  /// Takes the op; inputs are connected and outputs created by the caller
  /// with connectInput/createOutput.
  Op &addOp(std::unique_ptr<Op> op);
  /// Makes an op of class T in this graph (T(opid, settings, args...)),
  /// connects its inputs, creates its outputs and sets it up.
  template <typename T, typename... Args>
  T &createConnectedOp(const std::vector<TensorId> &ins,
                       const std::vector<TensorId> &outs, Args &&...args) {
    auto op = std::make_unique<T>(std::forward<Args>(args)...);
    T &ref = *op;
    addOp(std::move(op));
    connect(ref, ins, outs);
    return ref;
  }
  /// Connects inputs ("" = absent), creates outputs and sets the op up.
  void connect(Op &op, const std::vector<TensorId> &ins,
               const std::vector<TensorId> &outs);
  /// An id not yet used in the graph: `base`, or `base`__N.
  TensorId uniqueId(const TensorId &base) const;
  /// `after` must be scheduled after `before` (beyond data dependencies).
  void addTopoCon(Op &before, Op &after);
  const std::map<Op *, std::vector<Op *>> &getTopoCons() const {
    return topoCons;
  }
  void connectInput(Op &op, int index, const TensorId &id);
  Tensor &createOutput(Op &op, int index, const TensorId &id);
  /// Removes an op, leaving its output tensors without a producer.
  void eraseOp(Op &op);
  /// Puts `replacement` where `op` is: the same inputs, outputs and
  /// scheduling constraints (`op` is destroyed).
  Op &replaceOp(Op &op, std::unique_ptr<Op> replacement);
  /// Removes a tensor no op uses.
  void eraseTensor(const TensorId &id);
  /// Gives a tensor another id (popart::error if the new one is taken).
  void renameTensor(const TensorId &from, const TensorId &to);
  /// Makes every consumer of `from` use `to` instead.
  void replaceUses(Tensor &from, Tensor &to);
  const std::map<OpId, std::unique_ptr<Op>> &getOps() const { return ops; }

  // The main graph's inputs are streamed from the host and its outputs
  // are the model's; a subgraph's are what its callers give and get.
  std::vector<TensorId> inputs;
  std::vector<TensorId> outputs;
  // Outputs of sequence or optional type (main graph): the element tensors
  // each is made of, which are in `outputs` (ir/SequenceImport.hpp).
  std::map<TensorId, std::vector<TensorId>> sequenceOutputs;

  /// The ops in an order where each comes after the producers of its
  /// inputs (see Scheduler.cpp).
  std::vector<Op *> getOpSchedule(const std::string &tieBreaker = "greedy") const;

private:
  Ir &ir;
  std::string id;
  std::map<Op *, std::vector<Op *>> topoCons; // op -> ops after it
  std::map<TensorId, std::unique_ptr<Tensor>> tensors;
  std::map<OpId, std::unique_ptr<Op>> ops;
  OpId nextOpId = 0;
};

} // namespace popart

#endif
