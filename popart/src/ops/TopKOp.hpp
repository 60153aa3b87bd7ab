#ifndef POPART_SRC_OPS_TOPKOP_HPP
#define POPART_SRC_OPS_TOPKOP_HPP

#include <popart/attributes.hpp>
#include "ops/GradOp.hpp"

#include <popart/op.hpp>

#include <memory>

namespace popart {

/// TopK (values and INT64 indices of the k largest or smallest along an
/// axis; k an attribute before opset 10, a constant input after), and
/// ArgMax/ArgMin (the index of the largest or smallest, with keepdims).
class TopKOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TopKOp>(*this);
  }
  TopKOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  bool isArg() const { return opid.type == "ArgMax" || opid.type == "ArgMin"; }
  int64_t axis;
  int64_t k = 1;
  bool largest = true;
  bool sorted = true;
  bool keepdims = true;         // ArgMax, ArgMin
  bool selectLastIndex = false; // ArgMax, ArgMin: the last of equal values
  std::vector<std::unique_ptr<Op>> getGradOps() override;

protected:
  /// For ops that set k, largest and sorted themselves.
  TopKOp(const OperatorIdentifier &id, const Op::Settings &settings,
         int64_t axis_)
      : Op(id, settings), axis(axis_) {}
};

/// ai.graphcore Sort: the values along `axis` in ascending order (or
/// descending), and their INT64 indices; TopK of every element. Equal
/// values keep their order (what `stable` asks for, and one of the orders
/// allowed without it).
class SortOp : public TopKOp {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SortOp>(*this);
  }
  SortOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  bool stable = false;
};

/// The gradient of TopK's values: each added at its index, zeros
/// elsewhere. Inputs: the values' gradient and the indices.
class TopKGradOp : public GradOp {
public:
  explicit TopKGradOp(const TopKOp &fwd)
      : GradOp(fwd, "TopKGrad",
               {{0, 0, GradOpInType::GradOut}, {1, 1, GradOpInType::Out}},
               {{0, 0}}),
        axis(fwd.axis) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TopKGradOp>(*this);
  }
  int64_t axis;
};

} // namespace popart

#endif
