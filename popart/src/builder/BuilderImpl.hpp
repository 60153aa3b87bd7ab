// The model a Builder makes: an ONNX ModelProto with the ids, name scopes
// and scoped attributes of the builder.
#ifndef POPART_SRC_BUILDER_BUILDERIMPL_HPP
#define POPART_SRC_BUILDER_BUILDERIMPL_HPP

#include <popart/dataflow.hpp>
#include <popart/error.hpp>
#include <popart/debugcontext.hpp>
#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/voiddata.hpp>

#include <onnx/onnx_pb.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace popart {

// Node attribute names of the annotations (as in the original's models).
constexpr const char *sVirtualGraphAttribute = "__ipu_number";
constexpr const char *sPipelineStageAttribute = "__pipeline_stage";
constexpr const char *sExecutionPhaseAttribute = "__execution_phase";
constexpr const char *sAvailMemAttribute = "__available_memory_proportion";
constexpr const char *sPartialsTypeAttribute = "__partials_type";
constexpr const char *sEnableConvDitheringAttribute = "__enable_conv_dithering";
constexpr const char *sExcludePatternsAttribute = "__exclude_patterns";
constexpr const char *sRecomputeAttribute = "__recompute_output_in_backward_pass";

/// args, or a popart::error naming op unless there are two of them.
inline std::vector<TensorId> twoInputs(const std::vector<TensorId> &args,
                                 const char *op) {
  if (args.size() != 2)
    throw error("{} takes 2 inputs, {} given", op, args.size());
  return args;
}

class BuilderImpl {
public:
  BuilderImpl();

  TensorId addInputTensor(const TensorInfo &info, const DebugContext &dc);
  /// As above, with the input's settings in the model's metadata (the
  /// replicated stream mode, as the original keeps it).
  TensorId addInputTensor(const TensorInfo &info, const InputSettings &settings,
                          const DebugContext &dc);
  TensorId addUntypedInputTensor(const DebugContext &dc);
  TensorId addInitializedInputTensor(const ConstVoidData &data,
                                     const DebugContext &dc);
  void addOutputTensor(const TensorId &id);

  /// A node of domain/opType at opsetVersion; returns its output ids.
  std::vector<TensorId> op(const std::string &domain, int opsetVersion,
                           const std::string &opType,
                           const std::vector<TensorId> &inputs,
                           unsigned numOutputs,
                           const std::map<std::string, any> &attributes,
                           const DebugContext &dc);

  /// The model's opset of `domain`, or the builder's default for it when
  /// the model does not use the domain yet.
  int opsetVersion(const std::string &domain) const;

  onnx::NodeProto &nodeProducing(const TensorId &id);
  const onnx::NodeProto &nodeProducing(const TensorId &id) const;
  static void setNodeAttribute(onnx::NodeProto &node, const std::string &name,
                               const any &value);

  void setScopedAttribute(const std::string &name, any value);
  any getScopedAttribute(const std::string &name) const;
  bool hasScopedAttribute(const std::string &name) const;
  void clearScopedAttribute(const std::string &name);

  void pushNameScope(const std::string &name);
  void popNameScope();
  std::string getNameScope(const std::string &name) const;

  const onnx::ModelProto &model() const { return model_; }
  onnx::ModelProto &model() { return model_; }
  void loadModel(onnx::ModelProto m);

  bool isInput(const TensorId &id) const;
  bool isInitializer(const TensorId &id) const;
  /// The type and shape of a tensor, from ONNX shape inference.
  TensorInfo inferredInfo(const TensorId &id) const;

private:
  TensorId uniqueId(const std::string &base);
  void checkTensorExists(const TensorId &id, const std::string &where) const;

  onnx::ModelProto model_;
  std::set<TensorId> ids;
  std::vector<std::string> nameScopes;
  std::map<std::string, any> scopedAttributes;
};

} // namespace popart

#endif
