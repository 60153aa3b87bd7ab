#ifndef POPART_SRC_OPS_CONVTRANSPOSEOP_HPP
#define POPART_SRC_OPS_CONVTRANSPOSEOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>
#include "ops/PoplibsOptions.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// ConvTranspose: X [N, C, field...] with W [C, M / group, kernel...] and
/// an optional bias B [M]; the gradient of a convolution with respect to
/// its input.
class ConvTransposeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConvTransposeOp>(*this);
  }
  ConvTransposeOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a);
  void setup() override;
  int64_t group;
  SpatialAttributes spatial;
  /// The node's own convolution options, laid over the session's.
  PoplibsOptions poplibsOptions;
  std::vector<int64_t> outputPadding, outputShape;
  /// Resolved by setup(): the padding each side, the output field.
  std::vector<int64_t> padLower, padUpper;
  Shape kernel, outField;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradients of a transposed convolution: of the data (arg 0, the
/// convolution it transposes applied to the output's gradient), of the
/// weights (arg 1) and of the bias (arg 2).
class ConvTransposeGradOp : public GradOp {
public:
  ConvTransposeGradOp(const ConvTransposeOp &fwd, int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConvTransposeGradOp>(*this);
  }
  int arg;
  std::shared_ptr<const ConvTransposeOp> fwd;
};

} // namespace popart

#endif
