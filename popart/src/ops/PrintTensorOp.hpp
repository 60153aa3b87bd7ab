#ifndef POPART_SRC_OPS_PRINTTENSOROP_HPP
#define POPART_SRC_OPS_PRINTTENSOROP_HPP

#include "ops/GradOp.hpp"

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <poplar/PrintTensor.hpp>

#include <memory>
#include <string>

namespace popart {

/// PrintTensor (ai.graphcore): its input passed through, its values printed
/// to the engine's print stream as "title: [...]" in the layout of the
/// attributes (poplar::PrintTensorFmt); the title is the input's id unless
/// given. With print_gradient (the default) its gradient is printed too,
/// titled title + "_gradient" (or the gradient's id).
class PrintTensorOp : public Op {
public:
  PrintTensorOp(const OperatorIdentifier &id, const Op::Settings &settings,
                const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PrintTensorOp>(*this);
  }
  void setup() override { outInfo(0) = inInfo(0); }
  std::vector<std::unique_ptr<Op>> getGradOps() override;
  void appendAttributes(OpSerialiserBase &os) const override;

  bool printGradient = true;
  std::string title;
  poplar::PrintTensorFmt format;
};

/// The gradient passed through, printed when the forward op's
/// print_gradient says so.
class PrintTensorGradOp : public GradOp {
public:
  explicit PrintTensorGradOp(const PrintTensorOp &fwd);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<PrintTensorGradOp>(*this);
  }
  bool print;
  std::string title;
  poplar::PrintTensorFmt format;
};

} // namespace popart

#endif
