#ifndef POPART_SRC_OPS_IFOP_HPP
#define POPART_SRC_OPS_IFOP_HPP

#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

class Graph;

/// ONNX If: runs one of two subgraphs of the IR (the branches) on a BOOL
/// condition read at run time.
///
/// Input 0 is the condition; inputs 1.. are the tensors of the enclosing
/// graph the branches read (ONNX branches name them from the outer scope;
/// in the IR each branch takes them as its inputs, input i + 1 of the op
/// being input i of both branches). Output j is output j of the branch
/// run; both branches must give it the same type and shape.
class IfOp : public Op {
public:
  IfOp(const OperatorIdentifier &id, const Op::Settings &settings,
       std::string thenBranch, std::string elseBranch);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<IfOp>(*this);
  }
  void setup() override;
  const Graph &getThenGraph() const;
  const Graph &getElseGraph() const;
  static InIndex getConditionInIndex() { return 0; }
  /// The op input that is input `branchInput` of both branches.
  static InIndex branchInToOpInIndex(InIndex branchInput) {
    return branchInput + 1;
  }
  void appendAttributes(OpSerialiserBase &os) const override;

private:
  std::string thenBranch, elseBranch;
};

} // namespace popart

#endif
