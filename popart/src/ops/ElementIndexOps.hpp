#ifndef POPART_SRC_OPS_ELEMENTINDEXOPS_HPP
#define POPART_SRC_OPS_ELEMENTINDEXOPS_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// The ops that address single elements by an index along one axis, the
/// other coordinates being the index's own: GatherElements, and
/// ScatterElements (and the older Scatter).
class ElementIndexOp : public Op {
public:
  ElementIndexOp(const OperatorIdentifier &id, const Op::Settings &settings,
                 const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 0)) {}
  int64_t axis;

protected:
  /// Checks the indices (input 1) against the data (input 0) and makes
  /// the axis non-negative.
  void checkIndices();
};

/// GatherElements: out[i] = data[i with i[axis] replaced by indices[i]],
/// of the indices' shape.
class GatherElementsOp : public ElementIndexOp {
public:
  using ElementIndexOp::ElementIndexOp;
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherElementsOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
};

/// The gradient of GatherElements' data: zeros with the output's gradient
/// added where the elements were taken. Inputs: the gradient and indices.
class GatherElementsGradOp : public GradOp {
public:
  explicit GatherElementsGradOp(const GatherElementsOp &fwd)
      : GradOp(fwd, "GatherElementsGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::In}},
               {{0, 0}}),
        axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GatherElementsGradOp>(*this);
  }
  int64_t axis;
};

/// ScatterElements (data, indices, updates): a copy of the data with
/// updates[i] written (or added or multiplied: `reduction`)
/// at the element GatherElements would read for i.
class ScatterElementsOp : public ElementIndexOp {
public:
  ScatterElementsOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScatterElementsOp>(*this);
  }
  void setup() override;
  /// "none", "add" or "mul".
  std::string reduction;
};

} // namespace popart

#endif
