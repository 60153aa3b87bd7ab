#include "RnnUtil.hpp"

#include "TileWork.hpp"

#include <popnn/NonLinearityDefUtil.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <cstdlib>

using namespace poplar;

namespace popnn {
namespace detail {

void checkRnnParams(const std::string &opName, const Type &dataType,
                    std::size_t batchSize, std::size_t timeSteps,
                    const std::vector<std::size_t> &layerSizes,
                    const std::vector<NonLinearityType> &activations) {
  auto fail = [&](const std::string &why) {
    throw poputil::poplibs_error(opName + ": " + why);
  };
  if (layerSizes.size() != 2)
    fail("layerSizes must be {inputSize, outputSize} (one layer)");
  if (dataType != FLOAT && dataType != HALF)
    fail("the data type must be FLOAT or HALF");
  if (timeSteps == 0 || batchSize == 0 || layerSizes[0] == 0 ||
      layerSizes[1] == 0)
    fail("timeSteps, batchSize and the layer sizes must be positive");
  for (auto nl : activations)
    if (nl != NonLinearityType::SIGMOID && nl != NonLinearityType::TANH &&
        nl != NonLinearityType::RELU)
      fail(std::string("unsupported activation ") + asString(nl) +
           " (SIGMOID, TANH or RELU)");
}

namespace {

// One option's value checked: invalid_option naming the op, the option and
// what it may be otherwise.
class OptionValue {
public:
  OptionValue(const std::string &opName, const std::string &key,
              const std::string &value)
      : opName(opName), key(key), value(value) {}

