#ifndef POPART_SRC_OPS_PADOP_HPP
#define POPART_SRC_OPS_PADOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Pad: "constant" (with a value), "edge" or "reflect" padding; the pads
/// (begins of every dimension, then ends) are an attribute before opset 11
/// and a constant input after.
class PadOp : public Op {
public:
  PadOp(const OperatorIdentifier &id, const std::string &name,
        const Attributes &a);
  void setup() override;
  std::string mode;
  std::vector<int64_t> lower, upper;
  float value = 0.0f;

private:
  std::vector<int64_t> attrPads;
};

} // namespace popart

#endif
