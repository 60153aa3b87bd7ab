// The library's side of the op table (popart/opmanager.hpp is the public
// side): making the op of an ONNX node, and the explicit registration of
// the built-in ops (ops/RegisterOps.cpp).
#ifndef POPART_SRC_IR_OPMANAGER_HPP
#define POPART_SRC_IR_OPMANAGER_HPP

#include <popart/opmanager.hpp>

#include <initializer_list>

namespace popart {

/// The op of a node whose definition is `version` of `type` (exactly that
/// version for ai.onnx; the latest not after it for other domains);
/// popart::error naming the node if it is not supported or if the node has
/// an attribute a built-in op does not read.
std::unique_ptr<Op> createOpForNode(const std::string &domain,
                                    const std::string &type, OpVersion version,
                                    Graph &graph, const std::string &nodeName,
                                    const Attributes &attributes,
                                    const std::vector<TensorId> &inputIds);

/// Registers the built-in op T for every definition given
/// (Onnx::Operators::Add_7, ..., all of one type); T is made as
/// T(opid, settings, attributes).
void registerBuiltinOp(const OperatorIdentifier &id,
                       OpManager::OpFactoryFunc factory);
template <typename T> void registerOp(std::initializer_list<OperatorIdentifier> ids) {
  for (const auto &id : ids)
    registerBuiltinOp(id, [](const OpCreatorInfo &info) -> std::unique_ptr<Op> {
      return std::make_unique<T>(info.opid, info.settings, info.attributes);
    });
}

void registerBuiltinOps();

} // namespace popart

#endif
