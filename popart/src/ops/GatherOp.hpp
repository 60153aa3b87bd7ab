#ifndef POPART_SRC_OPS_GATHEROP_HPP
#define POPART_SRC_OPS_GATHEROP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Gather: slices of the data along an axis at the indices (numpy.take).
class GatherOp : public Op {
public:
  GatherOp(const OperatorIdentifier &id, const std::string &name,
           const Attributes &a)
      : Op(id, name), axis(a.getInt("axis", 0)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  int64_t axis;
};

} // namespace popart

#endif
