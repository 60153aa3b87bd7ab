#ifndef POPART_SRC_OPS_ONEHOTOP_HPP
#define POPART_SRC_OPS_ONEHOTOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// OneHot (indices, depth, values [off, on]): a new dimension of `depth`
/// (a constant) at `axis`, holding `on` where it equals the index (a
/// negative index counts from depth) and `off` elsewhere.
class OneHotOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<OneHotOp>(*this);
  }
  OneHotOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), axis(a.getInt("axis", -1)) {}
  void setup() override;
  int64_t axis, depth = 0;
};

} // namespace popart

#endif
