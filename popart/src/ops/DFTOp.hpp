#ifndef POPART_SRC_OPS_DFTOP_HPP
#define POPART_SRC_OPS_DFTOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// DFT (input [..., real or (real, imaginary)], dft_length): the discrete
/// Fourier transform (inverse: its inverse, divided by the length) along
/// `axis`, of the signal cut or zero-padded to dft_length (a constant)
/// when given; onesided keeps the first length / 2 + 1 frequencies. The
/// output's last dimension is (real, imaginary).
class DFTOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<DFTOp>(*this);
  }
  DFTOp(const OperatorIdentifier &id, const Op::Settings &settings,
        const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", 1)),
        inverse(a.getInt("inverse", 0) != 0),
        onesided(a.getInt("onesided", 0) != 0) {}
  void setup() override;
  int64_t axis;
  bool inverse, onesided;
  /// Resolved by setup: the transform's length and the frequencies kept.
  int64_t length = 0, frequencies = 0;
};

} // namespace popart

#endif
