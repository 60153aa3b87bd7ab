#ifndef POPART_SRC_OPS_CONVOP_HPP
#define POPART_SRC_OPS_CONVOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>
#include "ops/PoplibsOptions.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// Conv: X [N, C, field...] with W [M, C / group, kernel...] and an
/// optional bias B [M], 1 to 3 spatial dimensions.
class ConvOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConvOp>(*this);
  }
  ConvOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  int64_t group;
  SpatialAttributes spatial;
  /// The node's own convolution options, laid over the session's.
  PoplibsOptions poplibsOptions;
  /// Resolved by setup().
  std::vector<SpatialDim> dims;
  Shape kernel;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

protected:
  /// Resolves kernel and dims for data of shape x and weights of shape w
  /// (inputs 0 and `wIn`) and returns the output's shape.
  Shape resolveGeometry(InIndex wIn);
};

/// The gradients of a convolution: of the data (arg 0, from the output's
/// gradient and the weights), of the weights (arg 1, from the output's
/// gradient and the data) and of the bias (arg 2, the output's gradient
/// summed over all but the channels).
class ConvGradOp : public GradOp {
public:
  ConvGradOp(const ConvOp &fwd, int arg);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ConvGradOp>(*this);
  }
  int arg;
  /// The forward convolution's attributes, as resolved by its setup.
  std::shared_ptr<const ConvOp> fwd;
};

} // namespace popart

#endif
