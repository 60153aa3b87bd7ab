#include "transforms/GraphBuilding.hpp"
#include "ir/HostData.hpp"
#include "ir/OpManager.hpp"

#include <popart/attributes.hpp>

#include <onnx/onnx_pb.h>

namespace popart {

Attributes makeAttributes(const OpAttributes &attributes) {
  onnx::NodeProto node;
  for (const auto &a : attributes.ints) {
    auto *p = node.add_attribute();
    p->set_name(a.first);
    p->set_type(onnx::AttributeProto::INT);
    p->set_i(a.second);
  }
  for (const auto &a : attributes.intLists) {
    auto *p = node.add_attribute();
    p->set_name(a.first);
    p->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : a.second)
      p->add_ints(v);
  }
  for (const auto &a : attributes.floats) {
    auto *p = node.add_attribute();
    p->set_name(a.first);
    p->set_type(onnx::AttributeProto::FLOAT);
    p->set_f(a.second);
  }
  for (const auto &a : attributes.strings) {
    auto *p = node.add_attribute();
    p->set_name(a.first);
    p->set_type(onnx::AttributeProto::STRING);
    p->set_s(a.second);
  }
  return Attributes(node);
}

Op &addBuiltinOp(Graph &graph, const OperatorIdentifier &opid,
                 const std::string &name, const std::vector<TensorId> &ins,
                 const std::vector<TensorId> &outs,
                 const OpAttributes &attributes, const Op *like) {
  Attributes attrs = makeAttributes(attributes);
  auto op = createOpForNode(opid.domain, opid.type, opid.version, graph, name,
                            attrs, ins);
  if (like) {
    op->settings.vgraphId = like->settings.vgraphId;
    op->settings.pipelineStage = like->settings.pipelineStage;
    op->settings.executionPhase = like->settings.executionPhase;
    op->settings.executionContext = like->settings.executionContext;
  }
  Op &ref = graph.addOp(std::move(op));
  graph.connect(ref, ins, outs);
  return ref;
}

TensorId addScalarConst(Graph &graph, const TensorId &base, DataType type,
                        double value) {
  const TensorId id = graph.uniqueId(base);
  graph.addTensor(id, TensorInfo(type, {}), TensorType::Const,
                  fromDoubles({value}, type));
  return id;
}

TensorId addZerosConst(Graph &graph, const TensorId &base,
                       const TensorInfo &info) {
  const TensorId id = graph.uniqueId(base);
  graph.addTensor(id, info, TensorType::Const,
                  std::vector<char>(static_cast<std::size_t>(info.nbytes()), 0));
  return id;
}

} // namespace popart
