#ifndef POPART_SRC_OPS_NONZEROOP_HPP
#define POPART_SRC_OPS_NONZEROOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// NonZero: the coordinates (INT64 [rank, count]) of the input's non-zero
/// elements, in row-major order. The count is the output's shape, so the
/// input must be a constant (a session is specialised on its value) and
/// the op is folded into a constant.
class NonZeroOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<NonZeroOp>(*this);
  }
  NonZeroOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &)
      : Op(id, settings) {}
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  std::vector<int64_t> nonZero; // the flat positions
};

} // namespace popart

#endif
