// popnn::lstm: one cell step in a poplar loop over the sequence (the
// backward pass a loop from the last step), each step's gates made by two
// poplin matrix products
// (input and recurrent weights, all four units at once), popops maps and
// popnn's non-linearities.
#include <popnn/Lstm.hpp>

#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>

#include "RnnUtil.hpp"
#include "TileWork.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <array>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace popnn {
namespace lstm {
namespace {

// What the forward pass keeps of each step, in the order of the
// intermediates tensor's second dimension.
enum Kept { KEPT_FORGET, KEPT_INPUT, KEPT_CANDIDATE, KEPT_OUTPUT_GATE,
            KEPT_CELL, KEPT_ACT_CELL, KEPT_OUTPUT, NUM_KEPT };

struct Sizes {
  std::size_t T, B, I, H;
};

Sizes sizesOf(const LstmParams &p) {
  return {p.timeSteps, p.batchSize, p.layerSizes.at(0), p.layerSizes.at(1)};
}

// The loop's view of the layer (the fields a user may have changed after
// construction are the ones read).
rnn::RnnParams rnnParams(const LstmParams &p) {
  return rnn::RnnParams(p.dataType, p.batchSize, p.timeSteps, p.layerSizes);
}

// The parameters checked and the options parsed.
detail::RecurrentOptions validate(const LstmParams &p, const std::string &opName,
                                  const OptionFlags &options) {
  detail::checkRnnParams(opName, p.dataType, p.batchSize, p.timeSteps,
                         p.layerSizes, {p.activation, p.recurrentActivation});
  if (p.rnn.variableTimeSteps())
    throw poputil::poplibs_error(opName + ": variable time steps "
                                 "(params.rnn.varTimeSteps) are not supported");
  std::vector<BasicLstmCellUnit> order = p.cellOrder;
  std::sort(order.begin(), order.end());
  if (order != getDefaultBasicLstmCellOrder())
    throw poputil::poplibs_error(opName +
                                 ": cellOrder must hold each of the four "
                                 "units once");
  return detail::parseRecurrentOptions(options, opName, true);
}

const auto checkShape = detail::checkRnnTensor;

void checkWeights(const LstmParams &p, const LstmWeights &w,
                  const std::string &opName) {
  const Sizes s = sizesOf(p);
  checkShape(w.inputWeights, {4, s.I, s.H}, p.dataType, "inputWeights", opName);
  checkShape(w.outputWeights, {4, s.H, s.H}, p.dataType, "outputWeights", opName);
  checkShape(w.biases, {4, s.H}, p.dataType, "biases", opName);
}

void checkState(const LstmParams &p, const LstmState &state,
                const std::string &opName) {
  const Sizes s = sizesOf(p);
  checkShape(state.output, {s.B, s.H}, p.dataType, "initial output", opName);
  checkShape(state.cellState, {s.B, s.H}, p.dataType, "initial cell state",
             opName);
}

// What the backward and weight-update passes both take from the forward
// pass.
detail::RecurrentOptions
checkPassInputs(const LstmParams &p, const LstmState &init, const Tensor &kept,
                const LstmWeights &w, const Tensor &input, const Tensor &output,
                const std::string &opName, const OptionFlags &options) {
  const detail::RecurrentOptions opts = validate(p, opName, options);
  const Sizes s = sizesOf(p);
  checkShape(input, {s.T, s.B, s.I}, p.dataType, "input", opName);
  checkWeights(p, w, opName);
  checkState(p, init, opName);
  checkShape(kept, {s.T, NUM_KEPT, s.B, s.H}, p.dataType, "fwdIntermediates",
             opName);
  checkShape(output, detail::rnnOutputShape(p.outputFullSequence, s.T, s.B, s.H),
             p.dataType, "output", opName);
  return opts;
}

// Where each unit sits in the weights' outer dimension.
std::array<unsigned, 4> positions(const LstmParams &p) {
  std::array<unsigned, 4> pos{};
  for (unsigned i = 0; i != 4; ++i)
    pos[p.cellOrder[i]] = i;
  return pos;
}

Tensor keptAt(const Tensor &intermediates, std::size_t t, Kept k) {
  return intermediates[t][k];
}

// The backward pass proper: the gradients of the gates' pre-activations
// for every step ([T][B][4H]) and of the initial state; the input
// gradients when inputGrad is given.
std::pair<Tensor, LstmState>
backward(Graph &graph, const LstmParams &p, Sequence &prog,
         const LstmState &init, const Tensor &kept, const LstmWeights &w,
         const Tensor &outputGrad, const Tensor *lastCellStateGrad,
         Tensor *inputGrad, const OptionFlags &mm, const DebugContext &dc) {
  const Sizes s = sizesOf(p);
  const auto pos = positions(p);
  const Tensor wIn = detail::unitsSideBySide(w.inputWeights), wOut = detail::unitsSideBySide(w.outputWeights);
  // The carried gradients: of the step's output (the layer's output
  // gradient first, when only the last step is an output) and of its cell.
  const Tensor dhInit = p.outputFullSequence
                            ? detail::zeroedLike(graph, init.output, prog, {dc, "dh"})
                            : outputGrad;
  const Tensor dcInit = lastCellStateGrad
                            ? *lastCellStateGrad
                            : detail::zeroedLike(graph, init.cellState, prog, {dc, "dc"});
  // Each step's previous cell state: the initial cell, then the kept cells
  // of all steps but the last.
  const Tensor cells = kept.slice(KEPT_CELL, KEPT_CELL + 1, 1).squeeze({1});
  const Tensor cPrevs = rnn::shiftRnnTensor(graph, rnnParams(p), cells,
                                            init.cellState.expand({0}), prog, 1,
                                            {dc, "previousCell"});
  std::vector<Tensor> inputs = {kept, cPrevs};
  if (p.outputFullSequence)
    inputs.push_back(outputGrad);
  std::vector<Tensor> outputs = {
      detail::rnnStepVariable(graph, p.dataType, {s.T, s.B, 4 * s.H}, {dc, "dPre"})};
  if (inputGrad)
    outputs.push_back(
        detail::rnnStepVariable(graph, p.dataType, {s.T, s.B, s.I}, {dc, "dx"}));
  auto cell = [&](Sequence &body, std::vector<Tensor> &state,
                  const rnn::RnnSlice &step) {
    const DebugContext sdc(dc, "step");
    const Tensor &k = step.inputs[0], &cPrev = step.inputs[1];
    const Tensor f = k[KEPT_FORGET], i = k[KEPT_INPUT], g = k[KEPT_CANDIDATE],
                 o = k[KEPT_OUTPUT_GATE], actC = k[KEPT_ACT_CELL];
    // The gradient reaching this step's output.
    const Tensor dh = p.outputFullSequence
                          ? popops::add(graph, step.inputs[2], state[0], body,
                                        {sdc, "dh"})
                          : state[0];
    Tensor dc = nonLinearityInputGradient(
        graph, p.activation, actC, popops::mul(graph, dh, o, body, {sdc, "dh*o"}),
        body, {sdc, "dc"});
    popops::addInPlace(graph, dc, state[1], body, {sdc, "dc"});
    const Tensor dO = popops::mul(graph, dh, actC, body, {sdc, "dO"});
    const Tensor dF = popops::mul(graph, dc, cPrev, body, {sdc, "dF"});
    const Tensor dI = popops::mul(graph, dc, g, body, {sdc, "dI"});
    const Tensor dG = popops::mul(graph, dc, i, body, {sdc, "dG"});
    body.add(Copy(popops::mul(graph, dc, f, body, {sdc, "dcPrev"}), state[1],
                  false, {sdc, "dcPrev"}));
    std::array<Tensor, 4> dUnit;
    dUnit[BASIC_LSTM_CELL_FORGET_GATE] =
        nonLinearityInputGradient(graph, p.recurrentActivation, f, dF, body, {sdc});
    dUnit[BASIC_LSTM_CELL_INPUT_GATE] =
        nonLinearityInputGradient(graph, p.recurrentActivation, i, dI, body, {sdc});
    dUnit[BASIC_LSTM_CELL_CANDIDATE] =
        nonLinearityInputGradient(graph, p.activation, g, dG, body, {sdc});
    dUnit[BASIC_LSTM_CELL_OUTPUT_GATE] =
        nonLinearityInputGradient(graph, p.recurrentActivation, o, dO, body, {sdc});
    std::vector<Tensor> ordered(4);
    for (unsigned u = 0; u != 4; ++u)
      ordered[pos[u]] = dUnit[u].expand({1});
    const Tensor d = concat(ordered, 1).reshape({s.B, 4 * s.H});
    body.add(Copy(d, step.outputs[0], false, {sdc, "dPre"}));
    const Tensor dhPrev =
        poplin::matMul(graph, d, wOut.transpose(), body, {sdc, "dhPrev"}, mm);
    body.add(Copy(dhPrev, state[0], false, {sdc, "dhPrev"}));
    if (inputGrad)
      body.add(Copy(poplin::matMul(graph, d, wIn.transpose(), body, {sdc, "dx"}, mm),
                    step.outputs[1], false, {sdc, "dx"}));
  };
  const std::vector<Tensor> first =
      detail::loopOverSteps(graph, rnnParams(p), true, {dhInit, dcInit}, inputs,
                            nullptr, outputs, prog, cell, dc);
  if (inputGrad)
    *inputGrad = outputs[1];
  return {outputs[0], LstmState{first[0], first[1]}};
}

LstmWeights weightUpdate(Graph &graph, const LstmParams &p, Sequence &prog,
                         const LstmState &init, const Tensor &kept,
                         const Tensor &dPre, const Tensor &input,
                         const OptionFlags &mm, const DebugContext &dc) {
  const Sizes s = sizesOf(p);
  std::vector<Tensor> prev = {init.output.expand({0})};
  for (std::size_t t = 0; t + 1 < s.T; ++t)
    prev.push_back(keptAt(kept, t, KEPT_OUTPUT).expand({0}));
  const Tensor hPrev = concat(prev, 0).reshape({s.T * s.B, s.H});
  const Tensor x = input.reshape({s.T * s.B, s.I});
  const Tensor d = dPre.reshape({s.T * s.B, 4 * s.H});
  LstmWeights grads;
  grads.inputWeights = detail::unitsFirst(
      poplin::matMul(graph, x.transpose(), d, prog, {dc, "inputWeightsGrad"}, mm),
      4);
  grads.outputWeights = detail::unitsFirst(
      poplin::matMul(graph, hPrev.transpose(), d, prog, {dc, "outputWeightsGrad"},
                     mm),
      4);
  grads.biases = popops::reduce(graph, d, {0}, {popops::Operation::ADD}, prog,
                                {dc, "biasesGrad"})
                     .reshape({4, s.H});
  return grads;
}

} // namespace

const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder() {
  return {BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_INPUT_GATE,
          BASIC_LSTM_CELL_CANDIDATE, BASIC_LSTM_CELL_OUTPUT_GATE};
}

LstmParams::LstmParams(Type dataType, std::size_t batchSize,
                       std::size_t timeSteps, std::vector<std::size_t> layerSizes,
                       NonLinearityType activation,
                       NonLinearityType recurrentActivation)
    : rnn(dataType, batchSize, timeSteps, layerSizes), dataType(dataType),
      batchSize(batchSize), timeSteps(timeSteps),
      layerSizes(std::move(layerSizes)), activation(activation),
      recurrentActivation(recurrentActivation) {}

Tensor LstmState::getAsTensor() const {
  return concat(output.expand({0}), cellState.expand({0}));
}

std::uint64_t getBasicLstmCellFwdFlops(const LstmParams &params) {
  const Sizes s = sizesOf(params);
  // Two products per unit, then about 5 element-wise operations a unit.
  return std::uint64_t(s.T) * s.B * 4 * s.H * (2 * (s.I + s.H) + 5);
}
std::uint64_t getBasicLstmCellBwdFlops(const LstmParams &params) {
  const Sizes s = sizesOf(params);
  return std::uint64_t(s.T) * s.B * 4 * s.H *
         (2 * (params.calcInputGradients ? s.I + s.H : s.H) + 10);
}
std::uint64_t getBasicLstmCellWuFlops(const LstmParams &params) {
  const Sizes s = sizesOf(params);
  return std::uint64_t(s.T) * s.B * 4 * s.H * (2 * (s.I + s.H) + 1);
}

Tensor createInput(Graph &graph, const LstmParams &params,
                   const DebugContext &debugContext, const OptionFlags &options,
                   poplin::matmul::PlanningCache *) {
  validate(params, "popnn::lstm::createInput", options);
  const Sizes s = sizesOf(params);
  return detail::rnnStepVariable(graph, params.dataType, {s.T, s.B, s.I}, {debugContext, "input"});
}

Tensor createInitialOutput(Graph &graph, const LstmParams &params,
                           const DebugContext &debugContext,
                           const OptionFlags &options,
                           poplin::matmul::PlanningCache *) {
  validate(params, "popnn::lstm::createInitialOutput", options);
  const Sizes s = sizesOf(params);
  return detail::rnnVariable(graph, params.dataType, {s.B, s.H}, {debugContext, "initialOutput"});
}

Tensor createInitialCellState(Graph &graph, const LstmParams &params,
                              const DebugContext &debugContext,
                              const OptionFlags &options,
                              poplin::matmul::PlanningCache *) {
  validate(params, "popnn::lstm::createInitialCellState", options);
  const Sizes s = sizesOf(params);
  return detail::rnnVariable(graph, params.dataType, {s.B, s.H},
                  {debugContext, "initialCellState"});
}

LstmState createInitialState(Graph &graph, const LstmParams &params,
                             const DebugContext &debugContext,
                             const OptionFlags &options,
                             poplin::matmul::PlanningCache *cache) {
  return {createInitialOutput(graph, params, debugContext, options, cache),
          createInitialCellState(graph, params, debugContext, options, cache)};
}

void zeroInitialState(Graph &graph, const LstmState &initialState,
                      Sequence &prog, const DebugContext &debugContext) {
  popops::zero(graph, initialState.getAsTensor(), prog, debugContext);
}

std::pair<Tensor, Tensor> createWeightsKernel(Graph &graph,
                                              const LstmParams &params,
                                              const DebugContext &debugContext,
                                              const OptionFlags &options,
                                              poplin::matmul::PlanningCache *) {
  validate(params, "popnn::lstm::createWeightsKernel", options);
  const Sizes s = sizesOf(params);
  return {detail::rnnVariable(graph, params.dataType, {4, s.I, s.H},
                   {debugContext, "weightsInput"}),
          detail::rnnVariable(graph, params.dataType, {4, s.H, s.H},
                   {debugContext, "weightsOutput"})};
}

Tensor createWeightsBiases(Graph &graph, const LstmParams &params,
                           const DebugContext &debugContext,
                           const OptionFlags &options,
                           poplin::matmul::PlanningCache *) {
  validate(params, "popnn::lstm::createWeightsBiases", options);
  return detail::rnnVariable(graph, params.dataType, {4, sizesOf(params).H},
                  {debugContext, "biases"});
}

LstmWeights createWeights(Graph &graph, const LstmParams &params,
                          const DebugContext &debugContext,
                          const OptionFlags &options,
                          poplin::matmul::PlanningCache *cache) {
  auto [in, out] = createWeightsKernel(graph, params, debugContext, options, cache);
  return {in, out, createWeightsBiases(graph, params, debugContext, options, cache)};
}

Tensor lstmFwd(Graph &graph, const LstmParams &params, Sequence &prog,
               const LstmState &stateInit, const LstmWeights &weights,
               const Tensor &in, Tensor *intermediates,
               const DebugContext &debugContext, const OptionFlags &options,
               poplin::matmul::PlanningCache *cache) {
  return lstmFwd(graph, params, stateInit, in, weights, intermediates, prog,
                 debugContext, options, cache)
      .first;
}

std::pair<Tensor, Tensor>
lstmFwd(Graph &graph, const LstmParams &params, const LstmState &stateInit,
        const Tensor &in, const LstmWeights &weights, Tensor *intermediates,
        Sequence &prog, const DebugContext &debugContext,
        const OptionFlags &options, poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::lstm::lstmFwd";
  const OptionFlags mm = validate(params, opName, options).matMulOptions("FWD");
  const Sizes s = sizesOf(params);
  checkShape(in, {s.T, s.B, s.I}, params.dataType, "in", opName);
  checkWeights(params, weights, opName);
  checkState(params, stateInit, opName);
  const DebugContext dc(debugContext, "lstmFwd");
  const auto pos = positions(params);
  const Tensor wIn = detail::unitsSideBySide(weights.inputWeights),
               wOut = detail::unitsSideBySide(weights.outputWeights);
  auto cell = [&](Sequence &body, std::vector<Tensor> &state,
                  const rnn::RnnSlice &step) {
    const DebugContext sdc(dc, "step");
    Tensor &h = state[0], &c = state[1];
    Tensor pre = poplin::matMul(graph, step.inputs[0], wIn, body, {sdc, "xW"}, mm);
    poplin::matMulAcc(graph, pre, 1.0f, h, wOut, body, {sdc, "hU"}, mm);
    const Tensor units = pre.reshape({s.B, 4, s.H});
    popops::addInPlace(graph, units, weights.biases, body, {sdc, "bias"});
    auto unit = [&](BasicLstmCellUnit u) { return units.slice(pos[u], pos[u] + 1, 1).squeeze({1}); };
    const Tensor f = unit(BASIC_LSTM_CELL_FORGET_GATE),
                 i = unit(BASIC_LSTM_CELL_INPUT_GATE),
                 g = unit(BASIC_LSTM_CELL_CANDIDATE),
                 o = unit(BASIC_LSTM_CELL_OUTPUT_GATE);
    for (const Tensor &gate : {f, i, o})
      nonLinearityInPlace(graph, params.recurrentActivation, gate, body, {sdc, "gate"});
    nonLinearityInPlace(graph, params.activation, g, body, {sdc, "candidate"});
    const Tensor newC =
        popops::map(graph, _1 * _2 + _3 * _4, {f, c, i, g}, body, {sdc, "cell"});
    const Tensor actC = nonLinearity(graph, params.activation, newC, body, {sdc, "actCell"});
    const Tensor newH = popops::mul(graph, o, actC, body, {sdc, "output"});
    std::vector<Tensor> k(NUM_KEPT);
    k[KEPT_FORGET] = f;
    k[KEPT_INPUT] = i;
    k[KEPT_CANDIDATE] = g;
    k[KEPT_OUTPUT_GATE] = o;
    k[KEPT_CELL] = newC;
    k[KEPT_ACT_CELL] = actC;
    k[KEPT_OUTPUT] = newH;
    detail::storeForwardStep(body, step, k, newH, sdc);
    body.add(Copy(newC, c, false, {sdc, "cellState"}));
    body.add(Copy(newH, h, false, {sdc, "outputState"}));
  };
  detail::ForwardSequences seq = detail::forwardSequences(
      graph, params.dataType, s.T, NUM_KEPT, s.B, s.H, intermediates != nullptr,
      params.outputFullSequence, dc);
  const std::vector<Tensor> last = detail::loopOverSteps(
      graph, rnnParams(params), false, {stateInit.output, stateInit.cellState},
      {in}, intermediates ? &seq.kept : nullptr, seq.outputs, prog, cell, dc);
  if (intermediates)
    *intermediates = seq.kept;
  return {params.outputFullSequence ? seq.outputs[0] : last[0], last[1]};
}

LstmState lstmBwd(Graph &graph, const LstmParams &params, Sequence &prog,
                  const LstmState &fwdStateInit, const Tensor &fwdIntermediates,
                  const LstmWeights &weights, const Tensor &input,
                  const Tensor &output, const Tensor &outputGrad,
                  const Tensor *lastCellStateGrad, Tensor *inputGrad,
                  Tensor *bwdIntermediates, const DebugContext &debugContext,
                  const OptionFlags &options, poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::lstm::lstmBwd";
  const detail::RecurrentOptions opts =
      checkPassInputs(params, fwdStateInit, fwdIntermediates, weights, input,
                      output, opName, options);
  const Sizes s = sizesOf(params);
  checkShape(outputGrad, output.shape(), params.dataType, "outputGrad", opName);
  if (lastCellStateGrad)
    checkShape(*lastCellStateGrad, {s.B, s.H}, params.dataType,
               "lastCellStateGrad", opName);
  detail::checkInputGradRequest(inputGrad, params.calcInputGradients, opName);
  auto [dPre, initGrad] =
      backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights,
               outputGrad, lastCellStateGrad, inputGrad,
               opts.matMulOptions("TRAINING_BWD"), {debugContext, "lstmBwd"});
  if (bwdIntermediates)
    *bwdIntermediates = dPre;
  return initGrad;
}

