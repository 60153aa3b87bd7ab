#ifndef POPART_SRC_OPS_CALLOP_HPP
#define POPART_SRC_OPS_CALLOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace popart {

class Graph;

/// The ops that run a subgraph of the IR (CallOp, LoopOp). The subgraph
/// is named by the attribute "callee". An input is passed by value unless
/// it is listed in "modifiedInputs": then it is passed by reference, and
/// what the subgraph does to its input is done to the caller's tensor.
class SubgraphOp : public Op {
public:
  SubgraphOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &attributes);
  const Graph &getCalledGraph() const;
  const std::string &getCalleeId() const { return callee; }
  bool isInputModified(InIndex i) const { return modified.count(i) != 0; }
  const std::set<InIndex> &getModifiedInputs() const { return modified; }
  /// Passes input i by reference (popart::error if there is none).
  void setInputModified(InIndex i);
  void appendAttributes(OpSerialiserBase &os) const override;

protected:
  /// popart::error naming the op unless input `i` has the type and shape
  /// of the subgraph's input `subgraphInput`.
  void checkInput(InIndex i, int subgraphInput) const;

private:
  std::string callee;
  std::set<InIndex> modified;
};

/// Runs the subgraph once: input i is the subgraph's input i, output i
/// its output i.
class CallOp : public SubgraphOp {
public:
  CallOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &attributes);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CallOp>(*this);
  }
  void setup() override;
};

/// Runs the subgraph "tripCount" times. With M outputs, the first M
/// inputs are carried: each iteration's output i is the next one's input
/// i; the other inputs are the same in every iteration. Output i is the
/// last iteration's output i.
class LoopOp : public SubgraphOp {
public:
  LoopOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &attributes);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<LoopOp>(*this);
  }
  void setup() override;
  int64_t getTripCount() const { return tripCount; }
  void appendAttributes(OpSerialiserBase &os) const override;

private:
  int64_t tripCount;
};

} // namespace popart

#endif
