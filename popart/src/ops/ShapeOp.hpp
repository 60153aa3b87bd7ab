#ifndef POPART_SRC_OPS_SHAPEOP_HPP
#define POPART_SRC_OPS_SHAPEOP_HPP

#include "ir/Attributes.hpp"
#include "ir/Op.hpp"

#include <cstdint>

namespace popart {

/// Shape: the input's shape (or a range of its dimensions) as INT64, always
/// folded into a constant.
class ShapeOp : public Op {
public:
  ShapeOp(const OperatorIdentifier &id, const std::string &name,
          const Attributes &a)
      : Op(id, name), start(a.getInt("start", 0)),
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
