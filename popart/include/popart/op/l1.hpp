// The L1 loss as an object: lambda * |input|, reduced.
#ifndef POPART_OP_L1_HPP
#define POPART_OP_L1_HPP

#include <popart/op/loss.hpp>

namespace popart {

class POPART_API L1Loss : public Loss {
public:
  L1Loss(const TensorId &input, const TensorId &output, float lambda,
         ReductionType rt = ReductionType::Sum);

  std::unique_ptr<Op> getOp(const Op::Settings &settings) const override;
  const OperatorIdentifier &op_type() const override;
  std::unique_ptr<Loss> clone() const override;
  std::vector<TensorId> getStreamTensorNames() const override { return {}; }

  float getLambda() const { return lambda; }

private:
  float lambda;
};

} // namespace popart

#endif
