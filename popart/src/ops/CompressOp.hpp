#ifndef POPART_SRC_OPS_COMPRESSOP_HPP
#define POPART_SRC_OPS_COMPRESSOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Compress: the slices along `axis` (of the flattened input without one)
/// whose condition is true. The condition fixes the output's shape, so it
/// must be a constant (a session is specialised on its value).
class CompressOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CompressOp>(*this);
  }
  CompressOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a)
      : Op(id, settings), hasAxis(a.has("axis")), axis(a.getInt("axis", 0)) {}
  void setup() override;
  bool hasAxis;
  int64_t axis;
  /// The positions kept along the axis.
  std::vector<unsigned> kept;
};

} // namespace popart

#endif