  [[noreturn]] void refuse(const std::string &allowed) const {
    throw poplar::invalid_option(opName + ": option " + key + " must be " +
                                 allowed + ", not '" + value + "'");
  }
  bool boolean() const {
    if (value != "true" && value != "false")
      refuse("true or false");
    return value == "true";
  }
  poplar::Type floatType() const {
    if (value == "half")
      return poplar::HALF;
    if (value == "float")
      return poplar::FLOAT;
    refuse("half or float");
  }
  unsigned long positiveInteger() const {
    char *end = nullptr;
    const unsigned long v = std::strtoul(value.c_str(), &end, 10);
    if (value.empty() || value[0] == '-' || *end != '\0' || v == 0)
      refuse("a positive integer");
    return v;
  }
  double proportion() const {
    char *end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(v > 0) || v > 1)
      refuse("a number in (0, 1]");
    return v;
  }
  // An option of the original whose other values ask for a schedule this
  // implementation does not build.
  void onlyAllowed(bool ok, const std::string &what) const {
    if (!ok)
      throw poplar::invalid_option(opName + ": option " + key + "='" + value +
                                   "' is not supported (" + what + ")");
  }

private:
  const std::string &opName, &key, &value;
};

} // namespace

RecurrentOptions parseRecurrentOptions(const poplar::OptionFlags &options,
                                       const std::string &opName, bool lstm) {
  RecurrentOptions r;
  for (const auto &[key, value] : options) {
    const OptionValue v(opName, key, value);
    if (key == "inferenceOnly") {
      r.inferenceOnly = v.boolean();
    } else if (key == "partialsType") {
      r.partialsType = v.floatType();
    } else if (key == "availableMemoryProportion") {
      v.proportion();
      r.availableMemoryProportion = value;
    } else if (key == "numShards") {
      v.onlyAllowed(v.positiveInteger() == 1,
                    "the sequence is built as one shard: 1");
    } else if (key == "rnnCodeReuse") {
      v.onlyAllowed(!v.boolean(), "every step is built on its own: false");
    } else if (lstm && key == "weightAccumulatorsType") {
      r.weightAccumulatorsType = v.floatType();
    } else if (lstm && key == "preCalcWeights") {
      v.onlyAllowed(!v.boolean(),
                    "each step multiplies its own input: false");
    } else if (lstm && key == "recomputationMode") {
      if (value != "none" && value != "cellAndTanh" && value != "full")
        v.refuse("none, cellAndTanh or full");
      v.onlyAllowed(value == "none",
                    "the forward pass keeps every intermediate: none");
    } else if (lstm && key == "rnnStepsPerWU") {
      v.positiveInteger();
      v.onlyAllowed(false, "the weight update takes every step in one "
                           "product");
    } else if (lstm && key == "disableWUPartialInterleaving") {
      // The weight update never interleaves with the backward pass here,
      // which either value allows.
      v.boolean();
    } else {
      throw poplar::invalid_option(opName + ": unknown option '" + key + "'");
    }
  }
  return r;
}

poplar::OptionFlags RecurrentOptions::matMulOptions(const std::string &pass) const {
  poplar::OptionFlags flags{
      {"partialsType", partialsType.toString().str()},
      {"fullyConnectedPass",
       pass != "FWD" ? pass
                     : inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD"}};
  if (availableMemoryProportion)
    flags.set("availableMemoryProportion", *availableMemoryProportion);
  return flags;
}

poplar::OptionFlags RecurrentOptions::weightUpdateOptions() const {
  poplar::OptionFlags flags = matMulOptions("TRAINING_WU");
  flags.set("partialsType",
            weightAccumulatorsType.value_or(partialsType).toString().str());
  return flags;
}

void checkRnnTensor(const Tensor &t, const std::vector<std::size_t> &shape,
                    const Type &type, const std::string &what,
                    const std::string &opName) {
  if (t.shape() == shape && t.elementType() == type)
    return;
  std::string s = "[";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  throw poputil::poplibs_error(opName + ": " + what + " " + describe(t) +
                               " of type " + t.elementType().toString().str() +
                               " must have shape " + s + "] and type " +
                               type.toString().str());
}

std::vector<std::size_t> rnnOutputShape(bool fullSequence, std::size_t timeSteps,
                                        std::size_t batchSize,
                                        std::size_t outputSize) {
  if (fullSequence)
    return {timeSteps, batchSize, outputSize};
  return {batchSize, outputSize};
}

void checkInputGradRequest(bool given, bool calcInputGradients,
                           const std::string &opName) {
  if (given != calcInputGradients)
    throw poputil::poplibs_error(
        opName + ": inputGrad must be given if and only if "
                 "params.calcInputGradients (which is " +
        (calcInputGradients ? "true)" : "false)"));
}

Tensor rnnVariable(Graph &graph, const Type &type, std::vector<std::size_t> shape,
                   const DebugContext &dc) {
  Tensor t = graph.addVariable(type, shape, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor rnnStepVariable(Graph &graph, const Type &type,
                       std::vector<std::size_t> shape, const DebugContext &dc) {
  Tensor t = graph.addVariable(type, shape, dc);
  for (std::size_t s = 0; s != shape.at(0); ++s)
    poputil::mapTensorLinearly(graph, t[s]);
  return t;
}

std::vector<Tensor> loopOverSteps(Graph &graph, const rnn::RnnParams &params,
                                  bool reverse,
                                  const std::vector<Tensor> &initState,
                                  const std::vector<Tensor> &inputs,
                                  Tensor *interimOut,
                                  const std::vector<Tensor> &outputs,
                                  program::Sequence &prog, const StepBody &cell,
                                  const DebugContext &dc) {
  OptionFlags noOptions;
  auto body = [&](Graph &, const rnn::TimeStepState &,
                  const rnn::RnnBatchwiseFlags &, std::vector<Tensor> &state,
                  const rnn::RnnSlice &step, std::vector<Tensor> &,
                  program::Sequence *, const DebugNameAndId &) {
    program::Sequence s;
    cell(s, state, step);
    return s;
  };
  return rnn::Rnn(graph, params, reverse, initState, {}, inputs, nullptr,
                  interimOut, outputs, {}, prog, body, 1, noOptions, dc);
}

ForwardSequences forwardSequences(Graph &graph, const Type &type,
                                  std::size_t steps, std::size_t numKept,
                                  std::size_t batch, std::size_t outputSize,
                                  bool keep, bool fullSequence,
                                  const DebugContext &dc) {
  ForwardSequences f;
  if (keep)
    f.kept = rnnStepVariable(graph, type, {steps, numKept, batch, outputSize},
                             {dc, "intermediates"});
  if (fullSequence)
    f.outputs.push_back(
        rnnStepVariable(graph, type, {steps, batch, outputSize}, {dc, "output"}));
  return f;
}

void storeForwardStep(program::Sequence &body, const rnn::RnnSlice &step,
                      const std::vector<Tensor> &kept, const Tensor &output,
                      const DebugContext &dc) {
  if (step.interimOut.valid())
    for (std::size_t n = 0; n != kept.size(); ++n)
      body.add(program::Copy(kept[n], step.interimOut[n], false, {dc, "kept"}));
  if (!step.outputs.empty())
    body.add(program::Copy(output, step.outputs[0], false, {dc, "output"}));
}

Tensor zeroedLike(Graph &graph, const Tensor &like, program::Sequence &prog,
                  const DebugContext &dc) {
  Tensor t = graph.clone(like, dc);
  popops::zero(graph, t, prog, dc);
  return t;
}

Tensor unitsSideBySide(const Tensor &w) {
  return w.dimShuffle({1, 0, 2}).reshape({w.dim(1), w.dim(0) * w.dim(2)});
}

Tensor unitsFirst(const Tensor &w, std::size_t units) {
  return w.reshape({w.dim(0), units, w.dim(1) / units}).dimShuffle({1, 0, 2});
}

} // namespace detail
} // namespace popnn
