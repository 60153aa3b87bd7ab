#ifndef POPART_SRC_OPS_EINSUMOP_HPP
#define POPART_SRC_OPS_EINSUMOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <map>
#include <memory>
#include <string>

namespace popart {

/// Einsum: the equation's products of the operands summed over the labels
/// the output does not have. Labels are letters; the dimensions an
/// ellipsis stands for get labels of their own (aligned from the right, of
/// equal sizes); a label repeated in one operand takes its diagonal.
class EinsumOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<EinsumOp>(*this);
  }
  EinsumOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a)
      : Op(id, settings), equation(a.getString("equation", "")) {}
  void setup() override;
  std::string equation;
  /// Each operand's labels, one per dimension, and the output's.
  std::vector<std::string> operandLabels;
  std::string outputLabels;
  std::map<char, int64_t> sizes;
};

} // namespace popart

#endif
