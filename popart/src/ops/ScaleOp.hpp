#ifndef POPART_SRC_OPS_SCALEOP_HPP
#define POPART_SRC_OPS_SCALEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// ai.graphcore Scale: the input times a constant.
class ScaleOp : public Op {
public:
  ScaleOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a)
      : Op(id, name), scale(a.getFloat("scale")) {}
  void setup() override { outInfo(0) = inInfo(0); }
  float scale;
};

} // namespace popart

#endif
