// popnn::gru: one cell step in a poplar loop over the sequence (the
// backward pass a loop from the last step); each step's
// gates come from poplin matrix products (the input weights of all three
// units at once, the recurrent weights of the reset and update gates at
// once), popops maps and popnn's non-linearities.
#include <popnn/Gru.hpp>

#include <popnn/NonLinearity.hpp>

#include "RnnUtil.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace popnn {
namespace gru {
namespace {

// What the forward pass keeps of each step: the gates, the output and the
// input of the candidate's recurrent product's gradient (r h, or with
// resetAfter h Uc + bc').
enum Kept { KEPT_RESET, KEPT_UPDATE, KEPT_CANDIDATE, KEPT_OUTPUT,
            KEPT_RECURRENT, NUM_KEPT };

struct Sizes {
  std::size_t T, B, I, H;
};

Sizes sizesOf(const GruParams &p) {
  return {p.timeSteps, p.batchSize, p.layerSizes.at(0), p.layerSizes.at(1)};
}

// The loop's view of the layer (the fields a user may have changed after
// construction are the ones read).
rnn::RnnParams rnnParams(const GruParams &p) {
  return rnn::RnnParams(p.dataType, p.batchSize, p.timeSteps, p.layerSizes);
}

std::vector<std::size_t> biasesShape(const GruParams &p) {
  const std::size_t H = sizesOf(p).H;
  return p.resetAfter ? std::vector<std::size_t>{3, 2, H}
                      : std::vector<std::size_t>{3, H};
}

// The parameters checked and the options parsed.
detail::RecurrentOptions validate(const GruParams &p, const std::string &opName,
                                  const OptionFlags &options) {
  detail::checkRnnParams(opName, p.dataType, p.batchSize, p.timeSteps,
                         p.layerSizes, {p.activation, p.recurrentActivation});
  if (p.rnn.variableTimeSteps())
    throw poputil::poplibs_error(opName + ": variable time steps "
                                 "(params.rnn.varTimeSteps) are not supported");
  std::vector<BasicGruCellUnit> order = p.cellOrder;
  std::sort(order.begin(), order.end());
  if (order != getDefaultBasicGruCellOrder())
    throw poputil::poplibs_error(opName + ": cellOrder must hold each of the "
                                          "three units once");
  return detail::parseRecurrentOptions(options, opName, false);
}

detail::RecurrentOptions checkCommon(const GruParams &p, const Tensor &stateInit,
                                     const Tensor &in, const GruWeights &w,
                                     const std::string &opName,
                                     const OptionFlags &options) {
  const detail::RecurrentOptions opts = validate(p, opName, options);
  const Sizes s = sizesOf(p);
  detail::checkRnnTensor(in, {s.T, s.B, s.I}, p.dataType, "input", opName);
  detail::checkRnnTensor(stateInit, {s.B, s.H}, p.dataType, "initial state",
                         opName);
  detail::checkRnnTensor(w.inputWeights, {3, s.I, s.H}, p.dataType,
                         "inputWeights", opName);
  detail::checkRnnTensor(w.outputWeights, {3, s.H, s.H}, p.dataType,
                         "outputWeights", opName);
  detail::checkRnnTensor(w.biases, biasesShape(p), p.dataType, "biases", opName);
  return opts;
}

// What the backward and weight-update passes both take from the forward
// pass.
detail::RecurrentOptions
checkPassInputs(const GruParams &p, const Tensor &init, const Tensor &kept,
                const GruWeights &w, const Tensor &input, const Tensor &output,
                const std::string &opName, const OptionFlags &options) {
  const detail::RecurrentOptions opts =
      checkCommon(p, init, input, w, opName, options);
  const Sizes s = sizesOf(p);
  detail::checkRnnTensor(kept, {s.T, NUM_KEPT, s.B, s.H}, p.dataType,
                         "fwdIntermediates", opName);
  detail::checkRnnTensor(
      output, detail::rnnOutputShape(p.outputFullSequence, s.T, s.B, s.H),
      p.dataType, "output", opName);
  return opts;
}

// Tensors whose outer dimension is in cellOrder, viewed in the canonical
// order (reset, update, candidate), and back.
Tensor toCanonical(const GruParams &p, const Tensor &t) {
  std::vector<Tensor> units(3);
  for (unsigned i = 0; i != 3; ++i)
    units[p.cellOrder[i]] = t.slice(i, i + 1, 0);
  return concat(units, 0);
}
Tensor fromCanonical(const GruParams &p, const Tensor &t) {
  std::vector<Tensor> units(3);
  for (unsigned i = 0; i != 3; ++i)
    units[i] = t.slice(p.cellOrder[i], p.cellOrder[i] + 1, 0);
  return concat(units, 0);
}

// The weights in canonical order, the units side by side, and the biases
// added to x W (and, with resetAfter, to h U).
struct Canonical {
  Tensor wIn;       // [I][3H]
  Tensor uGates;    // [H][2H]: reset and update
  Tensor uCandidate; // [H][H]
  Tensor biasIn;    // [3][H]
  Tensor biasRec;   // [3][H], resetAfter only
};

Canonical canonical(const GruParams &p, const GruWeights &w) {
  const std::size_t H = sizesOf(p).H;
  Canonical c;
  c.wIn = detail::unitsSideBySide(toCanonical(p, w.inputWeights));
  const Tensor wOut = detail::unitsSideBySide(toCanonical(p, w.outputWeights));
  c.uGates = wOut.slice(0, 2 * H, 1);
  c.uCandidate = wOut.slice(2 * H, 3 * H, 1);
  const Tensor b = toCanonical(p, w.biases);
  if (p.resetAfter) {
    c.biasIn = b.slice(0, 1, 1).squeeze({1});
    c.biasRec = b.slice(1, 2, 1).squeeze({1});
  } else {
    c.biasIn = b;
  }
  return c;
}

Tensor unit(const Tensor &sideBySide, unsigned u, std::size_t H) {
  return sideBySide.slice(u * H, (u + 1) * H, 1);
}

// The output of the step before `step`.
Tensor previousOutput(const Tensor &kept, const Tensor &init, std::size_t step) {
  return step == 0 ? init : kept[step - 1][KEPT_OUTPUT];
}

} // namespace

const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder() {
  return {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE,
          BASIC_GRU_CELL_CANDIDATE};
}

GruParams::GruParams(Type dataType, std::size_t batchSize, std::size_t timeSteps,
                     std::vector<std::size_t> layerSizes,
                     NonLinearityType activation,
                     NonLinearityType recurrentActivation)
    : rnn(dataType, batchSize, timeSteps, layerSizes), dataType(dataType),
      batchSize(batchSize), timeSteps(timeSteps),
      layerSizes(std::move(layerSizes)), activation(activation),
      recurrentActivation(recurrentActivation) {}

std::uint64_t getBasicGruCellFwdFlops(const GruParams &params) {
  const Sizes s = sizesOf(params);
  return std::uint64_t(s.T) * s.B * 3 * s.H * (2 * (s.I + s.H) + 4);
}
std::uint64_t getBasicGruCellBwdFlops(const GruParams &params) {
  const Sizes s = sizesOf(params);
  return std::uint64_t(s.T) * s.B * 3 * s.H *
         (2 * (params.calcInputGradients ? s.I + s.H : s.H) + 8);
}
std::uint64_t getBasicGruCellWuFlops(const GruParams &params) {
  const Sizes s = sizesOf(params);
  return std::uint64_t(s.T) * s.B * 3 * s.H * (2 * (s.I + s.H) + 1);
}

Tensor createInput(Graph &graph, const GruParams &params,
                   const DebugContext &debugContext, const OptionFlags &options,
                   poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createInput", options);
  const Sizes s = sizesOf(params);
  return detail::rnnStepVariable(graph, params.dataType, {s.T, s.B, s.I},
                             {debugContext, "input"});
}

Tensor createInitialState(Graph &graph, const GruParams &params,
                          const DebugContext &debugContext, const OptionFlags &options,
                          poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createInitialState", options);
  const Sizes s = sizesOf(params);
  return detail::rnnVariable(graph, params.dataType, {s.B, s.H},
                             {debugContext, "initialState"});
}

std::pair<Tensor, Tensor> createWeightsKernel(Graph &graph,
                                              const GruParams &params,
                                              const DebugContext &debugContext,
                                              const OptionFlags &options,
                                              poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createWeightsKernel", options);
  const Sizes s = sizesOf(params);
  return {detail::rnnVariable(graph, params.dataType, {3, s.I, s.H},
                              {debugContext, "weightsInput"}),
          detail::rnnVariable(graph, params.dataType, {3, s.H, s.H},
                              {debugContext, "weightsOutput"})};
}

Tensor createWeightsBiases(Graph &graph, const GruParams &params,
                           const DebugContext &debugContext, const OptionFlags &options,
                           poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createWeightsBiases", options);
  return detail::rnnVariable(graph, params.dataType, biasesShape(params),
                             {debugContext, "biases"});
}

GruWeights createWeights(Graph &graph, const GruParams &params,
                         const DebugContext &debugContext,
                         const OptionFlags &options,
                         poplin::matmul::PlanningCache *cache) {
  auto [in, out] = createWeightsKernel(graph, params, debugContext, options, cache);
  return {in, out, createWeightsBiases(graph, params, debugContext, options, cache)};
}

Tensor gruFwd(Graph &graph, const GruParams &params, const Tensor &stateInit,
              const Tensor &in, const GruWeights &weights, Tensor *intermediates,
              Sequence &prog, const DebugContext &debugContext,
              const OptionFlags &options, poplin::matmul::PlanningCache *) {
  const OptionFlags mm =
      checkCommon(params, stateInit, in, weights, "popnn::gru::gruFwd", options)
          .matMulOptions("FWD");
  const Sizes s = sizesOf(params);
  const DebugContext dc(debugContext, "gruFwd");
  const Canonical w = canonical(params, weights);
  auto cell = [&](Sequence &body, std::vector<Tensor> &state,
                  const rnn::RnnSlice &step) {
    const DebugContext sdc(dc, "step");
    const Tensor &h = state[0];
    const Tensor pre =
        poplin::matMul(graph, step.inputs[0], w.wIn, body, {sdc, "xW"}, mm);
    const Tensor units = pre.reshape({s.B, 3, s.H});
    popops::addInPlace(graph, units, w.biasIn, body, {sdc, "bias"});
    const Tensor gates = pre.slice(0, 2 * s.H, 1);
    if (params.resetAfter)
      popops::addInPlace(graph, units.slice(0, 2, 1), w.biasRec.slice(0, 2, 0),
                         body, {sdc, "recurrentBias"});
    poplin::matMulAcc(graph, gates, 1.0f, h, w.uGates, body, {sdc, "hU"}, mm);
    nonLinearityInPlace(graph, params.recurrentActivation, gates, body,
                        {sdc, "gates"});
    const Tensor r = unit(pre, BASIC_GRU_CELL_RESET_GATE, s.H),
                 u = unit(pre, BASIC_GRU_CELL_UPDATE_GATE, s.H),
                 c = unit(pre, BASIC_GRU_CELL_CANDIDATE, s.H);
    Tensor recurrent;
    if (params.resetAfter) {
      // c += r (h Uc + bc')
      recurrent = poplin::matMul(graph, h, w.uCandidate, body, {sdc, "hUc"}, mm);
      popops::addInPlace(graph, recurrent, w.biasRec[BASIC_GRU_CELL_CANDIDATE],
                         body, {sdc, "recurrentBias"});
      popops::mapInPlace(graph, _1 + _2 * _3, {c, r, recurrent}, body,
                         {sdc, "candidate"});
    } else {
      // c += (r h) Uc
      recurrent = popops::mul(graph, r, h, body, {sdc, "r*h"});
      poplin::matMulAcc(graph, c, 1.0f, recurrent, w.uCandidate, body,
                        {sdc, "rhU"}, mm);
    }
    nonLinearityInPlace(graph, params.activation, c, body, {sdc, "candidate"});
    const Tensor newH = popops::map(graph, _1 * _2 + (Const(1.0f) - _1) * _3,
                                    {u, h, c}, body, {sdc, "output"});
    std::vector<Tensor> k(NUM_KEPT);
    k[KEPT_RESET] = r;
    k[KEPT_UPDATE] = u;
    k[KEPT_CANDIDATE] = c;
    k[KEPT_OUTPUT] = newH;
    k[KEPT_RECURRENT] = recurrent;
    detail::storeForwardStep(body, step, k, newH, sdc);
    body.add(Copy(newH, state[0], false, {sdc, "outputState"}));
  };
  detail::ForwardSequences seq = detail::forwardSequences(
      graph, params.dataType, s.T, NUM_KEPT, s.B, s.H, intermediates != nullptr,
      params.outputFullSequence, dc);
  const std::vector<Tensor> last = detail::loopOverSteps(
      graph, rnnParams(params), false, {stateInit}, {in},
      intermediates ? &seq.kept : nullptr, seq.outputs, prog, cell, dc);
  if (intermediates)
    *intermediates = seq.kept;
  return params.outputFullSequence ? seq.outputs[0] : last[0];
}

Tensor gruBwd(Graph &graph, const GruParams &params, Sequence &prog,
              const Tensor &fwdOutputInit, const Tensor &kept,
              const GruWeights &weights, const Tensor &fwdInputSeq,
              const Tensor &fwdOutput, const Tensor &gradLayerNext,
              Tensor *inputGrad, Tensor *bwdIntermediates,
              const DebugContext &debugContext, const OptionFlags &options,
              poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::gru::gruBwd";
  const OptionFlags mm =
      checkPassInputs(params, fwdOutputInit, kept, weights, fwdInputSeq,
                      fwdOutput, opName, options)
          .matMulOptions("TRAINING_BWD");
  const Sizes s = sizesOf(params);
  detail::checkRnnTensor(gradLayerNext, fwdOutput.shape(), params.dataType,
                         "outputGrad", opName);
  detail::checkInputGradRequest(inputGrad, params.calcInputGradients, opName);
  const DebugContext dc(debugContext, "gruBwd");
  const Canonical w = canonical(params, weights);
  // The carried gradient of the step's output (the layer's output gradient
  // first, when only the last step is an output).
  const Tensor dhInit =
      params.outputFullSequence
          ? detail::zeroedLike(graph, fwdOutputInit, prog, {dc, "dh"})
          : gradLayerNext;
  // Each step's previous output: the initial state, then the kept outputs
  // of all steps but the last.
  const Tensor hs = kept.slice(KEPT_OUTPUT, KEPT_OUTPUT + 1, 1).squeeze({1});
  const Tensor hPrevs = rnn::shiftRnnTensor(graph, rnnParams(params), hs,
                                            fwdOutputInit.expand({0}), prog, 1,
                                            {dc, "previousOutput"});
  std::vector<Tensor> inputs = {kept, hPrevs};
  if (params.outputFullSequence)
    inputs.push_back(gradLayerNext);
  std::vector<Tensor> outputs = {detail::rnnStepVariable(
      graph, params.dataType, {s.T, s.B, 4 * s.H}, {dc, "dPre"})};
  if (inputGrad)
    outputs.push_back(
        detail::rnnStepVariable(graph, params.dataType, {s.T, s.B, s.I}, {dc, "dx"}));
  auto cell = [&](Sequence &body, std::vector<Tensor> &state,
                  const rnn::RnnSlice &step) {
    const DebugContext sdc(dc, "step");
    const Tensor &k = step.inputs[0], &hPrev = step.inputs[1];
    const Tensor r = k[KEPT_RESET], u = k[KEPT_UPDATE], c = k[KEPT_CANDIDATE],
                 recurrent = k[KEPT_RECURRENT];
    const Tensor dh = params.outputFullSequence
                          ? popops::add(graph, step.inputs[2], state[0], body,
                                        {sdc, "dh"})
                          : state[0];
    // h' = u h + (1 - u) c
    const Tensor du = popops::map(graph, _1 * (_2 - _3), {dh, hPrev, c}, body,
                                  {sdc, "du"});
    const Tensor dc = popops::map(graph, _1 * (Const(1.0f) - _2), {dh, u}, body,
                                  {sdc, "dc"});
    const Tensor dPreC =
        nonLinearityInputGradient(graph, params.activation, c, dc, body, {sdc});
    // The gradients of the reset gate, of the candidate's recurrent product
    // (dRec) and, through it, of h.
    Tensor dr, dRec, dhThroughCandidate;
    if (params.resetAfter) {
      // c = a(... + r q), q = h Uc + bc'
      dRec = popops::mul(graph, dPreC, r, body, {sdc, "dq"});
      dr = popops::mul(graph, dPreC, recurrent, body, {sdc, "dr"});
      dhThroughCandidate = poplin::matMul(graph, dRec, w.uCandidate.transpose(),
                                          body, {sdc, "dh"}, mm);
    } else {
      // c = a(... + (r h) Uc)
      dRec = dPreC;
      const Tensor dRh = poplin::matMul(graph, dPreC, w.uCandidate.transpose(),
                                        body, {sdc, "d(r*h)"}, mm);
      dr = popops::mul(graph, dRh, hPrev, body, {sdc, "dr"});
      dhThroughCandidate = popops::mul(graph, dRh, r, body, {sdc, "dh"});
    }
    const Tensor dPreR = nonLinearityInputGradient(
        graph, params.recurrentActivation, r, dr, body, {sdc});
    const Tensor dPreU = nonLinearityInputGradient(
        graph, params.recurrentActivation, u, du, body, {sdc});
    const Tensor d = concat({dPreR, dPreU, dPreC}, 1);
    // dh_prev = dh u + (through the candidate) + [dR dU] Ugates^T
    const Tensor dhPrev = popops::map(graph, _1 * _2 + _3,
                                      {dh, u, dhThroughCandidate}, body,
                                      {sdc, "dhPrev"});
    poplin::matMulAcc(graph, dhPrev, 1.0f, d.slice(0, 2 * s.H, 1),
                      w.uGates.transpose(), body, {sdc, "dhPrev"}, mm);
    body.add(Copy(dhPrev, state[0], false, {sdc, "dhPrev"}));
    body.add(Copy(concat(d, dRec, 1), step.outputs[0], false, {sdc, "dPre"}));
    if (inputGrad)
      body.add(Copy(poplin::matMul(graph, d, w.wIn.transpose(), body,
                                   {sdc, "dx"}, mm),
                    step.outputs[1], false, {sdc, "dx"}));
  };
  const std::vector<Tensor> first =
      detail::loopOverSteps(graph, rnnParams(params), true, {dhInit}, inputs,
                            nullptr, outputs, prog, cell, dc);
  if (inputGrad)
    *inputGrad = outputs[1];
  if (bwdIntermediates)
    *bwdIntermediates = outputs[0];
  return first[0];
}

GruWeights gruWU(Graph &graph, const GruParams &params, Sequence &prog,
                 const Tensor &fwdOutputInit, const Tensor &kept,
                 const Tensor &bwdIntermediates, const GruWeights &weights,
                 const Tensor &input, const Tensor &output,
                 const DebugContext &debugContext, const OptionFlags &options,
                 poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::gru::gruWU";
  const OptionFlags mm = checkPassInputs(params, fwdOutputInit, kept, weights,
                                         input, output, opName, options)
                             .weightUpdateOptions();
  const Sizes s = sizesOf(params);
  detail::checkRnnTensor(bwdIntermediates, {s.T, s.B, 4 * s.H}, params.dataType,
                         "bwdIntermediates", opName);
  const DebugContext dc(debugContext, "gruWU");
  // The candidate's recurrent product takes r h (or, with resetAfter, h).
  std::vector<Tensor> prev, recurrentIn;
  for (std::size_t t = 0; t != s.T; ++t) {
    const Tensor hPrev = previousOutput(kept, fwdOutputInit, t);
    prev.push_back(hPrev.expand({0}));
    recurrentIn.push_back(
        (params.resetAfter ? hPrev : kept[t][KEPT_RECURRENT]).expand({0}));
  }
  const std::size_t rows = s.T * s.B;
  const Tensor hPrev = concat(prev, 0).reshape({rows, s.H});
  const Tensor rec = concat(recurrentIn, 0).reshape({rows, s.H});
  const Tensor x = input.reshape({rows, s.I});
  const Tensor all = bwdIntermediates.reshape({rows, 4 * s.H});
  const Tensor d = all.slice(0, 3 * s.H, 1), dRec = unit(all, 3, s.H);
  GruWeights grads;
  grads.inputWeights = fromCanonical(
      params, detail::unitsFirst(poplin::matMul(graph, x.transpose(), d, prog,
                                                {dc, "inputWeightsGrad"}, mm),
                                 3));
  const Tensor dGates = poplin::matMul(graph, hPrev.transpose(),
                                       d.slice(0, 2 * s.H, 1), prog,
                                       {dc, "outputWeightsGrad"}, mm);
  const Tensor dCandidate = poplin::matMul(graph, rec.transpose(), dRec, prog,
                                           {dc, "outputWeightsGrad"}, mm);
  grads.outputWeights = fromCanonical(
      params, detail::unitsFirst(concat(dGates, dCandidate, 1), 3));
  const Tensor biasIn = popops::reduce(graph, d, {0}, {popops::Operation::ADD},
                                       prog, {dc, "biasesGrad"})
                            .reshape({3, s.H});
  if (params.resetAfter) {
    const Tensor recurrentBias =
        popops::reduce(graph, concat(d.slice(0, 2 * s.H, 1), dRec, 1), {0},
                       {popops::Operation::ADD}, prog, {dc, "biasesGrad"})
            .reshape({3, s.H});
    grads.biases = fromCanonical(
        params, concat(biasIn.expand({1}), recurrentBias.expand({1}), 1));
  } else {
    grads.biases = fromCanonical(params, biasIn);
  }
  return grads;
}

Tensor gruBwdWithWU(Graph &graph, const GruParams &params, Sequence &prog,
                    const Tensor &fwdOutputInit, const Tensor &fwdIntermediates,
                    const GruWeights &weights, const Tensor &input,
                    const Tensor &output, const Tensor &outputGrad,
                    Tensor *inputGrad, GruWeights &weightsGrad,
                    const DebugContext &debugContext, const OptionFlags &options,
                    poplin::matmul::PlanningCache *cache) {
  Tensor bwdIntermediates;
  Tensor initGrad =
      gruBwd(graph, params, prog, fwdOutputInit, fwdIntermediates, weights,
             input, output, outputGrad, inputGrad, &bwdIntermediates,
             debugContext, options, cache);
  weightsGrad = gruWU(graph, params, prog, fwdOutputInit, fwdIntermediates,
                      bwdIntermediates, weights, input, output, debugContext,
                      options, cache);
  return initGrad;
}

} // namespace gru
} // namespace popnn
