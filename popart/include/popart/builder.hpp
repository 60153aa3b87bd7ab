// Builder: makes an ONNX model (a ModelProto) op by op. The op methods of
// the ai.onnx opsets (AiOnnxOpset6 ... ) are generated at build time from
// the ONNX operator schemas into popart/builder.gen.hpp.
#ifndef POPART_BUILDER_HPP
#define POPART_BUILDER_HPP

#include <popart/dataflow.hpp>
#include <popart/debugcontext.hpp>
#include <popart/domainopset.hpp>
#include <popart/names.hpp>
#include <popart/op.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/reductiontype.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/vendored/optional.hpp>
#include <popart/voiddata.hpp>

#include <popart/builder.gen.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace popart {

class Builder;

/// The ai.graphcore operators.
class POPART_API AiGraphcoreOpset1 : private DomainOpSet {
protected:
  int getOpsetVersion() const override { return 1; }
  const char *getDomain() const override { return Domain::ai_graphcore; }

public:
  explicit AiGraphcoreOpset1(std::unique_ptr<BuilderImpl> &impl_)
      : DomainOpSet(impl_) {}

  /// Gelu with the tanh approximation.
  TensorId gelu(const std::vector<TensorId> &args,
                const DebugContext &debugContext = {});
  /// Gelu with the exact erf form.
  TensorId geluerf(const std::vector<TensorId> &args,
                   const DebugContext &debugContext = {});
  /// args[0] * scale.
  TensorId scale(const std::vector<TensorId> &args, float scale,
                 const DebugContext &debugContext = {});
  /// args[0] * scale0 + args[1] * scale1.
  TensorId scaledadd(const std::vector<TensorId> &args, float scale0,
                     float scale1, const DebugContext &debugContext = {});
  /// The input, stopping gradients (identity in inference).
  TensorId detach(const std::vector<TensorId> &args,
                  const DebugContext &debugContext = {});
  /// The input, unchanged and never optimised away.
  TensorId nop(const std::vector<TensorId> &args,
               const DebugContext &debugContext = {});
  TensorId square(const std::vector<TensorId> &args,
                  const DebugContext &debugContext = {});
  TensorId swish(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  TensorId log1p(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  TensorId expm1(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  /// Reshape to a shape given as an attribute.
  TensorId reshape(const TensorId &arg, const std::vector<int64_t> &shape,
                   const DebugContext &debugContext = {});

  // Losses: the output is the loss, reduced by `reduction` (a scalar for
  // Sum and Mean, the input's shape less the class dimension for
  // NoReduction).
  /// lambda * |args[0]|.
  TensorId l1loss(const std::vector<TensorId> &args, const float lambda,
                  const ReductionType reduction = ReductionType::Mean,
                  const DebugContext &debugContext = {});
  /// The negative log likelihood of args[0] (probabilities [..., classes],
  /// or their logarithms if inputIsLogProbability) at the labels args[1]
  /// ([...]); labels equal to ignoreIndex count for nothing (and a mean is
  /// over the others).
  TensorId nllloss(const std::vector<TensorId> &args,
                   const ReductionType reduction = ReductionType::Mean,
                   const nonstd::optional<int> ignoreIndex = nonstd::nullopt,
                   bool inputIsLogProbability = false,
                   const DebugContext &debugContext = {});
  /// args[0] itself as the loss.
  TensorId identityloss(const std::vector<TensorId> &args,
                        const ReductionType reduction = ReductionType::Mean,
                        const DebugContext &debugContext = {});
};

class POPART_API Builder {
public:
  static std::unique_ptr<Builder> create();
  /// A builder holding the model of a file, or of serialised ModelProto
  /// bytes.
  static std::unique_ptr<Builder>
  createFromOnnxModel(const std::string &modelProtoOrFilename);
  ~Builder();

  // Inputs and outputs.
  TensorId addInputTensor(const TensorInfo &tensorInfo,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const std::string &dataType, const Shape &shape,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const TensorInfo &tensorInfo,
                          const InputSettings &settings,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const std::string &dataType, const Shape &shape,
                          const InputSettings &settings,
                          const DebugContext &debugContext = {});
  /// An input of the subgraph with no type or shape.
  TensorId addUntypedInputTensor(const DebugContext &debugContext = {});
  TensorId addInitializedInputTensor(const ConstVoidData &initData,
                                     const DebugContext &debugContext = {});
  void addOutputTensor(const TensorId &arg0);

  // Opsets.
#define POPART_BUILDER_OPSET(N)                                                \
  AiOnnxOpset##N aiOnnxOpset##N() { return AiOnnxOpset##N(this->impl_); }
  POPART_BUILDER_OPSET(6)
  POPART_BUILDER_OPSET(7)
  POPART_BUILDER_OPSET(8)
  POPART_BUILDER_OPSET(9)
  POPART_BUILDER_OPSET(10)
  POPART_BUILDER_OPSET(11)
  POPART_BUILDER_OPSET(12)
  POPART_BUILDER_OPSET(13)
  POPART_BUILDER_OPSET(14)
  POPART_BUILDER_OPSET(15)
  POPART_BUILDER_OPSET(16)
  POPART_BUILDER_OPSET(17)
#undef POPART_BUILDER_OPSET
  AiGraphcoreOpset1 aiGraphcoreOpset1() {
    return AiGraphcoreOpset1(this->impl_);
  }

  /// A node of any operator (a custom op, or one the opsets lack).
  std::vector<TensorId>
  customOp(const OperatorIdentifier &opid, int opsetVersion,
           const std::vector<TensorId> &inputs, const unsigned numOutputs,
           const std::map<std::string, any> &attributes,
           const DebugContext &debugContext = {});

  // Annotations (node attributes of the node producing a tensor).
  void virtualGraph(const TensorId &nodeOutputName, int64_t value = 0);
  void virtualGraph(const std::set<TensorId> &nodeOutputNames,
                    int64_t value = 0);
  int64_t getVirtualGraph(const TensorId &nodeOutputName);
  void pipelineStage(const TensorId &nodeOutputName, int64_t value);
  void executionPhase(const TensorId &nodeOutputName, int64_t value = 0);
  void setAvailableMemoryProportion(const TensorId &nodeOutputName,
                                    const float availableMemoryProportion);
  void setPartialsType(const TensorId &nodeOutputName,
                       const std::string partialsType);
  std::string getPartialsType(const TensorId &nodeOutputName);
  void excludePatterns(const TensorId &nodeOutputName,
                       const std::vector<std::string> &patternNames);
  void excludePatterns(const std::set<TensorId> &nodeOutputNames,
                       const std::vector<std::string> &patternNames);

  /// Whether the node producing the tensor runs again in the backward pass
  /// (Recompute) or keeps its output for it (Checkpoint).
  void recomputeOutputInBackwardPass(
      const TensorId &nodeOutputName,
      RecomputeType value = RecomputeType::Recompute);
  void recomputeOutputInBackwardPass(
      const std::set<TensorId> &nodeOutputNames,
      RecomputeType value = RecomputeType::Recompute);
  bool getRecomputeOutputInBackwardPass(const TensorId &nodeOutputName);
  /// Each tensor passed through a node that keeps it for the backward pass
  /// (a checkpoint); returns the checkpointed tensors.
  std::vector<TensorId> checkpointOutput(const std::vector<TensorId> &nodeOutputNames);

  void addNodeAttribute(const std::string &attributeName,
                        const int64_t &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<int64_t> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const float &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<float> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::string &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<std::string> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  bool nodeHasAttribute(const std::string &attributeName,
                        const std::set<TensorId> &nodeOutputNames);
  int64_t getInt64NodeAttribute(const std::string &attributeName,
                                const std::set<TensorId> &nodeOutputNames);
  std::vector<int64_t>
  getInt64VectorNodeAttribute(const std::string &attributeName,
                              const std::set<TensorId> &nodeOutputNames);
  float getFloatNodeAttribute(const std::string &attributeName,
                              const std::set<TensorId> &nodeOutputNames);
  std::string getStringNodeAttribute(const std::string &attributeName,
                                     const std::set<TensorId> &nodeOutputNames);
  void removeNodeAttribute(const std::string &attributeName,
                           const std::set<TensorId> &nodeOutputNames);
  std::vector<std::string>
  getAllNodeAttributeNames(const std::set<TensorId> &nodeOutputNames);

  /// Attributes given to every node added while they are set (for example
  /// "__ipu_number" from virtualGraph scopes).
  void setAttribute(const std::string &attribute, any value);
  any getAttribute(const std::string attribute) const;
  bool hasAttribute(const std::string &attribute) const;
  void clearAttribute(const std::string &attribute);

  // Name scopes: "scope/" is prefixed to the names of ops and tensors.
  void pushNameScope(const std::string &name);
  void popNameScope();
  std::string getNameScope(const std::string &name = "") const;
  void setGraphName(const std::string &name);

  // The model.
  /// The serialised ModelProto (text format when humanReadable).
  std::string getModelProto(bool humanReadable = false) const;
  void saveModelProto(const std::string &fn);
  void loadModelProto(const std::string &modelProtoOrFilename);

  std::vector<TensorId> getInputTensorIds() const;
  std::vector<TensorId> getOutputTensorIds() const;
  std::vector<TensorId> getValueTensorIds() const;
  std::vector<TensorId> getTrainableTensorIds() const;
  bool hasValueInfo(const TensorId &id) const;
  /// The shape of a tensor, from ONNX shape inference.
  std::vector<int64_t> getTensorShape(const TensorId id);
  bool isInitializer(const TensorId id) const;
  DataType getTensorDataType(const TensorId id);
  std::string getTensorDtypeString(const TensorId id);

private:
  Builder();
  std::unique_ptr<BuilderImpl> impl_;
};

} // namespace popart

#endif
