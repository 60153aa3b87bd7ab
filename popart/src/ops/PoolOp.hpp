#ifndef POPART_SRC_OPS_POOLOP_HPP
#define POPART_SRC_OPS_POOLOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"
#include "ops/Spatial.hpp"

namespace popart {

/// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool over the
/// field of X [N, C, field...] (1 to 3 spatial dimensions).
class PoolOp : public Op {
public:
  PoolOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  bool isMax() const { return opid.type == "MaxPool" || opid.type == "GlobalMaxPool"; }
  bool isGlobal() const { return opid.type.rfind("Global", 0) == 0; }
  SpatialAttributes spatial;
  /// AveragePool: padding counts in the divisor.
  bool countIncludePad = false;
  /// Resolved by setup().
  std::vector<SpatialDim> dims;
  Shape kernel;
};

} // namespace popart

#endif
