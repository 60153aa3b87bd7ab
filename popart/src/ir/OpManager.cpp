#include "ir/OpManager.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <mutex>
#include <sstream>

namespace popart {

OpManager &OpManager::instance() {
  static OpManager manager;
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinOps(manager); });
  return manager;
}

void OpManager::registerOp(const std::string &domain, const std::string &type,
                           std::vector<OpVersion> versions, OpFactory factory) {
  entries[{domain, type}] = Entry{std::move(versions), std::move(factory)};
}

std::unique_ptr<Op> OpManager::create(const std::string &domain,
                                      const std::string &type,
                                      OpVersion version,
                                      const std::string &nodeName,
                                      const Attributes &attributes) const {
  auto it = entries.find({domain, type});
  if (it == entries.end())
    throw error("Op type '{}' (domain '{}', version {}) of node '{}' is not "
                "supported",
                type, domain, version, nodeName);
  const auto &versions = it->second.versions;
  if (std::find(versions.begin(), versions.end(), version) == versions.end()) {
    std::ostringstream supported;
    for (auto v : versions)
      supported << (supported.tellp() > 0 ? ", " : "") << v;
    throw error("Node '{}': version {} of op type '{}' is not supported "
                "(supported versions: {})",
                nodeName, version, type, supported.str());
  }
  OperatorIdentifier opid(domain, type, version);
  auto op = it->second.factory(opid, nodeName, attributes);
  auto unread = attributes.unread();
  if (!unread.empty())
    throw error("Node '{}' of type {}:{}: attribute '{}' is not supported",
                nodeName, type, version, unread.front());
  return op;
}

std::vector<OperatorIdentifier> OpManager::getSupportedOperations() const {
  std::vector<OperatorIdentifier> ids;
  for (const auto &e : entries)
    for (auto v : e.second.versions)
      ids.emplace_back(e.first.first, e.first.second, v);
  return ids;
}

} // namespace popart
