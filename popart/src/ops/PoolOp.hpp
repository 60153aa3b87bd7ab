#ifndef POPART_SRC_OPS_POOLOP_HPP
#define POPART_SRC_OPS_POOLOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include "ops/Spatial.hpp"

namespace popart {

/// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool over the
/// field of X [N, C, field...] (1 to 3 spatial dimensions).
class PoolOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PoolOp>(*this);
  }
  PoolOp(const OperatorIdentifier &id, const Op::Settings &settings,
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
