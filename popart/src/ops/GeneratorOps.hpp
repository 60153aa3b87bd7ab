#ifndef POPART_SRC_OPS_GENERATOROPS_HPP
#define POPART_SRC_OPS_GENERATOROPS_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>

namespace popart {

/// EyeLike: ones on the diagonal k of a 2-D tensor of the input's shape,
/// zeros elsewhere, of the `dtype` attribute's type (the input's without
/// it). The values follow from the shape alone: always folded into a
/// constant.
class EyeLikeOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<EyeLikeOp>(*this);
  }
  EyeLikeOp(const OperatorIdentifier &id, const Op::Settings &settings,
            const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  bool foldsFromShapesOnly() const override { return true; }
  std::vector<char> fold() const override;

private:
  int64_t k;
  DataType dtype = DataType::UNDEFINED;
};

/// HannWindow, HammingWindow and BlackmanWindow of a constant size, of the
/// `output_datatype` type (FLOAT by default), periodic (the window of
/// size + 1 without its last value) or symmetric; always folded into a
/// constant.
class WindowOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<WindowOp>(*this);
  }
  WindowOp(const OperatorIdentifier &id, const Op::Settings &settings,
           const Attributes &a);
  void setup() override;
  bool canFold() const override { return true; }
  std::vector<char> fold() const override;

private:
  DataType dtype;
  bool periodic;
  int64_t size = 0;
};

} // namespace popart

#endif
