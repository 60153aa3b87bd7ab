// ONNX sequence and optional values, resolved while a model is imported.
//
// The IR holds tensors of static shapes only. A sequence whose length and
// element shapes are known when the IR is prepared is held as the list of
// its element tensors, and an optional as whether it holds a value and that
// value: the sequence ops (SequenceConstruct, SequenceAt, SequenceInsert,
// SplitToSequence, ConcatFromSequence, SequenceMap ...) become tensor
// plumbing (identities, slices, concats, copies of a body graph) decided
// at import. Positions and split sizes must then be constants. An If or Loop
// whose subgraphs take or give sequences is resolved the same way: the
// branch its constant condition picks, or each iteration of its body (a
// constant trip count and condition), imported inline.
#ifndef POPART_SRC_IR_SEQUENCEIMPORT_HPP
#define POPART_SRC_IR_SEQUENCEIMPORT_HPP

#include <popart/datatype.hpp>
#include <popart/names.hpp>
#include <popart/operatoridentifier.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
class NodeProto;
class ValueInfoProto;
} // namespace onnx

namespace popart {

class Graph;

// A value of an ONNX sequence or optional type.
struct SequenceValue {
  bool optional = false;  // an optional (otherwise a sequence)
  bool present = true;    // an optional's: it holds a value
  bool ofSequence = true; // an optional's: the value is a sequence, not a tensor
  std::vector<TensorId> elements; // the sequence's, or the optional's tensor
  DataType elementType = DataType::UNDEFINED;
};

class SequenceImporter {
public:
  // Imports an ordinary node (used for the body of SequenceMap).
  using NodeImporter = std::function<void(const onnx::NodeProto &)>;

  SequenceImporter(Graph &graph, NodeImporter importNode);

  // Whether the node is a sequence or optional op or reads such a value.
  bool handles(const onnx::NodeProto &node) const;
  void import(const onnx::NodeProto &node, const std::string &nodeName);

  bool has(const std::string &name) const { return values.count(name) != 0; }

  // The tensors a graph output of sequence or optional type is made of:
  // its elements, copied to `name[0]`, `name[1]` ... (an empty sequence or
  // optional has none).
  std::vector<TensorId> exposeOutput(const std::string &name);

  // A graph input of sequence or optional type: popart::error saying how to
  // give it (as tensors, built by SequenceConstruct or Optional nodes).
  static void rejectInput(const onnx::ValueInfoProto &input);

  // The id of element k of the sequence or optional graph output `name`.
  static TensorId elementId(const TensorId &name, std::size_t k);

private:
  const SequenceValue &get(const onnx::NodeProto &node, int input) const;
  int64_t constantInt(const onnx::NodeProto &node,
                      int input, const std::string &what) const;
  TensorId copyOf(const TensorId &from, const TensorId &to,
                  const std::string &nodeName);

  void sequenceAt(const onnx::NodeProto &node, const std::string &nodeName);
  void sequenceInsert(const onnx::NodeProto &node);
  void sequenceErase(const onnx::NodeProto &node);
  void concatFromSequence(const onnx::NodeProto &node,
                          const std::string &nodeName);
  void splitToSequence(const onnx::NodeProto &node,
                       const std::string &nodeName);
  void sequenceMap(const onnx::NodeProto &node, const std::string &nodeName);
  void ifOfSequences(const onnx::NodeProto &node, const std::string &nodeName);
  void loopOfSequences(const onnx::NodeProto &node,
                       const std::string &nodeName);
  // Whether a node's subgraphs take or give sequences or optionals.
  static bool takesOrGivesSequences(const onnx::NodeProto &node);
  // Imports the nodes of `g` once, its inputs bound to `inputs` (tensors
  // or sequence values) and its other names prefixed; the names of its
  // outputs.
  std::vector<std::string> inlineGraph(const onnx::GraphProto &g,
                                       const std::vector<std::string> &inputs,
                                       const std::string &prefix);
  // `name` becomes the value or tensor `value` (a copy of the tensor).
  void bind(const std::string &name, const std::string &value,
            const std::string &nodeName);
  void optionalOps(const onnx::NodeProto &node, const std::string &nodeName);

  Graph &graph;
  NodeImporter importNode;
  std::map<std::string, SequenceValue> values;
};

} // namespace popart

#endif
