#ifndef POPART_SRC_OPS_TRANSPOSEOP_HPP
#define POPART_SRC_OPS_TRANSPOSEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

namespace popart {

/// Transpose: dimensions permuted (reversed when perm is not given).
class TransposeOp : public Op {
public:
  TransposeOp(const OperatorIdentifier &id, const std::string &name,
              const Attributes &a);
  void setup() override;
  std::vector<int64_t> perm;
};

} // namespace popart

#endif
