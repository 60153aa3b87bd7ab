#ifndef POPART_SRC_OPS_WHEREOP_HPP
#define POPART_SRC_OPS_WHEREOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Where: X where the condition is true, else Y, broadcast.
class WhereOp : public Op {
public:
  WhereOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &)
      : Op(id, name) {}
  void setup() override;
};

} // namespace popart

#endif
