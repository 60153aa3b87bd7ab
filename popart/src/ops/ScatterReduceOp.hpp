#ifndef POPART_SRC_OPS_SCATTERREDUCEOP_HPP
#define POPART_SRC_OPS_SCATTERREDUCEOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>
#include <popart/op/scatterreduce.hpp>

#include <memory>
#include <string>

namespace popart {

/// ScatterReduce (ai.graphcore): inputs [src, index(, initial_values)].
/// Element e of src goes to the output element with the same position
/// except along `axis`, where it is index[e]; the values meeting there are
/// reduced with `reduction` (starting from initial_values when given).
/// Indices outside [0, axis_size) are skipped; output elements nothing
/// reaches hold the initial value, or 0 (1 for Mul) without one. With
/// group_size > 1, dimension 0 holds independent groups. The index is
/// src's shape, or (enable_index_broadcast) a vector along axis (other
/// dimensions 1, or missing) broadcast to it; without broadcasting a
/// smaller index uses the leading part of src only.
class ScatterReduceOp : public Op {
public:
  ScatterReduceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScatterReduceOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;

  int64_t axis; // normalised by setup()
  int64_t axisSize;
  ScatterReduction reduction;
  int64_t groupSize;
  bool indexBroadcastEnabled;
  /// Set by setup(): the index's shape with its missing dimensions as 1,
  /// and the part of src the index covers (all of it when broadcast).
  Shape indexShape, usedShape;
};

/// The gradients of src and of initial_values. Inputs: the output's
/// gradient, the index, src, the forward output, and initial_values when
/// the forward op has them.
class ScatterReduceGradOp : public GradOp {
public:
  explicit ScatterReduceGradOp(const ScatterReduceOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScatterReduceGradOp>(*this);
  }
  int64_t axis, axisSize;
  ScatterReduction reduction;
  int64_t groupSize;
  Shape indexShape, usedShape;
  bool hasInitialValues;
};

/// "sum", "max", "min", "mul" or "none".
std::string scatterReductionName(ScatterReduction r);

} // namespace popart

#endif
