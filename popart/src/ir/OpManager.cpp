#include "ir/Graph.hpp"
#include "ir/OpManager.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <mutex>
#include <sstream>

namespace popart {
namespace {

struct Entry {
  OpManager::OpInfo info;
  bool builtin;
};

// (domain, type) -> version -> entry.
using Table = std::map<std::pair<std::string, std::string>,
                       std::map<OpVersion, Entry>>;

Table &rawTable() {
  static Table table;
  return table;
}

std::recursive_mutex &tableMutex() {
  static std::recursive_mutex m;
  return m;
}

// The table with the built-in ops in it (registered on first use, before
// any custom op that replaces one of them).
Table &table() {
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinOps(); });
  return rawTable();
}

void add(const OpManager::OpInfo &info, bool builtin) {
  std::lock_guard<std::recursive_mutex> lock(tableMutex());
  auto &versions = (builtin ? rawTable() : table())[{info.id.domain, info.id.type}];
  versions.erase(info.id.version);
  versions.emplace(info.id.version, Entry{info, builtin});
}

const Entry *find(const std::string &domain, const std::string &type,
                  OpVersion version, bool exact) {
  auto &t = table();
  auto it = t.find({domain, type});
  if (it == t.end())
    return nullptr;
  if (exact) {
    auto v = it->second.find(version);
    return v == it->second.end() ? nullptr : &v->second;
  }
  const Entry *best = nullptr;
  for (const auto &v : it->second)
    if (v.first <= version)
      best = &v.second;
  return best;
}

std::unique_ptr<Op> make(const Entry &entry, Graph &graph,
                         const std::string &name, const Attributes &attributes,
                         const std::vector<TensorId> &inputIds) {
  Op::Settings settings(graph, name);
  OpCreatorInfo info(entry.info.id, settings, attributes, inputIds);
  auto op = entry.info.factory(info);
  if (!op)
    throw error("The factory of op {} made no op for '{}'", entry.info.id.type,
                name);
  if (entry.builtin) {
    auto unread = attributes.unread();
    if (!unread.empty())
      throw error("Node '{}' of type {}:{}: attribute '{}' is not supported",
                  name, entry.info.id.type, entry.info.id.version,
                  unread.front());
  }
  return op;
}

} // namespace

void registerBuiltinOp(const OperatorIdentifier &id,
                       OpManager::OpFactoryFunc factory) {
  add(OpManager::OpInfo(id, true, OpDefinition(), std::move(factory)), true);
}

void OpManager::registerOp(const OpInfo &opInfo) { add(opInfo, false); }

std::unique_ptr<Op> createOpForNode(const std::string &domain,
                                    const std::string &type, OpVersion version,
                                    Graph &graph, const std::string &nodeName,
                                    const Attributes &attributes,
                                    const std::vector<TensorId> &inputIds) {
  const bool exact = domain == Domain::ai_onnx;
  const Entry *entry = find(domain, type, version, exact);
  if (!entry) {
    auto &t = table();
    auto it = t.find({domain, type});
    if (it == t.end())
      throw error("Op type '{}' (domain '{}', version {}) of node '{}' is not "
                  "supported",
                  type, domain, version, nodeName);
    std::ostringstream supported;
    for (const auto &v : it->second)
      supported << (supported.tellp() > 0 ? ", " : "") << v.first;
    throw error("Node '{}': version {} of op type '{}' is not supported "
                "(supported versions: {})",
                nodeName, version, type, supported.str());
  }
  return make(*entry, graph, nodeName, attributes, inputIds);
}

std::unique_ptr<Op> OpManager::createOp(const OperatorIdentifier &opid,
                                        Graph &graph, const std::string &name,
                                        const Attributes &attributes) {
  const Entry *entry = find(opid.domain, opid.type, opid.version, true);
  if (!entry)
    throw error("No op {} is registered", opid);
  return make(*entry, graph, name.empty() ? opid.type : name, attributes, {});
}

std::unique_ptr<Op>
OpManager::createOp(const OpDomain &domain, const OpType &type,
                    int opsetVersion, Graph &graph, const std::string &name,
                    const Attributes &attributes,
                    const std::vector<TensorId> &inputIds) {
  const OpVersion v = getOpVersionFromOpSet(domain, type, opsetVersion);
  const Entry *entry = v ? find(domain, type, v, true) : nullptr;
  if (!entry)
    throw error("No op {} of domain '{}' is registered for opset {}", type,
                domain, opsetVersion);
  return make(*entry, graph, name.empty() ? type : name, attributes, inputIds);
}

std::vector<OperatorIdentifier>
OpManager::getSupportedOperations(bool includePrivate) {
  std::vector<OperatorIdentifier> ids;
  for (const auto &e : table())
    for (const auto &v : e.second)
      if (includePrivate || v.second.info.isPublic)
        ids.push_back(v.second.info.id);
  return ids;
}

OpDefinitions OpManager::getSupportedOperationsDefinition(bool includePrivate) {
  OpDefinitions defs;
  for (const auto &e : table())
    for (const auto &v : e.second)
      if (includePrivate || v.second.info.isPublic)
        defs.emplace(v.second.info.id, v.second.info.details);
  return defs;
}

OpVersion OpManager::getOpVersionFromOpSet(const OpDomain &domain,
                                           const OpType &type,
                                           int opsetVersion) {
  const Entry *entry =
      find(domain, type, static_cast<OpVersion>(opsetVersion), false);
  return entry ? entry->info.id.version : 0;
}

OpCreatorInfo::OpCreatorInfo(const OperatorIdentifier &opid_,
                             const Op::Settings &settings_,
                             const Attributes &attributes_,
                             const std::vector<TensorId> &inputIds_)
    : opid(opid_), settings(settings_), attributes(attributes_),
      inputIds(inputIds_) {}

bool OpCreatorInfo::hasInputTensor(int index) const {
  return index >= 0 && index < static_cast<int>(inputIds.size()) &&
         !inputIds[index].empty() && settings.graph.get().hasTensor(inputIds[index]);
}

Tensor *OpCreatorInfo::getInputTensor(int index) const {
  if (!hasInputTensor(index))
    throw error("{}: no input {}", debugName(), index);
  return &settings.graph.get().getTensor(inputIds[index]);
}

const TensorInfo &OpCreatorInfo::getInputTensorInfo(int index) const {
  return getInputTensor(index)->info;
}

std::string OpCreatorInfo::debugName() const {
  std::ostringstream out;
  out << "Op(" << settings.name << ", " << opid << ")";
  return out.str();
}

void OpCreatorInfo::checkInputData(int index, DataType asType) const {
  const Tensor *t = getInputTensor(index);
  if (t->type != TensorType::Const)
    throw error("{}: input {} ('{}') must be a constant", debugName(), index,
                t->id);
  if (t->info.rank() > 1)
    throw error("{}: input {} ('{}') has rank {}; only the data of rank 0 "
                "and 1 inputs can be read",
                debugName(), index, t->id, t->info.rank());
  if (t->info.dataType() != asType)
    throw error("{}: input {} ('{}') is {}, not {}", debugName(), index, t->id,
                t->info.data_type(), getDataTypeInfo(asType).name());
}

} // namespace popart
