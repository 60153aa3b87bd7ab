// The negative log likelihood loss as an object: -log(probs[label]) per
// sample, reduced (the op aiGraphcoreOpset1::nllloss makes in a model).
#ifndef POPART_OP_NLL_HPP
#define POPART_OP_NLL_HPP

#include <popart/op/loss.hpp>

namespace popart {

class POPART_API NllLoss : public Loss {
public:
  NllLoss(const TensorId &probs, const TensorId &label, const TensorId &output,
          ReductionType rt = ReductionType::Sum);
  NllLoss(const TensorId &probs, const TensorId &label, const TensorId &output,
          int ignoreIndex, ReductionType rt = ReductionType::Sum);

  std::unique_ptr<Op> getOp(const Op::Settings &settings) const override;
  const OperatorIdentifier &op_type() const override;
  std::unique_ptr<Loss> clone() const override;
  std::vector<TensorId> getStreamTensorNames() const override;

  TensorId probsTensorId() const { return input(0); }
  TensorId labelTensorId() const { return input(1); }
  bool hasIgnoreIndex() const { return hasIgnoreIndex_; }
  int getIgnoreIndex() const { return ignoreIndex_; }

private:
  int ignoreIndex_ = 0;
  bool hasIgnoreIndex_ = false;
};

} // namespace popart

#endif
