// The model a Builder makes: an ONNX ModelProto with the ids, name scopes
// and scoped attributes of the builder.
#ifndef POPART_SRC_BUILDER_BUILDERIMPL_HPP
#define POPART_SRC_BUILDER_BUILDERIMPL_HPP

#include <popart/dataflow.hpp>
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
