#ifndef POPART_SRC_OPS_RANGEOP_HPP
#define POPART_SRC_OPS_RANGEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Range: start, start + delta, ... before limit, from constant scalars;
/// always folded into a constant.
class RangeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<RangeOp>(*this);
  }
  RangeOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  double start = 0, delta = 1;
  int64_t count = 0;
};

} // namespace popart

#endif
