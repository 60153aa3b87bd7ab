#ifndef POPART_SRC_OPS_POOLOP_HPP
#define POPART_SRC_OPS_POOLOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

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
  /// MaxPool's Indices output: the flat positions in the input, the
  /// spatial dimensions row-major (0) or column-major (1).
  int64_t storageOrder = 0;
  /// MaxPool with dilations, the Indices output or an integer input: a scan
  /// over the kernel's positions (ops/PoolLowering.cpp), not popnn.
  bool scansWindows() const;
  /// Resolved by setup().
  std::vector<SpatialDim> dims;
  Shape kernel;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of a pooling: each output's gradient shared out over its
/// window (MaxPool: to the inputs equal to the maximum). Inputs: the
/// output's gradient, the input and the output.
class PoolGradOp : public GradOp {
public:
  explicit PoolGradOp(const PoolOp &fwd)
      : GradOp(fwd, fwd.opid.type + "Grad",
               {{0, 0, GradOpInType::GradOut},
                {1, 0, GradOpInType::In},
                {2, 0, GradOpInType::Out}},
               {{0, 0}}),
        fwd(std::static_pointer_cast<const PoolOp>(
            std::shared_ptr<Op>(fwd.clone()))) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PoolGradOp>(*this);
  }
  std::shared_ptr<const PoolOp> fwd;
};

} // namespace popart

#endif
