#ifndef POPART_SRC_OPS_SHAPEOP_HPP
#define POPART_SRC_OPS_SHAPEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

#include <cstdint>

namespace popart {

/// Shape: the input's shape (or a range of its dimensions) as INT64, always
/// folded into a constant.
class ShapeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ShapeOp>(*this);
  }
  ShapeOp(const OperatorIdentifier &id, const Op::Settings &settings,
          const Attributes &a)
      : Op(id, settings), start(a.getInt("start", 0)),
        end(a.has("end") ? a.getInt("end") : INT64_MAX) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  bool foldsFromShapesOnly() const override { return true; }
  /// The dimensions returned (Shape-15): [start, end), negative counting
  /// from the end, clamped.
  int64_t start, end;

private:
  Shape dims() const;
};

} // namespace popart

#endif
