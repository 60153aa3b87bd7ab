#ifndef POPART_SRC_OPS_SCANOP_HPP
#define POPART_SRC_OPS_SCANOP_HPP

#include <popart/op.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class Graph;

/// ONNX Scan: runs its body (a subgraph of the IR) once per element of
/// the scan inputs along their scan axes, carrying N state values.
///
///   op inputs:    N initial states, S scan inputs, then the tensors of the
///                 enclosing graph the body reads
///   body inputs:  N states, S scan elements (the scan axis removed), then
///                 the enclosing graph's tensors, as the op's
///   body outputs: N states, K scan output elements
///   op outputs:   N final states, K scan outputs (the elements stacked
///                 along each scan output axis)
///
/// Opset 8's Scan has a batch axis 0 on every input and output (states
/// [B, ...], scan inputs [B, L, ...]): each batch entry is scanned in
/// turn. Its optional sequence_lens input (INT64 [B], read at run time)
/// gives each entry its length: entry b is scanned over its first
/// sequence_lens[b] elements (a reversed scan input from element
/// sequence_lens[b] - 1 down), its final states are those after them, and
/// the elements of its scan outputs past them are 0 (onnxruntime's
/// semantics). A length outside [1, the scan inputs' length] stops the run
/// with an abort naming the op (onnxruntime refuses it too).
class ScanOp : public Op {
public:
  ScanOp(const OperatorIdentifier &id, const Op::Settings &settings,
         std::string body, int numStates, int numScanInputs,
         std::vector<int64_t> inputAxes, std::vector<int64_t> inputDirections,
         std::vector<int64_t> outputAxes,
         std::vector<int64_t> outputDirections);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<ScanOp>(*this);
  }
  void setup() override;
  const Graph &getBodyGraph() const;
  /// Opset 8: a batch axis 0, and input 0 is sequence_lens.
  bool hasBatchAxis() const { return opid.version < 9; }
  /// The op input of the first state (1 at opset 8, after sequence_lens).
  InIndex getFirstStateInIndex() const { return hasBatchAxis() ? 1 : 0; }
  /// Opset 8 with its sequence_lens input given.
  bool hasSequenceLens() const { return hasBatchAxis() && hasInput(0); }
  int getNumStates() const { return numStates; }
  int getNumScanInputs() const { return numScanInputs; }
  int getNumScanOutputs() const;
  /// The scanned length (the scan inputs' length along their axes).
  int64_t getSequenceLength() const { return sequenceLength; }
  /// The axis and direction (1 = reverse) of scan input i and scan
  /// output j, normalised, in the tensors the body's iterations see (the
  /// batch axis left out at opset 8).
  int64_t getInputAxis(int i) const { return inputAxes[i]; }
  bool isInputReversed(int i) const { return inputDirections[i] != 0; }
  int64_t getOutputAxis(int j) const { return outputAxes[j]; }
  bool isOutputReversed(int j) const { return outputDirections[j] != 0; }
  void appendAttributes(OpSerialiserBase &os) const override;

private:
  std::string body;
  int numStates, numScanInputs;
  std::vector<int64_t> inputAxes, inputDirections, outputAxes,
      outputDirections;
  int64_t sequenceLength = 0;
};

} // namespace popart

#endif