namespace {

// outputGrad with the gradient of the final output added to its last step
// (a copy), when there is one.
Tensor withFinalOutputGrad(Graph &graph, const LstmParams &params,
                           const Tensor &output, const Tensor &outputGrad,
                           const LstmState *last, Sequence &prog,
                           const DebugContext &dc, const std::string &opName) {
  checkShape(outputGrad, output.shape(), params.dataType, "outputGrad", opName);
  if (!last || !last->output.valid())
    return outputGrad;
  const Sizes s = sizesOf(params);
  checkShape(last->output, {s.B, s.H}, params.dataType,
             "lastStepStateGrad.output", opName);
  Tensor g = poputil::duplicate(graph, outputGrad, prog, {dc, "outputGrad"});
  popops::addInPlace(graph, params.outputFullSequence ? g[s.T - 1] : g,
                     last->output, prog, {dc, "finalOutputGrad"});
  return g;
}

const Tensor *finalCellGrad(const LstmState *last) {
  return last && last->cellState.valid() ? &last->cellState : nullptr;
}

} // namespace

LstmState lstmBwd(Graph &graph, const LstmParams &params, Sequence &prog,
                  const LstmState &fwdStateInit, const Tensor &fwdIntermediates,
                  const LstmWeights &weights, const Tensor &input,
                  const Tensor &output, const Tensor &outputGrad,
                  const LstmState *lastStepStateGrad, Tensor *inputGrad,
                  Tensor *bwdIntermediates, const DebugContext &debugContext,
                  const OptionFlags &options,
                  poplin::matmul::PlanningCache *cache) {
  const Tensor grad = withFinalOutputGrad(
      graph, params, output, outputGrad, lastStepStateGrad, prog,
      {debugContext, "lstmBwd"}, "popnn::lstm::lstmBwd");
  return lstmBwd(graph, params, prog, fwdStateInit, fwdIntermediates, weights,
                 input, output, grad, finalCellGrad(lastStepStateGrad),
                 inputGrad, bwdIntermediates, debugContext, options, cache);
}

