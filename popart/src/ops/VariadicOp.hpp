#ifndef POPART_SRC_OPS_VARIADICOP_HPP
#define POPART_SRC_OPS_VARIADICOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Max, Min, Sum, Mean of one or more inputs, broadcast.
class VariadicOp : public Op {
public:
  VariadicOp(const OperatorIdentifier &id, const std::string &name,
             const Attributes &a);
  void setup() override;
};

} // namespace popart

#endif
