// The Graphcore LSTM (ai.graphcore LSTM, builder.aiGraphcore.lstm): one
// forward layer laid out as popnn::lstm takes it, and its gradient.
#ifndef POPART_SRC_OPS_POPARTLSTMOP_HPP
#define POPART_SRC_OPS_POPARTLSTMOP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Inputs: input [seqLength, batch, inputSize], weights [4, inputSize +
/// hidden, hidden] (the input weights, then the recurrent ones, of each
/// gate: forget, input, candidate, output), biases [4, hidden] (optional,
/// else zero), initialState [2, batch, hidden] (output then cell state;
/// optional, else zero), seqLengths (refused: every step is run).
/// Outputs: the output (every step's, or the last one's when
/// outputFullSequence is 0) and the final cell state [batch, hidden].
class PopartLSTMOp : public Op {
public:
  PopartLSTMOp(const OperatorIdentifier &id, const Op::Settings &settings,
               const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PopartLSTMOp>(*this);
  }
  void setup() override;
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  static InIndex getInputInIndex() { return 0; }
  static InIndex getWeightsInIndex() { return 1; }
  static InIndex getBiasesInIndex() { return 2; }
  static InIndex getInitialStateInIndex() { return 3; }
  static InIndex getSequenceLensInIndex() { return 4; }

  int64_t getMaxSeqLength() const { return inShape(0).at(0); }
  int64_t getBatchSize() const { return inShape(0).at(1); }
  int64_t getInputSize() const { return inShape(0).at(2); }
  int64_t getHiddenSize() const { return inShape(1).at(2); }

  bool outputFullSequence;
};

/// Inputs: the forward input, weights, biases and initialState (the last
/// two optional), the gradients of the output and of the cell state.
/// Outputs: the gradients of input, weights, biases and initialState
/// (those two when the forward op has them). The forward pass is run again
/// for what the backward pass needs of each step.
class PopartLSTMGradOp : public GradOp {
public:
  explicit PopartLSTMGradOp(const PopartLSTMOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PopartLSTMGradOp>(*this);
  }
  static InIndex getOutputGradInIndex() { return 4; }
  static InIndex getCellStateGradInIndex() { return 5; }
  bool outputFullSequence;
};

} // namespace popart

#endif