LstmWeights lstmWU(Graph &graph, const LstmParams &params, Sequence &prog,
                   const LstmState &fwdStateInit, const Tensor &fwdIntermediates,
                   const Tensor &bwdIntermediates, const LstmWeights &weights,
                   const Tensor &input, const Tensor &output,
                   const DebugContext &debugContext, const OptionFlags &options,
                   poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::lstm::lstmWU";
  const detail::RecurrentOptions opts =
      checkPassInputs(params, fwdStateInit, fwdIntermediates, weights, input,
                      output, opName, options);
  const Sizes s = sizesOf(params);
  checkShape(bwdIntermediates, {s.T, s.B, 4 * s.H}, params.dataType,
             "bwdIntermediates", opName);
  return weightUpdate(graph, params, prog, fwdStateInit, fwdIntermediates,
                      bwdIntermediates, input, opts.weightUpdateOptions(),
                      {debugContext, "lstmWU"});
}

LstmState lstmBwdWithWU(Graph &graph, const LstmParams &params, Sequence &prog,
                        const LstmState &fwdStateInit,
                        const Tensor &fwdIntermediates,
                        const LstmWeights &weights, const Tensor &input,
                        const Tensor &output, const Tensor &outputGrad,
                        const Tensor *lastCellStateGrad, Tensor *inputGrad,
                        LstmWeights &weightsGrad,
                        const DebugContext &debugContext,
                        const OptionFlags &options,
                        poplin::matmul::PlanningCache *cache) {
  Tensor bwdIntermediates;
  LstmState initGrad =
      lstmBwd(graph, params, prog, fwdStateInit, fwdIntermediates, weights,
              input, output, outputGrad, lastCellStateGrad, inputGrad,
              &bwdIntermediates, debugContext, options, cache);
  weightsGrad = lstmWU(graph, params, prog, fwdStateInit, fwdIntermediates,
                       bwdIntermediates, weights, input, output, debugContext,
                       options, cache);
  return initGrad;
}

LstmState lstmBwdWithWU(Graph &graph, const LstmParams &params, Sequence &prog,
                        const LstmState &fwdStateInit,
                        const Tensor &fwdIntermediates,
                        const LstmWeights &weights, const Tensor &input,
                        const Tensor &output, const Tensor &outputGrad,
                        const LstmState *lastStepStateGrad, Tensor *inputGrad,
                        LstmWeights &weightsGrad,
                        const DebugContext &debugContext,
                        const OptionFlags &options,
                        poplin::matmul::PlanningCache *cache) {
  const Tensor grad = withFinalOutputGrad(
      graph, params, output, outputGrad, lastStepStateGrad, prog,
      {debugContext, "lstmBwdWithWU"}, "popnn::lstm::lstmBwdWithWU");
  return lstmBwdWithWU(graph, params, prog, fwdStateInit, fwdIntermediates,
                       weights, input, output, grad,
                       finalCellGrad(lastStepStateGrad), inputGrad, weightsGrad,
                       debugContext, options, cache);
}

} // namespace lstm
} // namespace popnn
