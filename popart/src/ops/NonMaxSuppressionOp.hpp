#ifndef POPART_SRC_OPS_NONMAXSUPPRESSIONOP_HPP
#define POPART_SRC_OPS_NONMAXSUPPRESSIONOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <array>
#include <memory>

namespace popart {

/// NonMaxSuppression (boxes [B, N, 4], scores [B, C, N],
/// max_output_boxes_per_class, iou_threshold, score_threshold): for each
/// batch and class, the boxes in order of decreasing score (above the score
/// threshold) that overlap no box already kept by more than the IoU
/// threshold, at most max_output_boxes_per_class of them; the output is
/// INT64 [selected, 3] of (batch, class, box). How many are selected is the
/// output's shape, so every input must be a constant (a session is
/// specialised on their values) and the op is folded into a constant.
class NonMaxSuppressionOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NonMaxSuppressionOp>(*this);
  }
  NonMaxSuppressionOp(const OperatorIdentifier &id,
                      const Op::Settings &settings, const Attributes &a)
      : Op(id, settings), centerPointBox(a.getInt("center_point_box", 0)) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  int64_t centerPointBox;
  std::vector<std::array<int64_t, 3>> selected;
};

} // namespace popart

#endif
