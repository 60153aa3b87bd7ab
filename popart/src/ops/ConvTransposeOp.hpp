#ifndef POPART_SRC_OPS_CONVTRANSPOSEOP_HPP
#define POPART_SRC_OPS_CONVTRANSPOSEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"
#include "ops/PoplibsOptions.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// ConvTranspose: X [N, C, field...] with W [C, M / group, kernel...] and
/// an optional bias B [M]; the gradient of a convolution with respect to
/// its input.
class ConvTransposeOp : public Op {
public:
  ConvTransposeOp(const OperatorIdentifier &id, const std::string &name,
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
};

} // namespace popart

#endif
