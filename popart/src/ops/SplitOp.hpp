#ifndef POPART_SRC_OPS_SPLITOP_HPP
#define POPART_SRC_OPS_SPLITOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Split along an axis into the sizes given (attribute before opset 13,
/// constant input after), or into equal parts.
class SplitOp : public Op {
public:
  SplitOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a);
  void setup() override;
  int64_t axis;
  std::vector<int64_t> sizes;

private:
  std::vector<int64_t> attrSplit;
};

} // namespace popart

#endif
