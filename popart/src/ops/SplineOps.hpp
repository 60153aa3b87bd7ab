// The spline convolution ops of ai.graphcore: SplineBasis (the B-spline
// basis of pseudo coordinates) and SplineWeighting (features weighted by
// the spline kernel). Neither has a gradient, as in the original.
#ifndef POPART_SRC_OPS_SPLINEOPS_HPP
#define POPART_SRC_OPS_SPLINEOPS_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Inputs: pseudo [numEdges, numDims] (FLOAT or FLOAT16), kernel_size
/// [numDims] (INT32), is_open_spline [numDims] (UINT8). Outputs: basis and
/// weightIndex (INT32), [numEdges, (degree + 1)^numDims].
class SplineBasisOp : public Op {
public:
  SplineBasisOp(const OperatorIdentifier &id, const Op::Settings &settings,
                const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SplineBasisOp>(*this);
  }
  void setup() override;
  void appendAttributes(OpSerialiserBase &os) const override;
  unsigned degree;
};

/// Inputs: input [numEdges, inChannels], weight [numWeights, inChannels,
/// outChannels], basis and weightIndex [numEdges, numSplines]. Output
/// [numEdges, outChannels].
class SplineWeightingOp : public Op {
public:
  SplineWeightingOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &)
      : Op(id, settings) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SplineWeightingOp>(*this);
  }
  void setup() override;
};

} // namespace popart

#endif
