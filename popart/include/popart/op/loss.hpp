// Losses given to a session as objects (the interface of earlier
// releases, kept beside the loss ops of aiGraphcoreOpset1): a loss names
// its input tensors and its output, and makes its op when the session
// adds it to the model. Several losses are summed into the final loss.
#ifndef POPART_OP_LOSS_HPP
#define POPART_OP_LOSS_HPP

#include <popart/names.hpp>
#include <popart/op.hpp>
#include <popart/popart_export.hpp>
#include <popart/reductiontype.hpp>

#include <memory>
#include <string>
#include <vector>

namespace popart {

class POPART_API Loss {
public:
  Loss(const std::vector<TensorId> &input, TensorId output, ReductionType rt);
  Loss(const Loss &) = default;
  Loss &operator=(const Loss &) = delete;
  virtual ~Loss();

  /// The loss's op, to be connected to input(i) and output(0).
  virtual std::unique_ptr<Op> getOp(const Op::Settings &settings) const = 0;
  virtual const OperatorIdentifier &op_type() const = 0;
  virtual std::unique_ptr<Loss> clone() const = 0;
  /// The inputs that are streamed (the labels), not computed.
  virtual std::vector<TensorId> getStreamTensorNames() const = 0;

  const TensorId &input(InIndex i) const;
  int input_size() const { return static_cast<int>(input_.size()); }
  const TensorId &output(OutIndex i) const;
  int output_size() const { return 1; }
  ReductionType getReductionType() const { return reductionType; }

  void virtualGraph(int64_t value) { vgraphId = value; }
  bool hasVirtualGraphId() const { return vgraphId != unusedVGraphId; }
  int64_t getVirtualGraphId() const { return vgraphId; }
  void pipelineStage(PipelineStage stage) { pipelineStage_ = stage; }
  bool hasPipelineStage() const { return pipelineStage_ != unusedPipelineStage; }
  PipelineStage getPipelineStage() const { return pipelineStage_; }

private:
  std::vector<TensorId> input_;
  TensorId output_;
  ReductionType reductionType;
  VGraphId vgraphId = unusedVGraphId;
  PipelineStage pipelineStage_ = unusedPipelineStage;
};

} // namespace popart

#endif
