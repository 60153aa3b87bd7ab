// The table of ops the IR can make from ONNX nodes: for each domain and
// type, the versions of the definition supported and a factory. Built-in
// ops are registered explicitly by registerBuiltinOps (ops/RegisterOps.cpp).
#ifndef POPART_SRC_IR_OPMANAGER_HPP
#define POPART_SRC_IR_OPMANAGER_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace popart {

using OpFactory = std::function<std::unique_ptr<Op>(
    const OperatorIdentifier &, const std::string &name, const Attributes &)>;

class OpManager {
public:
  static OpManager &instance();
  void registerOp(const std::string &domain, const std::string &type,
                  std::vector<OpVersion> versions, OpFactory factory);
  /// The op for a node of `type` whose definition is `version`;
  /// popart::error naming the node if it is not supported.
  std::unique_ptr<Op> create(const std::string &domain, const std::string &type,
                             OpVersion version, const std::string &nodeName,
                             const Attributes &attributes) const;
  std::vector<OperatorIdentifier> getSupportedOperations() const;

private:
  struct Entry {
    std::vector<OpVersion> versions;
    OpFactory factory;
  };
  std::map<std::pair<std::string, std::string>, Entry> entries;
};

void registerBuiltinOps(OpManager &manager);

/// Registers T for every definition given (Onnx::Operators::Add_7, ...,
/// all of one type); T is made as T(opid, name, attributes).
template <typename T>
void registerOp(OpManager &m, std::initializer_list<OperatorIdentifier> ids) {
  std::vector<OpVersion> versions;
  for (const auto &id : ids)
    versions.push_back(id.version);
  const OperatorIdentifier &first = *ids.begin();
  m.registerOp(first.domain, first.type, versions,
               [](const OperatorIdentifier &id, const std::string &name,
                  const Attributes &a) -> std::unique_ptr<Op> {
                 return std::make_unique<T>(id, name, a);
               });
}

} // namespace popart

#endif
