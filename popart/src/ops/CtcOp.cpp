#include "ops/CtcOp.hpp"

#include <popart/error.hpp>
#include <popart/opserialiser.hpp>

#include <cstdint>

namespace popart {
namespace {

bool isIndexType(DataType t) {
  return t == DataType::INT32 || t == DataType::UINT32;
}

bool isFloatType(DataType t) {
  return t == DataType::FLOAT || t == DataType::FLOAT16;
}

// A non-negative attribute that fits an unsigned.
unsigned unsignedAttribute(const Attributes &a, const std::string &name,
                           int64_t def, const std::string &op) {
  const int64_t v = a.getInt(name, def);
  if (v < 0 || v > int64_t(UINT32_MAX))
    throw error("{}: attribute {} is {}; a non-negative value is needed", op,
                name, v);
  return static_cast<unsigned>(v);
}

} // namespace

CtcOp::CtcOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a)
    : LossOp(id, settings, reductionFromAttribute(a, "Ctc")),
      blank(unsignedAttribute(a, "blank", 0, "Ctc")),
      zeroInfinity(a.getInt("zeroInfinity", 0) != 0),
      outDataType(DataType::UNDEFINED) {
  const int64_t onnxType = a.getInt("outDataType", 0);
  if (onnxType != 0) {
    outDataType = onnxToPopartType(static_cast<int>(onnxType));
    if (!isFloatType(outDataType))
      throw error("Ctc: outDataType {} is not FLOAT or FLOAT16",
                  getDataTypeInfo(outDataType).name());
  }
}

void CtcOp::setup() {
  const TensorInfo &logProbs = inInfo(0);
  if (logProbs.rank() != 3)
    throw error("{}: log_probs '{}' has shape {}; [T, N, C] is needed", str(),
                inId(0), logProbs.shape());
  if (!isFloatType(logProbs.dataType()))
    throw error("{}: log_probs '{}' is {}; FLOAT or FLOAT16 is needed", str(),
                inId(0), logProbs.data_type());
  const int64_t T = logProbs.dim(0), N = logProbs.dim(1),
                C = logProbs.dim(2);
  if (int64_t(blank) >= C)
    throw error("{}: blank {} is not one of the {} classes", str(), blank, C);
  const TensorInfo &targets = inInfo(1);
  if (targets.rank() != 2 || targets.dim(0) != N)
    throw error("{}: targets '{}' has shape {}; [{}, S] is needed (the batch "
                "size of log_probs)",
                str(), inId(1), targets.shape(), N);
  const char *names[] = {"log_probs", "targets", "input_lengths",
                         "target_lengths"};
  for (int i = 1; i < 4; ++i) {
    if (!isIndexType(inInfo(i).dataType()))
      throw error("{}: {} '{}' is {}; INT32 or UINT32 is needed", str(),
                  names[i], inId(i), inInfo(i).data_type());
    if (i > 1 && inInfo(i).shape() != Shape{N})
      throw error("{}: {} '{}' has shape {}; [{}] is needed", str(), names[i],
                  inId(i), inInfo(i).shape(), N);
  }
  const DataType type =
      outDataType == DataType::UNDEFINED ? logProbs.dataType() : outDataType;
  outInfo(0) = TensorInfo(type, reduction == ReductionType::NoReduction
                                    ? Shape{N}
                                    : Shape{});
  if (hasOutput(1))
    outInfo(1) = TensorInfo(type, Shape{T, N, C});
}

std::vector<std::unique_ptr<Op>> CtcOp::getGradOps() {
  if (!hasOutput(1))
    throw error("{}: its gradient needs its second output (the gradient of "
                "log_probs)",
                str());
  return gradOps<CtcGradOp>(*this);
}

void CtcOp::appendAttributes(OpSerialiserBase &os) const {
  LossOp::appendAttributes(os);
  os.appendAttribute("blank", int64_t(blank));
  os.appendAttribute("zeroInfinity", int64_t(zeroInfinity));
}

CtcGradOp::CtcGradOp(const CtcOp &fwd)
    : GradOp(fwd, "CtcGrad",
             {{0, 1, GradOpInType::Out},
              {1, 3, GradOpInType::In},
              {2, 0, GradOpInType::GradOut}},
             {{0, 0}}),
      reduction(fwd.getReductionType()) {}

CtcBeamSearchDecoderOp::CtcBeamSearchDecoderOp(const OperatorIdentifier &id,
                                               const Op::Settings &settings,
                                               const Attributes &a)
    : Op(id, settings),
      blank(unsignedAttribute(a, "blank", 0, "CtcBeamSearchDecoder")),
      beamWidth(unsignedAttribute(a, "beam_width", 100, "CtcBeamSearchDecoder")),
      topPaths(unsignedAttribute(a, "top_paths", 1, "CtcBeamSearchDecoder")) {}

void CtcBeamSearchDecoderOp::setup() {
  const TensorInfo &logProbs = inInfo(0);
  if (logProbs.rank() != 3)
    throw error("{}: logProbs '{}' has shape {}; [maxTime, batchSize, "
                "numClasses] is needed",
                str(), inId(0), logProbs.shape());
  if (!isFloatType(logProbs.dataType()))
    throw error("{}: logProbs '{}' is {}; FLOAT or FLOAT16 is needed", str(),
                inId(0), logProbs.data_type());
  const int64_t T = logProbs.dim(0), N = logProbs.dim(1),
                C = logProbs.dim(2);
  if (inInfo(1).shape() != Shape{N})
    throw error("{}: dataLengths '{}' has shape {}; [{}] is needed", str(),
                inId(1), inInfo(1).shape(), N);
  if (inInfo(1).dataType() != DataType::UINT32)
    throw error("{}: dataLengths '{}' is {}; UINT32 is needed", str(), inId(1),
                inInfo(1).data_type());
  if (int64_t(blank) >= C)
    throw error("{}: blank {} is not one of the {} classes", str(), blank, C);
  if (beamWidth == 0)
    throw error("{}: beam_width must be at least 1", str());
  if (topPaths == 0 || topPaths > beamWidth)
    throw error("{}: top_paths {} must be from 1 to beam_width {}", str(),
                topPaths, beamWidth);
  const int64_t paths = topPaths;
  outInfo(0) = TensorInfo(logProbs.dataType(), Shape{N, paths});
  outInfo(1) = TensorInfo(DataType::UINT32, Shape{N, paths});
  outInfo(2) = TensorInfo(DataType::UINT32, Shape{N, paths, T});
}

void CtcBeamSearchDecoderOp::appendAttributes(OpSerialiserBase &os) const {
  Op::appendAttributes(os);
  os.appendAttribute("blank", int64_t(blank));
  os.appendAttribute("beam_width", int64_t(beamWidth));
  os.appendAttribute("top_paths", int64_t(topPaths));
}

} // namespace popart
