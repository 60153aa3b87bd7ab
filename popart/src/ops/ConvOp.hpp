#ifndef POPART_SRC_OPS_CONVOP_HPP
#define POPART_SRC_OPS_CONVOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>
#include "ops/PoplibsOptions.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// A Relu or Clip the ConvActivation pattern has fused into a FLOAT Conv
/// of an inference session: each output, after its bias, is clamped to
/// [min, max] (a Relu's are 0 and +infinity) as the op computed it.
struct ConvActivation {
  /// "" (none), "Relu" or "Clip": the op it was, for the IR's description
  /// and for the devices that run it apart.
  std::string type;
  float min = 0.0f, max = 0.0f;
};

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
  /// Set by the ConvActivation pattern.
  ConvActivation activation;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

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
