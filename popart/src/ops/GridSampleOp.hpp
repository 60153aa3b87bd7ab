#ifndef POPART_SRC_OPS_GRIDSAMPLEOP_HPP
#define POPART_SRC_OPS_GRIDSAMPLEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// GridSample (X [N, C, H, W], grid [N, H_out, W_out, 2] of (x, y) in
/// [-1, 1]): X sampled at the grid's points, by `mode` (bilinear, nearest
/// or bicubic, a = -0.75), with the points outside X given by
/// `padding_mode` (zeros, border or reflection); align_corners maps -1 and
/// 1 to the corner pixels' centres (else to their outer edges).
class GridSampleOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<GridSampleOp>(*this);
  }
  GridSampleOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a);
  void setup() override;
  bool alignCorners;
  std::string mode, paddingMode;
};

} // namespace popart

#endif
