#ifndef POPART_SRC_OPS_MELWEIGHTMATRIXOP_HPP
#define POPART_SRC_OPS_MELWEIGHTMATRIXOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// MelWeightMatrix (num_mel_bins, dft_length, sample_rate,
/// lower_edge_hertz, upper_edge_hertz): [dft_length / 2 + 1, num_mel_bins]
/// triangular filters, each rising from one mel-spaced frequency bin to the
/// next and falling to the one after, of the `output_datatype` type
/// (FLOAT by default). Every input must be a constant (they fix the
/// output's shape and values): always folded into a constant.
class MelWeightMatrixOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<MelWeightMatrixOp>(*this);
  }
  MelWeightMatrixOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  DataType dtype;
  std::vector<double> weights;
};

} // namespace popart

#endif
