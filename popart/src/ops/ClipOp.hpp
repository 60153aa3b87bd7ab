#ifndef POPART_SRC_OPS_CLIPOP_HPP
#define POPART_SRC_OPS_CLIPOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Clip-6 (min, max attributes) and Clip-11/12/13 (optional inputs).
class ClipOp : public Op {
public:
  ClipOp(const OperatorIdentifier &id, const std::string &name,
         const Attributes &a);
  void setup() override;
  float min, max;
};

} // namespace popart

#endif
