#ifndef POPART_SRC_OPS_PACKEDDATABLOCKOP_HPP
#define POPART_SRC_OPS_PACKEDDATABLOCKOP_HPP

#include "ops/CallOp.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace popart {

/// PackedDataBlock (ai.graphcore): runs a callback subgraph on sequences
/// packed back to back along the outer dimension of tensors.
///
/// Inputs: for each of the N packed inputs, [data, offsets, lengths]
/// (offsets and lengths UINT32 [S], one entry per sequence: sequence s is
/// rows offsets[s] .. + lengths[s] of data); then the result's offsets and
/// lengths ([S]); then the values of the enclosing graph the callback
/// reads. The callback's input i is [callbackBatchSize,
/// maxSequenceLengths[i], data's inner dimensions]: callbackBatchSize
/// sequences unpacked, each padded with zero rows. The callback runs
/// S / callbackBatchSize times; each time its only output [callbackBatchSize,
/// L, ...] is packed back: the first resultLengths[s] rows of entry j go to
/// rows resultOffsets[s] .. of the output [resultSize, ...], whose rows no
/// sequence writes are 0. No gradient (as in the original).
class PackedDataBlockOp : public SubgraphOp {
public:
  PackedDataBlockOp(const OperatorIdentifier &id, const Op::Settings &settings,
                    const std::string &callback,
                    std::vector<int64_t> maxSequenceLengths,
                    int64_t resultSize, int64_t callbackBatchSize);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PackedDataBlockOp>(*this);
  }
  void setup() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  /// The callback's input for packed data of `data`'s info.
  static TensorInfo callbackInputInfo(const TensorInfo &data,
                                      int64_t maxSequenceLength,
                                      int64_t callbackBatchSize);

  int64_t numDataInputs() const {
    return static_cast<int64_t>(maxSequenceLengths.size());
  }
  static InIndex dataIndex(int64_t i) { return static_cast<InIndex>(3 * i); }
  static InIndex offsetsIndex(int64_t i) { return dataIndex(i) + 1; }
  static InIndex lengthsIndex(int64_t i) { return dataIndex(i) + 2; }
  InIndex resultOffsetsIndex() const { return dataIndex(numDataInputs()); }
  InIndex resultLengthsIndex() const { return resultOffsetsIndex() + 1; }
  /// The first of the inputs the callback reads from the enclosing graph.
  InIndex firstImplicitIndex() const { return resultOffsetsIndex() + 2; }

  const std::vector<int64_t> &getMaxSequenceLengths() const {
    return maxSequenceLengths;
  }
  int64_t getResultSize() const { return resultSize; }
  int64_t getCallbackBatchSize() const { return callbackBatchSize; }
  /// How many times the callback runs: sequences / callbackBatchSize.
  int64_t getCallbackIterations() const;

private:
  std::vector<int64_t> maxSequenceLengths;
  int64_t resultSize;
  int64_t callbackBatchSize;
};

} // namespace popart

#endif
