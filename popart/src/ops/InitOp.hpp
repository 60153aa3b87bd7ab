#ifndef POPART_SRC_OPS_INITOP_HPP
#define POPART_SRC_OPS_INITOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>
#include <popart/op/init.hpp>

#include <memory>

namespace popart {

/// Init (ai.graphcore): no inputs; a new tensor of the `shape` and
/// `data_type` (a popart::DataType value) attributes, zeroed (init_type
/// Zero) or left as it is (NoInit). batch_axis names the batch dimension
/// (-1: none) for batch serialisation.
class InitOp : public Op {
public:
  InitOp(const OperatorIdentifier &id, const Op::Settings &settings,
         const Attributes &a);
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<InitOp>(*this);
  }
  void setup() override;
  TensorInfo info;
  InitType initType;
  int64_t batchAxis;
};

} // namespace popart

#endif
