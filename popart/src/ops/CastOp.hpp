#ifndef POPART_SRC_OPS_CASTOP_HPP
#define POPART_SRC_OPS_CASTOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// Cast: the input converted to the type of the "to" attribute.
class CastOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<CastOp>(*this);
  }
  CastOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;
  DataType to;
};

} // namespace popart

#endif
