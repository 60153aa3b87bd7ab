#include "ops/HostIOOp.hpp"
#include "ir/Graph.hpp"

#include <popart/error.hpp>
#include <popart/tensor.hpp>

#include <sstream>

namespace popart {

HostIOOp::HostIOOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &)
    : Op(id, settings) {}

void HostIOOp::setup() {
  // Streams are the session's, which it moves once per batch: only the
  // main graph has them.
  if (!getGraph().isMainGraph())
    throw error("{}: host copies are made in the main graph only, not in "
                "subgraph '{}'",
                str(), getGraph().getGraphId());
  if (isLoad() && inTensor(0)->type != TensorType::Stream)
    throw error("{}: its input '{}' is not a host-to-device stream", str(),
                inId(0));
  outInfo(0) = inInfo(0);
}

CopyVarUpdateOp::CopyVarUpdateOp(const OperatorIdentifier &id,
                                 const Op::Settings &settings, const Attributes &)
    : Op(id, settings) {}

void CopyVarUpdateOp::setup() {
  if (inInfo(0) != inInfo(1)) {
    std::ostringstream a, b;
    a << inInfo(0);
    b << inInfo(1);
    throw error("{}: the updated tensor '{}' is {}, its new value '{}' is {}",
                str(), inId(0), a.str(), inId(1), b.str());
  }
  const Tensor *t = inTensor(0);
  if (t->type == TensorType::Const || t->type == TensorType::Stream)
    throw error("{}: '{}' is a {} tensor, which cannot be updated", str(),
                t->id, t->tensor_type());
  outInfo(0) = inInfo(0);
}

} // namespace popart
