#ifndef POPART_SRC_OPS_CASTOP_HPP
#define POPART_SRC_OPS_CASTOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Cast: the input converted to the type of the "to" attribute; CastLike:
/// to the type of its second input.
class CastOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CastOp>(*this);
  }
  CastOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  DataType to = DataType::UNDEFINED;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a cast: the output's gradient cast back to the
/// input's type.
class CastGradOp : public GradOp {
public:
  explicit CastGradOp(const CastOp &fwd)
      : GradOp(fwd, "CastGrad", {{0, 0, GradOpInType::GradOut}}, {{0, 0}}) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CastGradOp>(*this);
  }
};

} // namespace popart

#endif
