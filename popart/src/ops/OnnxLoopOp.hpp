#ifndef POPART_SRC_OPS_ONNXLOOPOP_HPP
#define POPART_SRC_OPS_ONNXLOOPOP_HPP

#include <popart/op.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace popart {

class Graph;

/// ONNX Loop: runs its body (a subgraph of the IR) while the iteration
/// count is below the maximum trip count M and the condition holds.
/// (The ai.graphcore Loop of a fixed count is LoopOp, ops/CallOp.hpp.)
///
///   op inputs:    0 M (optional, INT64), 1 cond (optional, BOOL),
///                 2 .. N+1 the carried values' initial values,
///                 N+2 .. the tensors of the enclosing graph the body reads
///   body inputs:  0 iteration count (INT64), 1 cond, 2 .. N+1 carried,
///                 N+2 .. the enclosing graph's tensors, as the op's
///   body outputs: 0 cond, 1 .. N carried, N+1 .. N+K scan outputs
///   op outputs:   0 .. N-1 the carried values after the last iteration,
///                 N .. N+K-1 the scan outputs, stacked on a new axis 0
///
/// The IR has static shapes: each carried value keeps its type and shape,
/// and a scan output has as many rows as the maximum trip count, which
/// must then be a constant. M and cond are read at run time otherwise: the
/// loop is not unrolled. Rows of a scan output past the last iteration
/// (the condition turned false first) are zero.
class OnnxLoopOp : public Op {
public:
  OnnxLoopOp(const OperatorIdentifier &id, const Op::Settings &settings,
             std::string body, int numCarried);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<OnnxLoopOp>(*this);
  }
  void setup() override;
  const Graph &getBodyGraph() const;
  int getNumCarried() const { return numCarried; }
  int getNumScanOutputs() const;
  /// The maximum trip count when M is a constant (at most INT32's
  /// maximum, the device's iteration counter), else -1.
  int64_t getConstTripCount() const { return constTripCount; }
  static InIndex getMaximumTripCountInIndex() { return 0; }
  static InIndex getTerminationConditionInIndex() { return 1; }
  static InIndex getFirstInputInIndex() { return 2; }
  void appendAttributes(OpSerialiserBase &os) const override;

private:
  std::string body;
  int numCarried;
  int64_t constTripCount = -1;
};

} // namespace popart

#endif
