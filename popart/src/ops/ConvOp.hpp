#ifndef POPART_SRC_OPS_CONVOP_HPP
#define POPART_SRC_OPS_CONVOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"
#include "ops/PoplibsOptions.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// Conv: X [N, C, field...] with W [M, C / group, kernel...] and an
/// optional bias B [M], 1 to 3 spatial dimensions.
class ConvOp : public Op {
public:
  ConvOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  int64_t group;
  SpatialAttributes spatial;
  /// The node's own convolution options, laid over the session's.
  PoplibsOptions poplibsOptions;
  /// Resolved by setup().
  std::vector<SpatialDim> dims;
  Shape kernel;
};

} // namespace popart

#endif
