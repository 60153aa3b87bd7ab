#ifndef POPART_SRC_OPS_TOPKOP_HPP
#define POPART_SRC_OPS_TOPKOP_HPP

#include <popart/attributes.hpp>
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
};

} // namespace popart

#endif
