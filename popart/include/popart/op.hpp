// The base of the IR's ops, and of custom ops. An op knows its identity
// (with the version of its definition), its settings (name, placement,
// recomputation ...), its input and output tensors by index, how to work
// out its outputs' types and shapes (setup), and, for training, the grad
// ops that compute the gradients of its inputs (getGradOps). A grad op
// says where its inputs come from (gradInputInfo) and which forward input
// each of its outputs is the gradient of (gradOutToNonGradIn). How an op
// runs on a device is the business of its lowering (an Opx for custom ops).
#ifndef POPART_OP_HPP
#define POPART_OP_HPP

#include <popart/attributes.hpp>
#include <popart/names.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/reductiontype.hpp>
#include <popart/tensor.hpp>
#include <popart/tensorinfo.hpp>

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace popart {

class Graph;
class OpSerialiserBase;

/// Undefined: the session's recomputation policy decides; Checkpoint:
/// the output is kept for the backward pass; Recompute: the op is run
/// again in the backward pass instead; Recomputed: an op that is such a
/// recomputation.
enum class RecomputeType { Undefined = 0, Checkpoint, Recompute, Recomputed };

/// Where an op runs: in every micro-batch (Normal), once per weight update
/// after the accumulation loop (AccumulateOuterFragment), or in one of the
/// programs that move weights and optimiser values.
enum class ExecutionContext {
  Normal = 0,
  AccumulateOuterFragment,
  WeightsFromHostFragment,
  WeightsToHostFragment,
  OptimizerFromHostFragment,
  Subgraph,
};

POPART_API std::ostream &operator<<(std::ostream &, const RecomputeType &);
POPART_API std::ostream &operator<<(std::ostream &, const ExecutionContext &);

/// Where an input of a grad op comes from: an input (In) or output (Out)
/// of the forward op, or the gradient of a forward output (GradOut).
enum class GradOpInType { In = 0, Out, GradOut };

class POPART_API GradInOutMapper {
public:
  GradInOutMapper(InIndex iGrad, int iNonGrad, GradOpInType type);
  /// The grad op's input index.
  InIndex iGrad;
  /// The forward op's input or output index it is (or is the gradient of).
  int iNonGrad;
  GradOpInType type;
  bool operator==(const GradInOutMapper &rhs) const;
};

class POPART_API Op {
public:
  struct POPART_API Settings {
    Settings(Graph &graph, const std::string &name);
    Settings(const Settings &) = default;
    Settings &operator=(const Settings &) = default;
    virtual ~Settings();
    /// These settings under another name.
    Settings copy(const std::string &newName) const;

    std::reference_wrapper<Graph> graph;
    std::string name;
    RecomputeType recomputeType = RecomputeType::Undefined;
    VGraphId vgraphId = unusedVGraphId;
    PipelineStage pipelineStage = unusedPipelineStage;
    ExecutionPhase executionPhase = unusedExecutionPhase;
    ExecutionContext executionContext = ExecutionContext::Normal;
    /// Patterns not to apply to this op (Builder::excludePatterns).
    std::vector<std::string> excludePatterns;
    double schedulePriority = 0.0;
    /// An op of the weight update (an optimiser's).
    bool optimizerOp = false;
  };

  Op(const OperatorIdentifier &opid, const Settings &settings);
  /// A copy with the same identity and settings, connected to nothing.
  Op(const Op &other);
  Op &operator=(const Op &) = delete;
  virtual ~Op();

  OperatorIdentifier opid;
  OpId id = -1;
  Settings settings;
  /// The connected tensors by index; an absent optional input is nullptr.
  std::vector<Tensor *> inputs;
  std::vector<Tensor *> outputs;

  const std::string &name() const { return settings.name; }
  void setName(const std::string &n) { settings.name = n; }
  Graph &getGraph() { return settings.graph.get(); }
  const Graph &getGraph() const { return settings.graph.get(); }
  Settings &getSettings() { return settings; }
  const Settings &getSettings() const { return settings; }
  VGraphId getVirtualGraphId() const { return settings.vgraphId; }
  bool hasVirtualGraphId() const { return settings.vgraphId != unusedVGraphId; }
  void setVirtualGraphId(VGraphId v) { settings.vgraphId = v; }

  bool hasInput(InIndex i) const;
  bool hasOutput(OutIndex i) const;
  /// popart::error naming the op if the input or output is absent.
  Tensor *inTensor(InIndex i) const;
  Tensor *outTensor(OutIndex i) const;
  const TensorId &inId(InIndex i) const;
  const TensorId &outId(OutIndex i) const;
  const TensorInfo &inInfo(InIndex i) const;
  TensorInfo &outInfo(OutIndex i) const;
  const Shape &inShape(InIndex i) const;
  const Shape &outShape(OutIndex i) const;
  int inRank(InIndex i) const;
  int outRank(OutIndex i) const;
  /// The number of input (output) indices, absent optional ones included.
  int inTensorCount() const { return static_cast<int>(inputs.size()); }
  int outTensorCount() const { return static_cast<int>(outputs.size()); }

  /// A copy of the op (not connected).
  virtual std::unique_ptr<Op> clone() const = 0;
  /// Sets the info of every output from the inputs'.
  virtual void setup() = 0;

  /// The ops computing the gradients of this op's inputs (none if the op
  /// has no gradient).
  virtual std::vector<std::unique_ptr<Op>> getGradOps();
  /// For a grad op: where each of its inputs comes from.
  virtual const std::vector<GradInOutMapper> &gradInputInfo() const;
  /// For a grad op: output index -> the forward input it is the gradient of.
  virtual const std::map<int, int> &gradOutToNonGradIn() const;
  /// Whether the op computes a loss (the backward pass starts from it).
  virtual bool isLossOp() const { return false; }
  /// Whether the op draws random numbers (and so needs the session's seed).
  virtual bool requiresRandomSeed() const { return false; }
  /// A normalisation (what RecomputationType::NormOnly recomputes).
  virtual bool isNorm() const { return false; }
  /// The op writes input i in place (variable updates, and in-place
  /// variants, whose output 0 then is that input).
  virtual bool modifiesInputInPlace(InIndex) const { return false; }
  /// The in-place variants of this op, best first, each with a priority
  /// (the InPlace pattern tries them in that order). None by default.
  virtual std::vector<std::tuple<OperatorIdentifier, float>>
  inplacePriorityDefault() const {
    return {};
  }
  /// The variant `opid` of inplacePriorityDefault(): an op computing the
  /// same output 0 into the input it modifies (modifiesInputInPlace).
  virtual std::unique_ptr<Op>
  getInplaceVariant(const OperatorIdentifier &opid) const;

  /// How much outlining this op in a subgraph would help.
  virtual float getSubgraphValue() const { return getLowSubgraphValue(); }
  float getHighSubgraphValue() const { return 1000.0f; }
  float getLowSubgraphValue() const { return 0.1f; }

  virtual void appendAttributes(OpSerialiserBase &os) const;
  virtual void appendOutlineAttributes(OpSerialiserBase &os) const;

  /// "Add:7 'name'"
  std::string str() const;
  std::string debugName() const;

  // What the IR's passes ask of the built-in ops.
  /// The op only forwards its input 0 to output 0 (OpToIdentity).
  virtual bool isIdentityLike() const { return false; }
  /// Output 0 can be computed on the host when every input is constant.
  virtual bool canFold() const { return false; }
  virtual std::vector<char> fold() const;
  /// Folding needs only the inputs' shapes (Shape).
  virtual bool foldsFromShapesOnly() const { return false; }
  /// The data of input i as numbers; the input must be a constant or an
  /// initializer (whose initial value the op then keeps): popart::error
  /// naming the op and `what` otherwise.
  std::vector<double> constInputValues(InIndex i, const char *what) const;
  /// Whether input i is present and constInputValues can read it.
  bool hasConstInput(InIndex i) const;
  std::vector<int64_t> constInputInts(InIndex i, const char *what) const;
};

} // namespace popart

#endif
