#ifndef POPART_SRC_OPS_DEPTHTOSPACEOP_HPP
#define POPART_SRC_OPS_DEPTHTOSPACEOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// A rearrangement of the input's elements: reshaped to `split`, its
/// dimensions permuted by `perm`, reshaped to the output's shape.
struct Rearrangement {
  Shape split;
  std::vector<unsigned> perm;
};

/// DepthToSpace (mode DCR or CRD) and SpaceToDepth of [N, C, H, W] with a
/// blocksize b: blocks of b x b channels become b x b pixels, or back.
class DepthToSpaceOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DepthToSpaceOp>(*this);
  }
  DepthToSpaceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a);
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  int64_t blocksize;
  std::string mode;
  Rearrangement rearrangement;
};

/// The gradient of a rearrangement: the output's gradient moved back.
class DepthToSpaceGradOp : public GradOp {
public:
  explicit DepthToSpaceGradOp(const DepthToSpaceOp &fwd)
      : GradOp(fwd, fwd.opid.type + "Grad", {{0, 0, GradOpInType::GradOut}},
               {{0, 0}}),
        rearrangement(fwd.rearrangement) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DepthToSpaceGradOp>(*this);
  }
  Rearrangement rearrangement;
};

} // namespace popart

#endif
