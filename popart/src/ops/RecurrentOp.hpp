#ifndef POPART_SRC_OPS_RECURRENTOP_HPP
#define POPART_SRC_OPS_RECURRENTOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

/// One activation function of a recurrent cell, with the alpha and beta
/// of those that take them.
struct RecurrentActivation {
  std::string name;
  float alpha = 0, beta = 0;
};

/// RNN, GRU and LSTM (ai.onnx 7 and 14): X [seq, batch, input] (layout 0)
/// or [batch, seq, input] (layout 1), W [dirs, gates * hidden, input],
/// R [dirs, gates * hidden, hidden], and optionally B [dirs, 2 * gates *
/// hidden], sequence_lens [batch], initial_h (and LSTM's initial_c)
/// [dirs, batch, hidden], LSTM's peepholes P [dirs, 3 * hidden]; outputs Y
/// [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]), Y_h
/// (and LSTM's Y_c) [dirs, batch, hidden] (layout 1: [batch, dirs,
/// hidden]). Directions forward, reverse or bidirectional; each
/// direction's activations (RNN: f; GRU: f, g; LSTM: f, g, h); clip; GRU's
/// linear_before_reset and LSTM's input_forget. Steps past a batch entry's
/// sequence length leave its state as it is and output zeros.
class RecurrentOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<RecurrentOp>(*this);
  }
  RecurrentOp(const OperatorIdentifier &id, const Op::Settings &settings,
              const Attributes &a);
  void setup() override;
  bool isLstm() const { return opid.type == "LSTM"; }
  bool isGru() const { return opid.type == "GRU"; }
  /// Gates per cell: 1 (RNN), 3 (GRU), 4 (LSTM).
  int64_t gates() const { return isLstm() ? 4 : isGru() ? 3 : 1; }
  int64_t directions() const { return direction == "bidirectional" ? 2 : 1; }
  /// Whether direction d runs from the last step to the first.
  bool reversed(int64_t d) const {
    return direction == "reverse" || (direction == "bidirectional" && d == 1);
  }
  int64_t hiddenSize, layout;
  std::string direction;
  /// clip: 0 when absent.
  float clip = 0;
  bool linearBeforeReset = false, inputForget = false;
  /// Per direction, the cell's activations in order.
  std::vector<std::vector<RecurrentActivation>> activations;
  /// Resolved by setup.
  int64_t seqLength = 0, batchSize = 0, inputSize = 0;
};

} // namespace popart

#endif
