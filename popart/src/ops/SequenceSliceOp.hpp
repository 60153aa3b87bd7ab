#ifndef POPART_SRC_OPS_SEQUENCESLICEOP_HPP
#define POPART_SRC_OPS_SEQUENCESLICEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// SequenceSlice (ai.graphcore): inputs [source, destination, N,
/// sourceOffset, destinationOffset]; the output is a copy of destination
/// with, for each entry i (until the first N[i] == 0), rows
/// destinationOffset[i] .. + N[i] (of the outer dimension) replaced by
/// source rows sourceOffset[i] .. + N[i]; rows outside either tensor are
/// skipped; rows no entry writes are zeroed when zeroUnused. No gradient
/// (as in the original).
class SequenceSliceOp : public Op {
public:
  SequenceSliceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                  const Attributes &a)
      : Op(id, settings), zeroUnused(a.getInt("zeroUnused", 0) != 0) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<SequenceSliceOp>(*this);
  }
  void setup() override;
  bool zeroUnused;
};

} // namespace popart

#endif
