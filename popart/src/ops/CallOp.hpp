#ifndef POPART_SRC_OPS_CALLOP_HPP
#define POPART_SRC_OPS_CALLOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <map>
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
  SubgraphOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const std::string &callee);
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
  CallOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const std::string &callee)
      : SubgraphOp(id, settings, callee) {}
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CallOp>(*this);
  }
  void setup() override;
  /// A CallGradOp of the subgraph's gradient (transforms/Autodiff.hpp),
  /// made the first time.
  std::vector<std::unique_ptr<Op>> getGradOps() override;

private:
  std::shared_ptr<const std::pair<std::string, std::vector<int>>> gradient;
};

/// Calls the gradient subgraph of a CallOp's subgraph: inputs the forward
/// op's inputs, then the gradients of its outputs; output k the gradient
/// of the forward input the gradient subgraph says.
class CallGradOp : public CallOp {
public:
  CallGradOp(const CallOp &fwd, const std::string &gradientGraph,
             const std::vector<int> &gradientOf);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CallGradOp>(*this);
  }
  std::vector<std::unique_ptr<Op>> getGradOps() override { return {}; }
  const std::vector<GradInOutMapper> &gradInputInfo() const override {
    return inInfo;
  }
  const std::map<int, int> &gradOutToNonGradIn() const override {
    return outToIn;
  }

private:
  std::vector<GradInOutMapper> inInfo;
  std::map<int, int> outToIn;
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
