#include "builder/BuilderImpl.hpp"
#include "onnx/OnnxUtil.hpp"
#include "ops/ScatterReduceOp.hpp"
#include "ops/LossOps.hpp"
#include "ops/PoplibsOptions.hpp"

#include <popart/builder.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <google/protobuf/text_format.h>

#include <fstream>

namespace popart {

std::vector<TensorId>
DomainOpSet::addOp(const OpType &opType, const std::vector<TensorId> &inputs,
                   unsigned numOutputs,
                   const std::map<std::string, any> &attributes,
                   const DebugContext &debugContext) {
  return impl->op(getDomain(), getOpsetVersion(), opType, inputs, numOutputs,
                  attributes, debugContext);
}

Builder::Builder() : impl_(std::make_unique<BuilderImpl>()) {}
Builder::~Builder() = default;

Builder &Builder::createSubgraphBuilder() {
  children_.push_back(create());
  return *children_.back();
}

std::unique_ptr<Builder> Builder::create() {
  return std::unique_ptr<Builder>(new Builder());
}

std::unique_ptr<Builder>
Builder::createFromOnnxModel(const std::string &modelProtoOrFilename) {
  auto b = create();
  b->loadModelProto(modelProtoOrFilename);
  return b;
}

void Builder::loadModelProto(const std::string &modelProtoOrFilename) {
  impl_->loadModel(onnxutil::getModelProto(modelProtoOrFilename));
}

TensorId Builder::addInputTensor(const TensorInfo &info,
                                 const DebugContext &dc) {
  return impl_->addInputTensor(info, dc);
}
TensorId Builder::addInputTensor(const std::string &dataType,
                                 const Shape &shape, const DebugContext &dc) {
  return impl_->addInputTensor(TensorInfo(dataType, shape), dc);
}
TensorId Builder::addInputTensor(const TensorInfo &info,
                                 const InputSettings &settings,
                                 const DebugContext &dc) {
  return impl_->addInputTensor(info, settings, dc);
}
TensorId Builder::addInputTensor(const std::string &dataType,
                                 const Shape &shape,
                                 const InputSettings &settings,
                                 const DebugContext &dc) {
  return impl_->addInputTensor(TensorInfo(dataType, shape), settings, dc);
}
TensorId Builder::addUntypedInputTensor(const DebugContext &dc) {
  return impl_->addUntypedInputTensor(dc);
}
TensorId Builder::addInitializedInputTensor(const ConstVoidData &initData,
                                            const DebugContext &dc) {
  return impl_->addInitializedInputTensor(initData, dc);
}
void Builder::addOutputTensor(const TensorId &id) { impl_->addOutputTensor(id); }

std::vector<TensorId>
Builder::customOp(const OperatorIdentifier &opid, int opsetVersion,
                  const std::vector<TensorId> &inputs,
                  const unsigned numOutputs,
                  const std::map<std::string, any> &attributes,
                  const DebugContext &dc) {
  return impl_->op(opid.domain, opsetVersion, opid.type, inputs, numOutputs,
                   attributes, dc);
}

void Builder::virtualGraph(const TensorId &id, int64_t value) {
  impl_->setNodeAttribute(impl_->nodeProducing(id), sVirtualGraphAttribute,
                          value);
}
void Builder::virtualGraph(const std::set<TensorId> &ids, int64_t value) {
  for (const auto &id : ids)
    virtualGraph(id, value);
}
int64_t Builder::getVirtualGraph(const TensorId &id) {
  return getInt64NodeAttribute(sVirtualGraphAttribute, {id});
}
void Builder::pipelineStage(const TensorId &id, int64_t value) {
  impl_->setNodeAttribute(impl_->nodeProducing(id), sPipelineStageAttribute,
                          value);
}
void Builder::executionPhase(const TensorId &id, int64_t value) {
  impl_->setNodeAttribute(impl_->nodeProducing(id), sExecutionPhaseAttribute,
                          value);
}
void Builder::setAvailableMemoryProportion(const TensorId &id,
                                           const float proportion) {
  if (proportion <= 0.0f || proportion > 1.0f)
    throw error("setAvailableMemoryProportion: {} is not in (0, 1]",
                proportion);
  impl_->setNodeAttribute(impl_->nodeProducing(id), sAvailMemAttribute,
                          proportion);
}
void Builder::setPartialsType(const TensorId &id, const std::string type) {
  partialsTypeOption(type, "setPartialsType"); // throws on a bad value
  impl_->setNodeAttribute(impl_->nodeProducing(id), sPartialsTypeAttribute,
                          type);
}
std::string Builder::getPartialsType(const TensorId &id) {
  const auto &node = impl_->nodeProducing(id);
  const auto *a = onnxutil::findAttribute(node, sPartialsTypeAttribute);
  return a ? a->s() : "FLOAT";
}
void Builder::excludePatterns(const TensorId &id,
                              const std::vector<std::string> &names) {
  impl_->setNodeAttribute(impl_->nodeProducing(id), sExcludePatternsAttribute,
                          names);
}

void Builder::excludePatterns(const std::set<TensorId> &ids,
                              const std::vector<std::string> &names) {
  for (const auto &id : ids)
    excludePatterns(id, names);
}

void Builder::recomputeOutputInBackwardPass(const TensorId &id,
                                            RecomputeType value) {
  impl_->setNodeAttribute(impl_->nodeProducing(id), sRecomputeAttribute,
                          static_cast<int64_t>(value));
}

void Builder::recomputeOutputInBackwardPass(const std::set<TensorId> &ids,
                                            RecomputeType value) {
  for (const auto &id : ids)
    recomputeOutputInBackwardPass(id, value);
}

bool Builder::getRecomputeOutputInBackwardPass(const TensorId &id) {
  const auto *a =
      onnxutil::findAttribute(impl_->nodeProducing(id), sRecomputeAttribute);
  return a && a->i() == static_cast<int64_t>(RecomputeType::Recompute);
}

std::vector<TensorId>
Builder::checkpointOutput(const std::vector<TensorId> &ids) {
  std::vector<TensorId> out;
  for (const auto &id : ids) {
    const TensorId c =
        impl_->op(Domain::ai_onnx, impl_->opsetVersion(Domain::ai_onnx),
                  "Identity", {id}, 1, {}, DebugContext("Checkpoint"))
            .at(0);
    recomputeOutputInBackwardPass(c, RecomputeType::Checkpoint);
    excludePatterns(c, {"PreUniRepl"});
    out.push_back(c);
  }
  return out;
}

#define POPART_NODE_ATTRIBUTE_SETTER(TYPE)                                     \
  void Builder::addNodeAttribute(const std::string &name, const TYPE &value,   \
                                 const std::set<TensorId> &outs) {             \
    for (const auto &o : outs)                                                 \
      impl_->setNodeAttribute(impl_->nodeProducing(o), name, value);           \
  }
POPART_NODE_ATTRIBUTE_SETTER(int64_t)
POPART_NODE_ATTRIBUTE_SETTER(std::vector<int64_t>)
POPART_NODE_ATTRIBUTE_SETTER(float)
POPART_NODE_ATTRIBUTE_SETTER(std::vector<float>)
POPART_NODE_ATTRIBUTE_SETTER(std::string)
POPART_NODE_ATTRIBUTE_SETTER(std::vector<std::string>)
#undef POPART_NODE_ATTRIBUTE_SETTER

namespace {
const onnx::AttributeProto &
requireAttribute(BuilderImpl &impl, const std::string &name,
                 const std::set<TensorId> &outs) {
  if (outs.empty())
    throw error("Attribute '{}': no node output names given", name);
  const auto &node = impl.nodeProducing(*outs.begin());
  const auto *a = onnxutil::findAttribute(node, name);
  if (!a)
    throw error("Node '{}' has no attribute '{}'", node.name(), name);
  return *a;
}
} // namespace

bool Builder::nodeHasAttribute(const std::string &name,
                               const std::set<TensorId> &outs) {
  for (const auto &o : outs)
    if (!onnxutil::findAttribute(impl_->nodeProducing(o), name))
      return false;
  return !outs.empty();
}
int64_t Builder::getInt64NodeAttribute(const std::string &name,
                                       const std::set<TensorId> &outs) {
  return requireAttribute(*impl_, name, outs).i();
}
std::vector<int64_t>
Builder::getInt64VectorNodeAttribute(const std::string &name,
                                     const std::set<TensorId> &outs) {
  const auto &a = requireAttribute(*impl_, name, outs);
  return {a.ints().begin(), a.ints().end()};
}
float Builder::getFloatNodeAttribute(const std::string &name,
                                     const std::set<TensorId> &outs) {
  return requireAttribute(*impl_, name, outs).f();
}
std::string Builder::getStringNodeAttribute(const std::string &name,
                                            const std::set<TensorId> &outs) {
  return requireAttribute(*impl_, name, outs).s();
}
void Builder::removeNodeAttribute(const std::string &name,
                                  const std::set<TensorId> &outs) {
  for (const auto &o : outs) {
    auto &node = impl_->nodeProducing(o);
    bool found = false;
    for (int i = 0; i < node.attribute_size(); ++i)
      if (node.attribute(i).name() == name) {
        node.mutable_attribute()->DeleteSubrange(i, 1);
        found = true;
        break;
      }
    if (!found)
      throw error("Node '{}' has no attribute '{}' to remove", node.name(),
                  name);
  }
}
std::vector<std::string>
Builder::getAllNodeAttributeNames(const std::set<TensorId> &outs) {
  std::vector<std::string> names;
  if (outs.empty())
    return names;
  for (const auto &a : impl_->nodeProducing(*outs.begin()).attribute())
    names.push_back(a.name());
  return names;
}

void Builder::setAttribute(const std::string &attribute, any value) {
  impl_->setScopedAttribute(attribute, std::move(value));
}
any Builder::getAttribute(const std::string attribute) const {
  return impl_->getScopedAttribute(attribute);
}
bool Builder::hasAttribute(const std::string &attribute) const {
  return impl_->hasScopedAttribute(attribute);
}
void Builder::clearAttribute(const std::string &attribute) {
  impl_->clearScopedAttribute(attribute);
}

void Builder::pushNameScope(const std::string &name) {
  impl_->pushNameScope(name);
}
void Builder::popNameScope() { impl_->popNameScope(); }
std::string Builder::getNameScope(const std::string &name) const {
  return impl_->getNameScope(name);
}
void Builder::setGraphName(const std::string &name) {
  impl_->model().mutable_graph()->set_name(name);
}

namespace {
// The model as written out: it imports ai.onnx (at the default opset when
// only ai.graphcore ops were added), as ONNX tools expect.
onnx::ModelProto modelToWrite(const onnx::ModelProto &model) {
  onnx::ModelProto out = model;
  for (const auto &o : out.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return out;
  auto *import = out.add_opset_import();
  import->set_domain("");
  import->set_version(defaultAiOnnxOpset);
  return out;
}
} // namespace

std::string Builder::getModelProto(bool humanReadable) const {
  const onnx::ModelProto model = modelToWrite(impl_->model());
  std::string out;
  if (humanReadable)
    google::protobuf::TextFormat::PrintToString(model, &out);
  else
    model.SerializeToString(&out);
  return out;
}

void Builder::saveModelProto(const std::string &fn) {
  std::ofstream out(fn, std::ios::binary);
  if (!out || !modelToWrite(impl_->model()).SerializeToOstream(&out))
    throw error("saveModelProto: cannot write '{}'", fn);
}

std::vector<TensorId> Builder::getInputTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &i : impl_->model().graph().input())
    ids.push_back(i.name());
  return ids;
}
std::vector<TensorId> Builder::getOutputTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &o : impl_->model().graph().output())
    ids.push_back(o.name());
  return ids;
}
std::vector<TensorId> Builder::getValueTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &n : impl_->model().graph().node())
    for (const auto &o : n.output())
      ids.push_back(o);
  return ids;
}
std::vector<TensorId> Builder::getTrainableTensorIds() const {
  std::vector<TensorId> ids;
  for (const auto &i : impl_->model().graph().initializer())
    ids.push_back(i.name());
  return ids;
}
bool Builder::hasValueInfo(const TensorId &id) const {
  for (const auto &v : impl_->model().graph().value_info())
    if (v.name() == id)
      return true;
  return impl_->isInput(id);
}
std::vector<int64_t> Builder::getTensorShape(const TensorId id) {
  return impl_->inferredInfo(id).shape();
}
bool Builder::isInitializer(const TensorId id) const {
  return impl_->isInitializer(id);
}
DataType Builder::getTensorDataType(const TensorId id) {
  return impl_->inferredInfo(id).dataType();
}
std::string Builder::getTensorDtypeString(const TensorId id) {
  return impl_->inferredInfo(id).data_type_lcase();
}

