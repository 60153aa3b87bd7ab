#ifndef POPART_SRC_OPS_TRANSPOSEOP_HPP
#define POPART_SRC_OPS_TRANSPOSEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Transpose: dimensions permuted (reversed when perm is not given).
class TransposeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<TransposeOp>(*this);
  }
  TransposeOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  std::vector<int64_t> perm;
};

} // namespace popart

#endif
