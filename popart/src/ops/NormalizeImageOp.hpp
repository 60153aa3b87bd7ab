#ifndef POPART_SRC_OPS_NORMALIZEIMAGEOP_HPP
#define POPART_SRC_OPS_NORMALIZEIMAGEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// NormalizeImage (ai.graphcore): inputs [image, offsets, scales]; the
/// image's inner dimension of 3 channels becomes 4: channel c < 3 is
/// (image[c] * scale - offsets[c]) * scales[c], channel 3 is 0. A UINT8
/// image gives FLOAT16, FLOAT16 and FLOAT their own type; offsets and
/// scales are [3] of the output's type. No gradient (as in the original).
class NormalizeImageOp : public Op {
public:
  NormalizeImageOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NormalizeImageOp>(*this);
  }
  void setup() override;
  float scale;
};

} // namespace popart

#endif
