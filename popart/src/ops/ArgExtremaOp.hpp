#ifndef POPART_SRC_OPS_ARGEXTREMAOP_HPP
#define POPART_SRC_OPS_ARGEXTREMAOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// ArgMax and ArgMin along an axis: INT64 indices, the axis kept as 1 or
/// dropped; the first of equal extremes, or the last (select_last_index).
class ArgExtremaOp : public Op {
public:
  ArgExtremaOp(const OperatorIdentifier &id, const std::string &name,
               const Attributes &a);
  void setup() override;
  int64_t axis; // normalised by setup()
  bool keepdims, selectLastIndex = false;
};

} // namespace popart

#endif
