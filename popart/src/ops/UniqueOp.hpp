#ifndef POPART_SRC_OPS_UNIQUEOP_HPP
#define POPART_SRC_OPS_UNIQUEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Unique: the distinct elements (or slices along `axis`) of X, sorted or
/// in order of first occurrence, with the position of each one's first
/// occurrence, the distinct value each input element (slice) is, and each
/// one's count. How many there are is the outputs' shape, so X must be a
/// constant (a session is specialised on its value): setup computes every
/// output, and the lowering holds them as constants.
class UniqueOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<UniqueOp>(*this);
  }
  UniqueOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), hasAxis(a.has("axis")), axis(a.getInt("axis", 0)),
        sorted(a.getInt("sorted", 1) != 0) {}
  void setup() override;
  bool hasAxis;
  int64_t axis;
  bool sorted;
  /// The outputs' values (Y in X's layout with the distinct slices along
  /// the axis), computed by setup.
  std::vector<double> values;
  std::vector<int> firstIndices, inverseIndices, counts;
};

} // namespace popart

#endif
