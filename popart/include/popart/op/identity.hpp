// The identity loss as an object: the input itself, reduced.
#ifndef POPART_OP_IDENTITY_HPP
#define POPART_OP_IDENTITY_HPP

#include <popart/op/loss.hpp>

namespace popart {

class POPART_API IdentityLoss : public Loss {
public:
  IdentityLoss(const TensorId &input, const TensorId &output,
               ReductionType rt = ReductionType::Sum);

  std::unique_ptr<Op> getOp(const Op::Settings &settings) const override;
  const OperatorIdentifier &op_type() const override;
  std::unique_ptr<Loss> clone() const override;
  std::vector<TensorId> getStreamTensorNames() const override { return {}; }
};

} // namespace popart

#endif
