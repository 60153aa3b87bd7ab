#include "ops/IdentityOp.hpp"
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

namespace popart {

IdentityOp::IdentityOp(const OperatorIdentifier &id,
                       const Op::Settings &settings, const Attributes &)
    : Op(id, settings) {}

void IdentityOp::setup() { outInfo(0) = inInfo(0); }

bool IdentityOp::isIdentityLike() const {
  if (opid.type == "Nop")
    return false;
  // A Detach stays in training, where it stops the gradient.
  return opid.type != "Detach" || !getGraph().getIr().isTraining();
}

std::vector<std::unique_ptr<Op>> IdentityOp::getGradOps() {
  if (opid.type == "Detach")
    return {};
  return gradOps<IdentityGradOp>(*this);
}

IdentityGradOp::IdentityGradOp(const Op &fwd)
    : GradOp(fwd, "IdentityGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}) {}

} // namespace popart