// ai.graphcore opset 1.
namespace {
std::vector<TensorId> one(const std::vector<TensorId> &args, const char *op) {
  if (args.size() != 1)
    throw error("{} takes 1 input, {} given", op, args.size());
  return args;
}
} // namespace

TensorId AiGraphcoreOpset1::gelu(const std::vector<TensorId> &args,
                                 const DebugContext &dc) {
  return addOp("Gelu", one(args, "Gelu"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::geluerf(const std::vector<TensorId> &args,
                                    const DebugContext &dc) {
  return addOp("GeluErf", one(args, "GeluErf"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::scale(const std::vector<TensorId> &args,
                                  float scale, const DebugContext &dc) {
  return addOp("Scale", one(args, "Scale"), 1, {{"scale", scale}}, dc).at(0);
}
TensorId AiGraphcoreOpset1::scaledadd(const std::vector<TensorId> &args,
                                      float scale0, float scale1,
                                      const DebugContext &dc) {
  if (args.size() != 2)
    throw error("ScaledAdd takes 2 inputs, {} given", args.size());
  return addOp("ScaledAdd", args, 1, {{"scale0", scale0}, {"scale1", scale1}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::detach(const std::vector<TensorId> &args,
                                   const DebugContext &dc) {
  return addOp("Detach", one(args, "Detach"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::nop(const std::vector<TensorId> &args,
                                const DebugContext &dc) {
  return addOp("Nop", one(args, "Nop"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::square(const std::vector<TensorId> &args,
                                   const DebugContext &dc) {
  return addOp("Square", one(args, "Square"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::swish(const std::vector<TensorId> &args,
                                  const DebugContext &dc) {
  return addOp("Swish", one(args, "Swish"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::log1p(const std::vector<TensorId> &args,
                                  const DebugContext &dc) {
  return addOp("Log1p", one(args, "Log1p"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::expm1(const std::vector<TensorId> &args,
                                  const DebugContext &dc) {
  return addOp("Expm1", one(args, "Expm1"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::l1loss(const std::vector<TensorId> &args,
                                   const float lambda,
                                   const ReductionType reduction,
                                   const DebugContext &dc) {
  return addOp("L1", one(args, "L1"), 1,
               {{"lambda", lambda},
                {"reduction", std::string(reductionAttributeValue(reduction))}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::nllloss(const std::vector<TensorId> &args,
                                    const ReductionType reduction,
                                    const nonstd::optional<int> ignoreIndex,
                                    bool inputIsLogProbability,
                                    const DebugContext &dc) {
  if (args.size() != 2)
    throw error("Nll takes 2 inputs (probabilities and labels), {} given",
                args.size());
  std::map<std::string, any> attributes = {
      {"reduction", std::string(reductionAttributeValue(reduction))},
      {"inputIsLogProbability", int64_t(inputIsLogProbability ? 1 : 0)}};
  if (ignoreIndex)
    attributes["ignoreIndex"] = int64_t(*ignoreIndex);
  return addOp("Nll", args, 1, attributes, dc).at(0);
}
TensorId AiGraphcoreOpset1::identityloss(const std::vector<TensorId> &args,
                                         const ReductionType reduction,
                                         const DebugContext &dc) {
  return addOp("IdentityLoss", one(args, "IdentityLoss"), 1,
               {{"reduction", std::string(reductionAttributeValue(reduction))}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::reshape(const TensorId &arg,
                                    const std::vector<int64_t> &shape,
                                    const DebugContext &dc) {
  return addOp("Reshape", {arg}, 1, {{"shape", shape}}, dc).at(0);
}

TensorId AiGraphcoreOpset1::atan2(const std::vector<TensorId> &args,
                                  const DebugContext &dc) {
  return addOp("Atan2", twoInputs(args, "Atan2"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::fmod(const std::vector<TensorId> &args,
                                 const DebugContext &dc) {
  return addOp("Fmod", twoInputs(args, "Fmod"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::remainder(const std::vector<TensorId> &args,
                                      const DebugContext &dc) {
  return addOp("Remainder", twoInputs(args, "Remainder"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::round(const std::vector<TensorId> &args,
                                  const DebugContext &dc) {
  return addOp("Round", one(args, "Round"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::nearbyint(const std::vector<TensorId> &args,
                                      const DebugContext &dc) {
  return addOp("NearbyInt", one(args, "NearbyInt"), 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::bitwiseGenericOp(const OperatorIdentifier &opid,
                                             const std::vector<TensorId> &args,
                                             const DebugContext &dc) {
  const std::size_t n = opid.type == "BitwiseNot" ? 1 : 2;
  if (args.size() != n)
    throw error("{} takes {} input{}, {} given", opid.type, n,
                n == 1 ? "" : "s", args.size());
  return addOp(opid.type, args, 1, {}, dc).at(0);
}
TensorId AiGraphcoreOpset1::bitwisenot(const std::vector<TensorId> &args,
                                       const DebugContext &dc) {
  return bitwiseGenericOp(Onnx::CustomOperators::BitwiseNot_1, args, dc);
}
TensorId AiGraphcoreOpset1::bitwiseand(const std::vector<TensorId> &args,
                                       const DebugContext &dc) {
  return bitwiseGenericOp(Onnx::CustomOperators::BitwiseAnd_1, args, dc);
}
TensorId AiGraphcoreOpset1::bitwiseor(const std::vector<TensorId> &args,
                                      const DebugContext &dc) {
  return bitwiseGenericOp(Onnx::CustomOperators::BitwiseOr_1, args, dc);
}
TensorId AiGraphcoreOpset1::bitwisexor(const std::vector<TensorId> &args,
                                       const DebugContext &dc) {
  return bitwiseGenericOp(Onnx::CustomOperators::BitwiseXor_1, args, dc);
}
TensorId AiGraphcoreOpset1::bitwisexnor(const std::vector<TensorId> &args,
                                        const DebugContext &dc) {
  return bitwiseGenericOp(Onnx::CustomOperators::BitwiseXnor_1, args, dc);
}

TensorId AiGraphcoreOpset1::reverse(const std::vector<TensorId> &args,
                                    const std::vector<int64_t> &dimensions,
                                    const DebugContext &dc) {
  return addOp("Reverse", one(args, "Reverse"), 1, {{"dimensions", dimensions}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::slice(const std::vector<TensorId> &args,
                                  const std::vector<int64_t> &ends,
                                  const std::vector<int64_t> &starts,
                                  const std::vector<int64_t> &axes,
                                  const DebugContext &dc) {
  std::map<std::string, any> attributes = {{"ends", ends}, {"starts", starts}};
  if (!axes.empty())
    attributes["axes"] = axes;
  return addOp("Slice", one(args, "Slice"), 1, attributes, dc).at(0);
}
TensorId AiGraphcoreOpset1::subsample(const std::vector<TensorId> &args,
                                      const std::vector<int64_t> &strides,
                                      const DebugContext &dc) {
  for (std::size_t i = 0; i < strides.size(); ++i)
    if (strides[i] == 0)
      throw error("Subsample: strides invalid, 0 stride at index {}", i);
  return addOp("Subsample", one(args, "Subsample"), 1, {{"strides", strides}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::depthtospace(const std::vector<TensorId> &args,
                                         int64_t blocksize,
                                         const std::string &mode,
                                         const DebugContext &dc) {
  return addOp("DepthToSpace", one(args, "DepthToSpace"), 1,
               {{"blocksize", blocksize}, {"mode", mode}}, dc)
      .at(0);
}

namespace {
void dynamicArgs(const std::vector<TensorId> &args, std::size_t n,
                 const char *op, const char *names) {
  if (args.size() != n)
    throw error("{} takes {} inputs ({}), {} given", op, n, names, args.size());
}
} // namespace

TensorId AiGraphcoreOpset1::dynamicslice(const std::vector<TensorId> &args,
                                         Attributes::Ints axes,
                                         Attributes::Ints sizes,
                                         Attributes::Int noOverlap,
                                         const DebugContext &dc) {
  dynamicArgs(args, 2, "DynamicSlice", "tensor, offset");
  return addOp("DynamicSlice", args, 1,
               {{"axes", axes}, {"sizes", sizes}, {"noOverlap", noOverlap}}, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::dynamicupdate(const std::vector<TensorId> &args,
                                          Attributes::Ints axes,
                                          Attributes::Ints sizes,
                                          Attributes::Int noOverlap,
                                          const DebugContext &dc) {
  dynamicArgs(args, 3, "DynamicUpdate", "tensor, offset, slice");
  return addOp("DynamicUpdate", args, 1,
               {{"axes", axes}, {"sizes", sizes}, {"noOverlap", noOverlap}}, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::dynamiczero(const std::vector<TensorId> &args,
                                        Attributes::Ints axes,
                                        Attributes::Ints sizes,
                                        const DebugContext &dc) {
  dynamicArgs(args, 2, "DynamicZero", "tensor, offset");
  return addOp("DynamicZero", args, 1, {{"axes", axes}, {"sizes", sizes}}, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::dynamicadd(const std::vector<TensorId> &args,
                                       Attributes::Ints axes,
                                       Attributes::Ints sizes,
                                       const DebugContext &dc) {
  dynamicArgs(args, 3, "DynamicAdd", "tensor, offset, slice");
  return addOp("DynamicAdd", args, 1, {{"axes", axes}, {"sizes", sizes}}, dc)
      .at(0);
}

TensorId AiGraphcoreOpset1::incrementmod(const std::vector<TensorId> &args,
                                         Attributes::Float increment,
                                         Attributes::Float modulus,
                                         const DebugContext &dc) {
  return addOp("IncrementMod", one(args, "IncrementMod"), 1,
               {{"increment", increment}, {"modulus", modulus}}, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::bucketize(const std::vector<TensorId> &args,
                                      Attributes::Int right,
                                      const DebugContext &dc) {
  return addOp("Bucketize", twoInputs(args, "Bucketize"), 1, {{"right", right}}, dc)
      .at(0);
}
std::vector<TensorId> AiGraphcoreOpset1::sort(const std::vector<TensorId> &args,
                                              Attributes::Int axis,
                                              Attributes::Int descending,
                                              Attributes::Int stable,
                                              const DebugContext &dc) {
  return addOp("Sort", one(args, "Sort"), 2,
               {{"axis", axis}, {"descending", descending}, {"stable", stable}},
               dc);
}

std::vector<TensorId> AiGraphcoreOpset1::reducemedian(
    const std::vector<TensorId> &args,
    const nonstd::optional<std::vector<int64_t>> &axes, int64_t keepdims,
    const DebugContext &dc) {
  std::map<std::string, any> attributes = {{"keepdims", keepdims}};
  if (axes)
    attributes["axes"] = *axes;
  return addOp("ReduceMedian", one(args, "ReduceMedian"), 2, attributes, dc);
}


std::vector<TensorId>
AiGraphcoreOpset1::groupnormalization(const std::vector<TensorId> &args,
                                      int64_t num_groups, float epsilon,
                                      const DebugContext &dc) {
  if (args.size() != 3)
    throw error("GroupNormalization takes 3 inputs (x, scale, bias), {} given",
                args.size());
  return addOp("GroupNormalization", args, 3,
               {{"num_groups", num_groups}, {"epsilon", epsilon}}, dc);
}


TensorId AiGraphcoreOpset1::groupedscatterreduce(
    const std::vector<TensorId> &args, Attributes::Int axis_size,
    Attributes::Int axis, ScatterReduction reduction, Attributes::Int group_size,
    Attributes::Int enable_index_broadcast, const DebugContext &dc) {
  if (args.size() != 2 && args.size() != 3)
    throw error("ScatterReduce takes 2 or 3 inputs (src, index, "
                "initial_values), {} given",
                args.size());
  return addOp("ScatterReduce", args, 1,
               {{"axis", axis},
                {"axis_size", axis_size},
                {"reduction", scatterReductionName(reduction)},
                {"group_size", group_size},
                {"enable_index_broadcast", enable_index_broadcast}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::scatterreduce(const std::vector<TensorId> &args,
                                          Attributes::Int axis_size,
                                          Attributes::Int axis,
                                          ScatterReduction reduction,
                                          Attributes::Int enable_index_broadcast,
                                          const DebugContext &dc) {
  return groupedscatterreduce(args, axis_size, axis, reduction, 1,
                              enable_index_broadcast, dc);
}


TensorId AiGraphcoreOpset1::groupedgather(const std::vector<TensorId> &args,
                                          Attributes::Int axis,
                                          Attributes::Int group_size,
                                          const DebugContext &dc) {
  return addOp("GroupedGather", twoInputs(args, "GroupedGather"), 1,
               {{"axis", axis}, {"group_size", group_size}}, dc)
      .at(0);
}


TensorId AiGraphcoreOpset1::init(Attributes::Ints shape,
                                 Attributes::Int data_type,
                                 Attributes::Int init_type,
                                 Attributes::Int batch_axis,
                                 const DebugContext &dc) {
  return addOp("Init", {}, 1,
               {{"shape", shape},
                {"data_type", data_type},
                {"init_type", init_type},
                {"batch_axis", batch_axis}},
               dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::init(Attributes::Ints shape,
                                 Attributes::Int data_type,
                                 Attributes::Int init_type,
                                 const DebugContext &dc) {
  return init(shape, data_type, init_type, -1, dc);
}


void AiGraphcoreOpset1::abort(const std::vector<TensorId> &args,
                              const DebugContext &dc) {
  if (args.size() > 1)
    throw error("Abort takes no input or a condition, {} given", args.size());
  addOp("Abort", args, 0, {}, dc);
}


TensorId AiGraphcoreOpset1::normalize_image(const std::vector<TensorId> &args,
                                            float scale,
                                            const DebugContext &dc) {
  if (args.size() != 3)
    throw error("NormalizeImage takes 3 inputs (image, offsets, scales), {} "
                "given",
                args.size());
  return addOp("NormalizeImage", args, 1, {{"scale", scale}}, dc).at(0);
}
TensorId AiGraphcoreOpset1::sequenceslice(const std::vector<TensorId> &args,
                                          Attributes::Int zeroUnused,
                                          const DebugContext &dc) {
  if (args.size() != 5)
    throw error("SequenceSlice takes 5 inputs (source, destination, N, "
                "sourceOffset, destinationOffset), {} given",
                args.size());
  return addOp("SequenceSlice", args, 1, {{"zeroUnused", zeroUnused}}, dc)
      .at(0);
}


TensorId AiGraphcoreOpset1::shapeddropout(const std::vector<TensorId> &args,
                                          const std::vector<int64_t> &shape,
                                          float ratio, const DebugContext &dc) {
  return addOp("ShapedDropout", one(args, "ShapedDropout"), 1,
               {{"shape", shape}, {"ratio", ratio}}, dc)
      .at(0);
}


TensorId AiGraphcoreOpset1::tensorremap(const std::vector<TensorId> &args,
                                        Attributes::Int remap_type,
                                        const DebugContext &dc) {
  return addOp("TensorRemap", one(args, "TensorRemap"), 1,
               {{"remap_type", remap_type}}, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::copyvarupdate(const std::vector<TensorId> &args,
                                          const DebugContext &dc) {
  return addOp("CopyVarUpdate", twoInputs(args, "CopyVarUpdate"), 1, {}, dc).at(0);
}


std::vector<TensorId> AiGraphcoreOpset1::batchnormalization(
    const std::vector<TensorId> &args, unsigned num_outputs, float epsilon,
    float momentum, const DebugContext &dc) {
  if (args.size() != 5)
    throw error("BatchNormalization takes 5 inputs (X, scale, B, mean, var), "
                "{} given",
                args.size());
  if (num_outputs < 1 || num_outputs > 5)
    throw error("BatchNormalization has 1 to 5 outputs (Y; in training the "
                "running mean and variance, the batch's mean and variance), "
                "not {}",
                num_outputs);
  return addOp("BatchNormalization", args, num_outputs,
               {{"epsilon", epsilon}, {"momentum", momentum}}, dc);
}


std::vector<TensorId> AiGraphcoreOpset1::call(const std::vector<TensorId> &args,
                                              unsigned num_outputs,
                                              const Builder &callee,
                                              const DebugContext &dc) {
  const onnx::ModelProto model =
      onnxutil::getModelProto(callee.getModelProto());
  const onnx::GraphProto &graph = model.graph();
  const auto check = [&](std::size_t given, int subgraph, const char *what) {
    if (given != static_cast<std::size_t>(subgraph))
      throw error("For CallOp '{}', number of {}s ({}) does not match that of "
                  "the callee subgraph ({})",
                  dc.getPathName(), what, given, subgraph);
  };
  check(args.size(), graph.input_size(), "input");
  check(num_outputs, graph.output_size(), "output");
  return addOp("Call", args, num_outputs,
               {{"num_outputs", int64_t(num_outputs)}, {"callee", graph}}, dc);
}

TensorId AiGraphcoreOpset1::packedDataBlock(
    const std::vector<TensorId> &args,
    const std::vector<int64_t> &maxSequenceLengths, int64_t resultSize,
    int64_t callbackBatchSize, const Builder &callback,
    const DebugContext &dc) {
  const onnx::ModelProto model =
      onnxutil::getModelProto(callback.getModelProto());
  if (args.size() != 3 * maxSequenceLengths.size() + 2)
    throw error("PackedDataBlock '{}': {} inputs given, but {} "
                "maxSequenceLengths need {} ([data, offsets, lengths] per "
                "callback input, then the result's offsets and lengths)",
                dc.getPathName(), args.size(), maxSequenceLengths.size(),
                3 * maxSequenceLengths.size() + 2);
  if (static_cast<std::size_t>(model.graph().input_size()) !=
      maxSequenceLengths.size())
    throw error("PackedDataBlock '{}': the callback has {} inputs, but {} "
                "maxSequenceLengths are given (one per packed input)",
                dc.getPathName(), model.graph().input_size(),
                maxSequenceLengths.size());
  if (model.graph().output_size() != 1)
    throw error("PackedDataBlock '{}': the callback must have one output, "
                "not {}",
                dc.getPathName(), model.graph().output_size());
  return addOp("PackedDataBlock", args, 1,
               {{"resultSize", resultSize},
                {"callbackBatchSize", callbackBatchSize},
                {"maxSequenceLengths", maxSequenceLengths},
                {"callback", model.graph()}},
               dc)
      .at(0);
}

TensorId AiGraphcoreOpset1::printtensor(
    const std::vector<TensorId> &args, int64_t print_gradient,
    const DebugContext &dc, const std::string &title,
    const int summariseThreshold, const int edgeItems, const int maxLineWidth,
    const int digits, const int floatFormat, const char separator,
    const char openBracket, const char closeBracket) {
  return addOp("PrintTensor", one(args, "PrintTensor"), 1,
               {{"print_gradient", print_gradient},
                {"title", title},
                {"summariseThreshold", int64_t(summariseThreshold)},
                {"edgeItems", int64_t(edgeItems)},
                {"maxLineWidth", int64_t(maxLineWidth)},
                {"digits", int64_t(digits)},
                {"floatFormat", int64_t(floatFormat)},
                {"separator", int64_t(separator)},
                {"openBracket", int64_t(openBracket)},
                {"closeBracket", int64_t(closeBracket)}},
               dc)
      .at(0);
}

namespace {
std::map<std::string, any>
collectiveAttributes(const nonstd::optional<CollectiveOperator> &op,
                     const nonstd::optional<CommGroup> &group) {
  std::map<std::string, any> attributes;
  if (op)
    attributes[sCollectiveOperator] = static_cast<int64_t>(*op);
  if (group)
    attributes[sCollectiveCommGroup] =
        std::vector<int64_t>{static_cast<int64_t>(group->type),
                             static_cast<int64_t>(group->replicaGroupSize)};
  return attributes;
}
} // namespace

TensorId AiGraphcoreOpset1::replicatedallreduce(
    const std::vector<TensorId> &args,
    const nonstd::optional<std::vector<int64_t>> &commGroup,
    const DebugContext &dc) {
  logging::builder::warn("[AiGraphcoreOpset1::replicatedallreduce] "
                         "Deprecated builder function.");
  std::map<std::string, any> attributes;
  if (commGroup)
    attributes[sCollectiveCommGroup] = *commGroup;
  return addOp("ReplicatedAllReduce", one(args, "ReplicatedAllReduce"), 1,
               attributes, dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::replicatedallreduce(
    const std::vector<TensorId> &args,
    const nonstd::optional<CollectiveOperator> &collectiveOperator,
    const nonstd::optional<CommGroup> &commGroup, const DebugContext &dc) {
  return addOp("ReplicatedAllReduce", one(args, "ReplicatedAllReduce"), 1,
               collectiveAttributes(collectiveOperator, commGroup), dc)
      .at(0);
}
TensorId AiGraphcoreOpset1::replicatedreducescatter(
    const std::vector<TensorId> &args,
    const nonstd::optional<CollectiveOperator> &collectiveOperator,
    const nonstd::optional<CommGroup> &commGroup, const DebugContext &dc) {
  return addOp("ReplicatedReduceScatter", one(args, "ReplicatedReduceScatter"),
               1, collectiveAttributes(collectiveOperator, commGroup), dc)
      .at(0);
}

} // namespace popart
