#ifndef POPART_SRC_OPS_RANGEOP_HPP
#define POPART_SRC_OPS_RANGEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Range: start, start + delta, ... before limit, from constant scalars;
/// always folded into a constant.
class RangeOp : public Op {
public:
  RangeOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &)
      : Op(id, name) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  double start = 0, delta = 1;
  int64_t count = 0;
};

} // namespace popart

#endif
