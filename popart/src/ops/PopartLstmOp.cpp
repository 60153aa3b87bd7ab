#include "ops/PopartLstmOp.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

namespace popart {

PopartLSTMOp::PopartLSTMOp(const OperatorIdentifier &id,
                           const Op::Settings &settings, const Attributes &a)
    : Op(id, settings),
      outputFullSequence(a.getInt("output_full_sequence", 1) != 0) {}

void PopartLSTMOp::setup() {
  const TensorInfo &in = inInfo(getInputInIndex());
  if (in.rank() != 3)
    throw error("{}: input '{}' has shape {}; [seqLength, batch, inputSize] "
                "is needed",
                str(), inId(0), in.shape());
  if (in.dataType() != DataType::FLOAT && in.dataType() != DataType::FLOAT16)
    throw error("{}: input '{}' is {}; FLOAT or FLOAT16 is needed", str(),
                inId(0), in.data_type());
  const TensorInfo &w = inInfo(getWeightsInIndex());
  if (w.rank() != 3 || w.dim(0) != 4 || w.dim(2) < 1 ||
      w.dim(1) != getInputSize() + w.dim(2))
    throw error("{}: weights '{}' have shape {}; [4, inputSize + hidden, "
                "hidden] is needed (inputSize {})",
                str(), inId(1), w.shape(), getInputSize());
  const int64_t T = getMaxSeqLength(), B = getBatchSize(),
                H = getHiddenSize();
  auto check = [&](InIndex i, const char *what, const Shape &want) {
    if (!hasInput(i))
      return;
    if (inShape(i) != want)
      throw error("{}: {} '{}' has shape {}; {} is needed", str(), what,
                  inId(i), inShape(i), want);
    if (inInfo(i).dataType() != in.dataType())
      throw error("{}: {} '{}' is {}, not the input's {}", str(), what, inId(i),
                  inInfo(i).data_type(), in.data_type());
  };
  check(getWeightsInIndex(), "weights", w.shape());
  check(getBiasesInIndex(), "biases", Shape{4, H});
  check(getInitialStateInIndex(), "initialState", Shape{2, B, H});
  if (hasInput(getSequenceLensInIndex()))
    throw error("{}: sequence lengths ('{}') are not supported: every one of "
                "the {} steps is run for every batch entry",
                str(), inId(getSequenceLensInIndex()), T);
  outInfo(0) = TensorInfo(in.dataType(),
                          outputFullSequence ? Shape{T, B, H} : Shape{B, H});
  if (hasOutput(1))
    outInfo(1) = TensorInfo(in.dataType(), Shape{B, H});
}

std::vector<std::unique_ptr<Op>> PopartLSTMOp::getGradOps() {
  return gradOps<PopartLSTMGradOp>(*this);
}

void PopartLSTMOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("output_full_sequence", int64_t(outputFullSequence));
}

namespace {

// The gradients of the forward inputs the op has.
std::map<int, int> lstmGradOutputs(const PopartLSTMOp &fwd) {
  std::map<int, int> outToIn = {{0, 0}, {1, 1}};
  for (InIndex i : {PopartLSTMOp::getBiasesInIndex(),
                    PopartLSTMOp::getInitialStateInIndex()})
    if (fwd.hasInput(i))
      outToIn[i] = i;
  return outToIn;
}

} // namespace

PopartLSTMGradOp::PopartLSTMGradOp(const PopartLSTMOp &fwd)
    : GradOp(fwd, "PopartLSTMGrad",
             {{0, 0, GradOpInType::In},
              {1, 1, GradOpInType::In},
              {2, 2, GradOpInType::In},
              {3, 3, GradOpInType::In},
              {getOutputGradInIndex(), 0, GradOpInType::GradOut},
              {getCellStateGradInIndex(), 1, GradOpInType::GradOut}},
             lstmGradOutputs(fwd)),
      outputFullSequence(fwd.outputFullSequence) {}

} // namespace popart
