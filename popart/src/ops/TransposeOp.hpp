#ifndef POPART_SRC_OPS_TRANSPOSEOP_HPP
#define POPART_SRC_OPS_TRANSPOSEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Transpose: dimensions permuted (reversed when perm is not given).
class TransposeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TransposeOp>(*this);
  }
  TransposeOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  std::vector<int64_t> perm;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a transpose: the output's gradient transposed back.
class TransposeGradOp : public GradOp {
public:
  explicit TransposeGradOp(const TransposeOp &fwd)
      : GradOp(fwd, "TransposeGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}),
        inversePerm(fwd.perm.size()) {
    for (std::size_t i = 0; i < fwd.perm.size(); ++i)
      inversePerm[static_cast<std::size_t>(fwd.perm[i])] = static_cast<int64_t>(i);
  }
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TransposeGradOp>(*this);
  }
  std::vector<int64_t> inversePerm;
};

} // namespace popart

#endif
