#ifndef POPART_SRC_OPS_SCALEDADDOP_HPP
#define POPART_SRC_OPS_SCALEDADDOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// ai.graphcore ScaledAdd: scale0 * X + scale1 * Y.
class ScaledAddOp : public Op {
public:
  ScaledAddOp(const OperatorIdentifier &id, const std::string &name,
              const Attributes &a)
      : Op(id, name), scale0(a.getFloat("scale0", 1.0f)),
        scale1(a.getFloat("scale1", 1.0f)) {}
  void setup() override { outInfo(0) = npOut(inInfo(0), inInfo(1)); }
  float scale0, scale1;
};

} // namespace popart

#endif
