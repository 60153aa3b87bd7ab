// The ai.graphcore builder methods of whole layers: CTC, the Graphcore
// LSTM, multiconv and the spline convolutions.
#include "builder/BuilderImpl.hpp"
#include "ops/LossOps.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/logging.hpp>

namespace popart {

std::vector<TensorId> AiGraphcoreOpset1::_ctcloss(
    const std::vector<TensorId> &args, const ReductionType reduction,
    const unsigned blank, const std::string &outDataType,
    const bool zeroInfinity, const DebugContext &dc) {
  if (args.size() != 4)
    throw error("Ctc takes 4 inputs (log_probs, targets, input_lengths, "
                "target_lengths), {} given",
                args.size());
  DataType outType;
  try {
    outType = dataTypeFromString(outDataType);
  } catch (const error &) {
    throw error("Ctc: outDataType '{}' is not FLOAT, FLOAT16 or UNDEFINED",
                outDataType);
  }
  if (outType != DataType::FLOAT && outType != DataType::FLOAT16 &&
      outType != DataType::UNDEFINED)
    throw error("Ctc: outDataType '{}' is not FLOAT, FLOAT16 or UNDEFINED",
                outDataType);
  const int64_t onnxOutType =
      outType == DataType::UNDEFINED ? 0 : getONNXDataTypeAsInt(outType);
  return addOp("Ctc", args, 2,
               {{"reduction", std::string(reductionAttributeValue(reduction))},
                {"blank", int64_t(blank)},
                {"outDataType", onnxOutType},
                {"zeroInfinity", int64_t(zeroInfinity ? 1 : 0)}},
               dc);
}
TensorId AiGraphcoreOpset1::ctcloss(const std::vector<TensorId> &args,
                                    const ReductionType reduction,
                                    const unsigned blank,
                                    const std::string &outDataType,
                                    const bool zeroInfinity,
                                    const DebugContext &dc) {
  return _ctcloss(args, reduction, blank, outDataType, zeroInfinity, dc).at(0);
}

std::vector<TensorId>
AiGraphcoreOpset1::ctcbeamsearchdecoder(const std::vector<TensorId> &args,
                                        unsigned blank, unsigned beamWidth,
                                        unsigned topPaths,
                                        const DebugContext &dc) {
  return addOp("CtcBeamSearchDecoder", twoInputs(args, "CtcBeamSearchDecoder"), 3,
               {{"blank", int64_t(blank)},
                {"beam_width", int64_t(beamWidth)},
                {"top_paths", int64_t(topPaths)}},
               dc);
}

std::vector<TensorId> AiGraphcoreOpset1::multiconv(
    const MultiConvInputs &tensors, const MultiConvDilations &dilations,
    const MultiConvDilations &inDilations, const MultiConvPads &pads,
    const MultiConvPads &outPads, const MultiConvStrides &strides,
    const std::vector<float> &availableMemoryProportions,
    const std::vector<std::string> &partialsTypes,
    const nonstd::optional<std::string> planType,
    const nonstd::optional<int> perConvReservedTiles,
    const nonstd::optional<float> cycleBackOff,
    const std::vector<int64_t> enableConvDithering, const DebugContext &dc) {
  const std::size_t numConvs = tensors.size();
  const std::string name = dc.getPathName();
  if (numConvs < 1)
    throw error("MultiConv '{}' has no input tensors: give at least one set "
                "of inputs",
                name);
  for (std::size_t i = 0; i < numConvs; ++i)
    if (tensors[i].size() < 2 || tensors[i].size() > 3)
      throw error("Convolution {} of MultiConv '{}' has {} inputs: it takes "
                  "data, weights and an optional bias",
                  i, name, tensors[i].size());
  auto checkCount = [&](std::size_t size, const char *param) {
    if (size != 0 && size != numConvs)
      throw error("MultiConv '{}': {} parameter sets of {} for {} input sets",
                  name, size, param, numConvs);
  };
  checkCount(dilations.size(), "dilations");
  checkCount(inDilations.size(), "inDilations");
  checkCount(pads.size(), "pads");
  checkCount(outPads.size(), "outPads");
  checkCount(strides.size(), "strides");
  checkCount(availableMemoryProportions.size(), "availableMemoryProportions");
  checkCount(partialsTypes.size(), "partialsTypes");
  checkCount(enableConvDithering.size(), "enableConvDithering");

  // ONNX attributes have no lists of lists: the inputs and each parameter
  // are concatenated over the convolutions (the op cuts them apart by its
  // inputs' ranks), with "" for a missing bias.
  std::vector<TensorId> flatTensors;
  std::vector<int64_t> flatDilations, flatInDilations, flatPads, flatOutPads,
      flatStrides;
  auto append = [](std::vector<int64_t> &flat, const auto &lists,
                   std::size_t i) {
    if (!lists.empty())
      flat.insert(flat.end(), lists[i].begin(), lists[i].end());
  };
  for (std::size_t i = 0; i < numConvs; ++i) {
    flatTensors.insert(flatTensors.end(), tensors[i].begin(), tensors[i].end());
    if (tensors[i].size() == 2)
      flatTensors.emplace_back();
    append(flatDilations, dilations, i);
    append(flatInDilations, inDilations, i);
    append(flatPads, pads, i);
    append(flatOutPads, outPads, i);
    append(flatStrides, strides, i);
  }
  std::map<std::string, any> attributes{
      {"numConvs", static_cast<int64_t>(numConvs)}};
  auto setIfAny = [&](const char *key, const std::vector<int64_t> &flat) {
    if (!flat.empty())
      attributes[key] = flat;
  };
  setIfAny("strides", flatStrides);
  setIfAny("pads", flatPads);
  setIfAny("outPads", flatOutPads);
  setIfAny("dilations", flatDilations);
  setIfAny("inDilations", flatInDilations);
  if (planType)
    attributes["planType"] = *planType;
  if (perConvReservedTiles)
    attributes["perConvReservedTiles"] =
        static_cast<int64_t>(*perConvReservedTiles);
  if (cycleBackOff)
    attributes["cycleBackOff"] = *cycleBackOff;
  if (!availableMemoryProportions.empty())
    attributes[sAvailMemAttribute] = availableMemoryProportions;
  if (!partialsTypes.empty())
    attributes[sPartialsTypeAttribute] = partialsTypes;
  if (!enableConvDithering.empty())
    attributes[sEnableConvDitheringAttribute] = enableConvDithering;
  return addOp("MultiConv", flatTensors, unsigned(numConvs), attributes, dc);
}

std::vector<TensorId> AiGraphcoreOpset1::lstm(const std::vector<TensorId> &args,
                                              int64_t outputFullSequence,
                                              const DebugContext &dc) {
  if (args.size() < 2 || args.size() > 5)
    throw error("LSTM takes 2 to 5 inputs (input, weights, biases, "
                "initialState, seqLengths), {} given",
                args.size());
  return addOp("LSTM", args, 2, {{"output_full_sequence", outputFullSequence}},
               dc);
}

std::vector<TensorId>
AiGraphcoreOpset1::splinebasis(const std::vector<TensorId> &args,
                               Attributes::Int degree,
                               const DebugContext &dc) {
  if (args.size() != 3)
    throw error("SplineBasis takes 3 inputs (pseudo, kernel_size, "
                "is_open_spline), {} given",
                args.size());
  return addOp("SplineBasis", args, 2, {{"degree", degree}}, dc);
}

TensorId AiGraphcoreOpset1::splineweighting(const std::vector<TensorId> &args,
                                            const DebugContext &dc) {
  if (args.size() != 4)
    throw error("SplineWeighting takes 4 inputs (input, weight, basis, "
                "weightIndex), {} given",
                args.size());
  return addOp("SplineWeighting", args, 1, {}, dc).at(0);
}

} // namespace popart
