#ifndef POPART_SRC_OPS_REVERSESEQUENCEOP_HPP
#define POPART_SRC_OPS_REVERSESEQUENCEOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// ReverseSequence (input, sequence_lens): for each batch entry b, the
/// first sequence_lens[b] steps along time_axis reversed, the rest as they
/// are. The lengths must be constants (a session is specialised on them):
/// each entry is then a fixed rearrangement of its slices.
class ReverseSequenceOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ReverseSequenceOp>(*this);
  }
  ReverseSequenceOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const Attributes &a)
      : Op(id, settings), batchAxis(a.getInt("batch_axis", 1)),
        timeAxis(a.getInt("time_axis", 0)) {}
  void setup() override;
  int64_t batchAxis, timeAxis;
  std::vector<int64_t> lengths;
};

} // namespace popart

#endif
