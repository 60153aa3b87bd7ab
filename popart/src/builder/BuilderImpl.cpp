#include "builder/BuilderImpl.hpp"

#include <popart/graphcoreoperators.hpp>
#include "builder/CastAttribute.hpp"
#include "onnx/OnnxUtil.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/operatoridentifier.hpp>

#include <onnx/defs/schema.h>

#include <algorithm>

namespace popart {

int64_t castTypeAttribute(const std::string &name) {
  return getONNXDataTypeAsInt(dataTypeFromString(name));
}

BuilderImpl::BuilderImpl() {
  onnxutil::registerGraphcoreSchemas();
  model_.set_ir_version(onnx::IR_VERSION);
  model_.set_producer_name("popart");
  model_.mutable_graph()->set_name("BuilderGraph");
}

void BuilderImpl::loadModel(onnx::ModelProto m) {
  model_ = std::move(m);
  ids.clear();
  const auto &g = model_.graph();
  for (const auto &i : g.input())
    ids.insert(i.name());
  for (const auto &i : g.initializer())
    ids.insert(i.name());
  for (const auto &n : g.node())
    for (const auto &o : n.output())
      ids.insert(o);
}

// Ids as the original makes them: the debug name (or a default) in the
// current name scope, with "/<n>" appended when it is taken.
TensorId BuilderImpl::uniqueId(const std::string &base) {
  std::string name = getNameScope(base);
  if (!ids.count(name)) {
    ids.insert(name);
    return name;
  }
  for (int n = 1;; ++n) {
    std::string candidate = name + "/" + std::to_string(n);
    if (!ids.count(candidate)) {
      ids.insert(candidate);
      return candidate;
    }
  }
}

void BuilderImpl::checkTensorExists(const TensorId &id,
                                    const std::string &where) const {
  if (!ids.count(id))
    throw error("{}: tensor '{}' is not in the model", where, id);
}

TensorId BuilderImpl::addInputTensor(const TensorInfo &info,
                                     const DebugContext &dc) {
  TensorId id = uniqueId(dc.empty() ? "input" : dc.getPathName());
  auto *input = model_.mutable_graph()->add_input();
  input->set_name(id);
  auto *tt = input->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(getONNXDataTypeAsInt(info.dataType()));
  auto *shape = tt->mutable_shape();
  for (auto d : info.shape())
    shape->add_dim()->set_dim_value(d);
  logging::builder::debug("Added input tensor '{}' {}", id, info);
  return id;
}

TensorId BuilderImpl::addInputTensor(const TensorInfo &info,
                                     const InputSettings &settings,
                                     const DebugContext &dc) {
  const TensorId id = addInputTensor(info, dc);
  auto *mode = model_.add_metadata_props();
  mode->set_key(std::string(sReplicatedStreamMode) + sNameDelimiter + id);
  mode->set_value(
      std::to_string(static_cast<int>(settings.replicatedStreamMode())));
  return id;
}

TensorId BuilderImpl::addUntypedInputTensor(const DebugContext &dc) {
  TensorId id = uniqueId(dc.empty() ? "input" : dc.getPathName());
  model_.mutable_graph()->add_input()->set_name(id);
  return id;
}

TensorId BuilderImpl::addInitializedInputTensor(const ConstVoidData &data,
                                                const DebugContext &dc) {
  if (!data.data && data.info.nelms() != 0)
    throw error("addInitializedInputTensor: no data given");
  TensorId id = uniqueId(dc.empty() ? "init_input" : dc.getPathName());
  auto *init = model_.mutable_graph()->add_initializer();
  init->set_name(id);
  onnxutil::setTensorData(*init, data.info, data.data);
  // Initializers are also graph inputs, as ONNX models of IR version 3 have
  // them (and as the original builder writes them).
  auto *input = model_.mutable_graph()->add_input();
  input->set_name(id);
  auto *tt = input->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(getONNXDataTypeAsInt(data.info.dataType()));
  for (auto d : data.info.shape())
    tt->mutable_shape()->add_dim()->set_dim_value(d);
  logging::builder::debug("Added initialized input '{}' {}", id, data.info);
  return id;
}

void BuilderImpl::addOutputTensor(const TensorId &id) {
  checkTensorExists(id, "addOutputTensor");
  for (const auto &o : model_.graph().output())
    if (o.name() == id)
      throw error("addOutputTensor: '{}' is already an output", id);
  auto *output = model_.mutable_graph()->add_output();
  output->set_name(id);
  // The checker wants graph outputs typed: take the type shape inference
  // gives, when it can.
  try {
    TensorInfo info = inferredInfo(id);
    auto *tt = output->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(getONNXDataTypeAsInt(info.dataType()));
    auto *shape = tt->mutable_shape();
    for (auto d : info.shape())
      shape->add_dim()->set_dim_value(d);
  } catch (const error &) {
    output->clear_type();
  }
}

void BuilderImpl::setNodeAttribute(onnx::NodeProto &node,
                                   const std::string &name, const any &value) {
  for (int i = 0; i < node.attribute_size(); ++i)
    if (node.attribute(i).name() == name) {
      node.mutable_attribute()->DeleteSubrange(i, 1);
      break;
    }
  auto *a = node.add_attribute();
  a->set_name(name);
  using AP = onnx::AttributeProto;
  if (auto v = nonstd::any_cast<int64_t>(&value)) {
    a->set_type(AP::INT);
    a->set_i(*v);
  } else if (auto v = nonstd::any_cast<int>(&value)) {
    a->set_type(AP::INT);
    a->set_i(*v);
  } else if (auto v = nonstd::any_cast<unsigned>(&value)) {
    a->set_type(AP::INT);
    a->set_i(*v);
  } else if (auto v = nonstd::any_cast<bool>(&value)) {
    a->set_type(AP::INT);
    a->set_i(*v ? 1 : 0);
  } else if (auto v = nonstd::any_cast<float>(&value)) {
    a->set_type(AP::FLOAT);
    a->set_f(*v);
  } else if (auto v = nonstd::any_cast<double>(&value)) {
    a->set_type(AP::FLOAT);
    a->set_f(static_cast<float>(*v));
  } else if (auto v = nonstd::any_cast<std::string>(&value)) {
    a->set_type(AP::STRING);
    a->set_s(*v);
  } else if (auto v = nonstd::any_cast<const char *>(&value)) {
    a->set_type(AP::STRING);
    a->set_s(*v);
  } else if (auto v = nonstd::any_cast<std::vector<int64_t>>(&value)) {
    a->set_type(AP::INTS);
    for (auto x : *v)
      a->add_ints(x);
  } else if (auto v = nonstd::any_cast<std::vector<float>>(&value)) {
    a->set_type(AP::FLOATS);
    for (auto x : *v)
      a->add_floats(x);
  } else if (auto v = nonstd::any_cast<std::vector<std::string>>(&value)) {
    a->set_type(AP::STRINGS);
    for (const auto &x : *v)
      a->add_strings(x);
  } else if (auto v = nonstd::any_cast<onnx::GraphProto>(&value)) {
    a->set_type(AP::GRAPH);
    *a->mutable_g() = *v;
  } else if (auto v = nonstd::any_cast<ConstVoidData>(&value)) {
    a->set_type(AP::TENSOR);
    onnxutil::setTensorData(*a->mutable_t(), v->info, v->data);
  } else {
    throw error("Attribute '{}' of node '{}' has a type the builder cannot "
                "store",
                name, node.name());
  }
}

int BuilderImpl::opsetVersion(const std::string &domain) const {
  for (const auto &o : model_.opset_import())
    if ((o.domain().empty() ? std::string(Domain::ai_onnx) : o.domain()) ==
        domain)
      return static_cast<int>(o.version());
  return domain == Domain::ai_onnx ? defaultAiOnnxOpset : 1;
}

std::vector<TensorId>
BuilderImpl::op(const std::string &domain, int opsetVersion,
                const std::string &opType, const std::vector<TensorId> &inputs,
                unsigned numOutputs,
                const std::map<std::string, any> &attributes,
                const DebugContext &dc) {
  const bool onnxDomain = domain == Domain::ai_onnx;
  // A model imports one version of each domain.
  const std::string importName = onnxDomain ? "" : domain;
  onnx::OperatorSetIdProto *import = nullptr;
  for (auto &o : *model_.mutable_opset_import())
    if (o.domain() == importName)
      import = &o;
  if (!import) {
    import = model_.add_opset_import();
    import->set_domain(importName);
    import->set_version(opsetVersion);
  } else if (import->version() != opsetVersion) {
    throw error("Invalid opset {} used to add {}: the model already uses "
                "opset {} of domain '{}'",
                opsetVersion, opType, import->version(),
                onnxDomain ? "ai.onnx" : domain);
  }
  for (const auto &in : inputs)
    if (!in.empty())
      checkTensorExists(in, opType);

  auto *node = model_.mutable_graph()->add_node();
  node->set_op_type(opType);
  if (!onnxDomain)
    node->set_domain(domain);
  node->set_name(getNameScope(dc.empty() ? opType : dc.getPathName()));
  for (const auto &in : inputs)
    node->add_input(in);
  std::vector<TensorId> outputs;
  const std::string base = dc.empty() ? opType : dc.getPathName();
  for (unsigned i = 0; i < numOutputs; ++i) {
    // Output ids "<name>:<index>" as the original's.
    TensorId id = uniqueId(base + ":" + std::to_string(i));
    node->add_output(id);
    outputs.push_back(id);
  }
  for (const auto &a : attributes)
    setNodeAttribute(*node, a.first, a.second);
  for (const auto &a : scopedAttributes)
    setNodeAttribute(*node, a.first, a.second);

  {
    const auto *schema = onnx::OpSchemaRegistry::Schema(
        opType, opsetVersion, onnxDomain ? "" : domain);
    if (!schema && onnxDomain)
      throw error("{} is not an operator of ai.onnx opset {}", opType,
                  opsetVersion);
    if (schema) {
      try {
        schema->Verify(*node);
      } catch (const std::exception &e) {
        const std::string what = e.what(), name = node->name();
        model_.mutable_graph()->mutable_node()->RemoveLast();
        throw error("{} (node '{}'): {}", opType, name, what);
      }
    }
  }
  logging::builder::trace("Added node {} '{}'", opType, node->name());
  return outputs;
}

onnx::NodeProto &BuilderImpl::nodeProducing(const TensorId &id) {
  for (auto &n : *model_.mutable_graph()->mutable_node())
    for (const auto &o : n.output())
      if (o == id)
        return n;
  throw error("No node produces tensor '{}'", id);
}

const onnx::NodeProto &BuilderImpl::nodeProducing(const TensorId &id) const {
  return const_cast<BuilderImpl *>(this)->nodeProducing(id);
}

void BuilderImpl::setScopedAttribute(const std::string &name, any value) {
  scopedAttributes[name] = std::move(value);
}
any BuilderImpl::getScopedAttribute(const std::string &name) const {
  auto it = scopedAttributes.find(name);
  if (it == scopedAttributes.end())
    throw error("Attribute '{}' is not set", name);
  return it->second;
}
bool BuilderImpl::hasScopedAttribute(const std::string &name) const {
  return scopedAttributes.count(name) != 0;
}
void BuilderImpl::clearScopedAttribute(const std::string &name) {
  scopedAttributes.erase(name);
}

void BuilderImpl::pushNameScope(const std::string &name) {
  nameScopes.push_back(name);
}
void BuilderImpl::popNameScope() {
  if (nameScopes.empty())
    throw error("popNameScope: no name scope to pop");
  nameScopes.pop_back();
}
std::string BuilderImpl::getNameScope(const std::string &name) const {
  std::string scoped;
  for (const auto &s : nameScopes)
    scoped += s + sNameDelimiter;
  return scoped + name;
}

bool BuilderImpl::isInput(const TensorId &id) const {
  for (const auto &i : model_.graph().input())
    if (i.name() == id)
      return true;
  return false;
}

bool BuilderImpl::isInitializer(const TensorId &id) const {
  for (const auto &i : model_.graph().initializer())
    if (i.name() == id)
      return true;
  return false;
}

TensorInfo BuilderImpl::inferredInfo(const TensorId &id) const {
  checkTensorExists(id, "getTensorShape");
  onnx::ModelProto copy = model_;
  onnxutil::inferShapes(copy);
  const auto &g = copy.graph();
  auto find = [&](const auto &list) -> const onnx::ValueInfoProto * {
    for (const auto &v : list)
      if (v.name() == id)
        return &v;
    return nullptr;
  };
  const onnx::ValueInfoProto *vi = find(g.input());
  if (!vi)
    vi = find(g.value_info());
  if (!vi)
    vi = find(g.output());
  if (!vi || !vi->has_type() || !vi->type().has_tensor_type() ||
      !vi->type().tensor_type().has_shape())
    throw error("The shape of tensor '{}' could not be inferred", id);
  return TensorInfo(vi->type());
}

} // namespace popart
