// popnn::gru: the sequence is unrolled at graph-build time; each step's
// gates come from poplin matrix products (the input weights of all three
// units at once, the recurrent weights of the reset and update gates at
// once), popops maps and popnn's non-linearities.
#include <popnn/Gru.hpp>

#include <popnn/NonLinearity.hpp>

#include "RnnUtil.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace popnn {
namespace gru {
namespace {

// What the forward pass keeps of each step.
enum Kept { KEPT_RESET, KEPT_UPDATE, KEPT_CANDIDATE, KEPT_OUTPUT, NUM_KEPT };

struct Sizes {
  std::size_t T, B, I, H;
};

Sizes sizesOf(const GruParams &p) {
  return {p.timeSteps, p.batchSize, p.layerSizes.at(0), p.layerSizes.at(1)};
}

void validate(const GruParams &p, const std::string &opName) {
  detail::checkRnnParams(opName, p.dataType, p.batchSize, p.timeSteps,
                         p.layerSizes, {p.activation, p.recurrentActivation});
}

void checkCommon(const GruParams &p, const Tensor &stateInit, const Tensor &in,
                 const GruWeights &w, const std::string &opName) {
  validate(p, opName);
  const Sizes s = sizesOf(p);
  detail::checkRnnTensor(in, {s.T, s.B, s.I}, p.dataType, "input", opName);
  detail::checkRnnTensor(stateInit, {s.B, s.H}, p.dataType, "initial state",
                         opName);
  detail::checkRnnTensor(w.inputWeights, {3, s.I, s.H}, p.dataType,
                         "inputWeights", opName);
  detail::checkRnnTensor(w.outputWeights, {3, s.H, s.H}, p.dataType,
                         "outputWeights", opName);
  detail::checkRnnTensor(w.biases, {3, s.H}, p.dataType, "biases", opName);
}

// What the backward and weight-update passes both take from the forward
// pass.
void checkPassInputs(const GruParams &p, const Tensor &init, const Tensor &kept,
                     const GruWeights &w, const Tensor &input,
                     const Tensor &output, const std::string &opName) {
  checkCommon(p, init, input, w, opName);
  const Sizes s = sizesOf(p);
  detail::checkRnnTensor(kept, {s.T, NUM_KEPT, s.B, s.H}, p.dataType,
                         "fwdIntermediates", opName);
  detail::checkRnnTensor(
      output, detail::rnnOutputShape(p.outputFullSequence, s.T, s.B, s.H),
      p.dataType, "output", opName);
}

Tensor unit(const Tensor &sideBySide, unsigned u, std::size_t H) {
  return sideBySide.slice(u * H, (u + 1) * H, 1);
}

// The output of the step before `step`.
Tensor previousOutput(const Tensor &kept, const Tensor &init, std::size_t step) {
  return step == 0 ? init : kept[step - 1][KEPT_OUTPUT];
}

} // namespace

GruParams::GruParams(Type dataType, std::size_t batchSize, std::size_t timeSteps,
                     std::vector<std::size_t> layerSizes,
                     NonLinearityType activation,
                     NonLinearityType recurrentActivation)
    : dataType(dataType), batchSize(batchSize), timeSteps(timeSteps),
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
                   const DebugContext &debugContext, const OptionFlags &,
                   poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createInput");
  const Sizes s = sizesOf(params);
  return detail::rnnVariable(graph, params.dataType, {s.T, s.B, s.I},
                             {debugContext, "input"});
}

Tensor createInitialState(Graph &graph, const GruParams &params,
                          const DebugContext &debugContext, const OptionFlags &,
                          poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createInitialState");
  const Sizes s = sizesOf(params);
  return detail::rnnVariable(graph, params.dataType, {s.B, s.H},
                             {debugContext, "initialState"});
}

std::pair<Tensor, Tensor> createWeightsKernel(Graph &graph,
                                              const GruParams &params,
                                              const DebugContext &debugContext,
                                              const OptionFlags &,
                                              poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createWeightsKernel");
  const Sizes s = sizesOf(params);
  return {detail::rnnVariable(graph, params.dataType, {3, s.I, s.H},
                              {debugContext, "weightsInput"}),
          detail::rnnVariable(graph, params.dataType, {3, s.H, s.H},
                              {debugContext, "weightsOutput"})};
}

Tensor createWeightsBiases(Graph &graph, const GruParams &params,
                           const DebugContext &debugContext, const OptionFlags &,
                           poplin::matmul::PlanningCache *) {
  validate(params, "popnn::gru::createWeightsBiases");
  return detail::rnnVariable(graph, params.dataType, {3, sizesOf(params).H},
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
              const OptionFlags &, poplin::matmul::PlanningCache *) {
  checkCommon(params, stateInit, in, weights, "popnn::gru::gruFwd");
  const Sizes s = sizesOf(params);
  const DebugContext dc(debugContext, "gruFwd");
  const Tensor wIn = detail::unitsSideBySide(weights.inputWeights);
  const Tensor wOut = detail::unitsSideBySide(weights.outputWeights);
  const Tensor uGates = wOut.slice(0, 2 * s.H, 1), uCandidate = unit(wOut, 2, s.H);
  Tensor h = stateInit;
  std::vector<Tensor> outputs, kept;
  for (std::size_t step = 0; step != s.T; ++step) {
    const DebugContext sdc(dc, "step" + std::to_string(step));
    const Tensor pre = poplin::matMul(graph, in[step], wIn, prog, {sdc, "xW"});
    popops::addInPlace(graph, pre.reshape({s.B, 3, s.H}), weights.biases, prog,
                       {sdc, "bias"});
    const Tensor gates = pre.slice(0, 2 * s.H, 1);
    poplin::matMulAcc(graph, gates, 1.0f, h, uGates, prog, {sdc, "hU"});
    nonLinearityInPlace(graph, params.recurrentActivation, gates, prog,
                        {sdc, "gates"});
    const Tensor r = unit(pre, BASIC_GRU_CELL_RESET_GATE, s.H),
                 u = unit(pre, BASIC_GRU_CELL_UPDATE_GATE, s.H),
                 c = unit(pre, BASIC_GRU_CELL_CANDIDATE, s.H);
    const Tensor rh = popops::mul(graph, r, h, prog, {sdc, "r*h"});
    poplin::matMulAcc(graph, c, 1.0f, rh, uCandidate, prog, {sdc, "rhU"});
    nonLinearityInPlace(graph, params.activation, c, prog, {sdc, "candidate"});
    h = popops::map(graph, _1 * _2 + (Const(1.0f) - _1) * _3, {u, h, c}, prog,
                    {sdc, "output"});
    outputs.push_back(h.expand({0}));
    std::vector<Tensor> k = {r.expand({0}), u.expand({0}), c.expand({0}),
                             h.expand({0})};
    kept.push_back(concat(k, 0).expand({0}));
  }
  if (intermediates)
    *intermediates = concat(kept, 0);
  return params.outputFullSequence ? concat(outputs, 0) : h;
}

Tensor gruBwd(Graph &graph, const GruParams &params, Sequence &prog,
              const Tensor &fwdOutputInit, const Tensor &kept,
              const GruWeights &weights, const Tensor &fwdInputSeq,
              const Tensor &fwdOutput, const Tensor &gradLayerNext,
              Tensor *inputGrad, Tensor *bwdIntermediates,
              const DebugContext &debugContext, const OptionFlags &,
              poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::gru::gruBwd";
  checkPassInputs(params, fwdOutputInit, kept, weights, fwdInputSeq, fwdOutput,
                  opName);
  const Sizes s = sizesOf(params);
  detail::checkRnnTensor(gradLayerNext, fwdOutput.shape(), params.dataType,
                         "outputGrad", opName);
  detail::checkInputGradRequest(inputGrad, params.calcInputGradients, opName);
  const DebugContext dc(debugContext, "gruBwd");
  const Tensor wIn = detail::unitsSideBySide(weights.inputWeights);
  const Tensor wOut = detail::unitsSideBySide(weights.outputWeights);
  const Tensor uGates = wOut.slice(0, 2 * s.H, 1), uCandidate = unit(wOut, 2, s.H);
  std::vector<Tensor> dPre(s.T), dx(s.T);
  Tensor dhRecurrent;
  for (std::size_t step = s.T; step-- != 0;) {
    const DebugContext sdc(dc, "step" + std::to_string(step));
    const Tensor r = kept[step][KEPT_RESET], u = kept[step][KEPT_UPDATE],
                 c = kept[step][KEPT_CANDIDATE];
    const Tensor hPrev = previousOutput(kept, fwdOutputInit, step);
    Tensor dh;
    if (params.outputFullSequence)
      dh = gradLayerNext[step];
    else if (step == s.T - 1)
      dh = gradLayerNext;
    if (dhRecurrent.valid())
      dh = dh.valid() ? popops::add(graph, dh, dhRecurrent, prog, {sdc, "dh"})
                      : dhRecurrent;
    // h' = u h + (1 - u) c
    const Tensor du = popops::map(graph, _1 * (_2 - _3), {dh, hPrev, c}, prog,
                                  {sdc, "du"});
    const Tensor dc = popops::map(graph, _1 * (Const(1.0f) - _2), {dh, u}, prog,
                                  {sdc, "dc"});
    const Tensor dPreC =
        nonLinearityInputGradient(graph, params.activation, c, dc, prog, {sdc});
    // c = a(... + (r h) Uc)
    const Tensor dRh = poplin::matMul(graph, dPreC, uCandidate.transpose(), prog,
                                      {sdc, "d(r*h)"});
    const Tensor dr = popops::mul(graph, dRh, hPrev, prog, {sdc, "dr"});
    const Tensor dPreR = nonLinearityInputGradient(
        graph, params.recurrentActivation, r, dr, prog, {sdc});
    const Tensor dPreU = nonLinearityInputGradient(
        graph, params.recurrentActivation, u, du, prog, {sdc});
    const Tensor d = concat({dPreR, dPreU, dPreC}, 1);
    // dh_prev = dh u + d(r h) r + [dr dU] Ugates^T
    Tensor dhPrev = popops::map(graph, _1 * _2 + _3 * _4, {dh, u, dRh, r}, prog,
                                {sdc, "dhPrev"});
    poplin::matMulAcc(graph, dhPrev, 1.0f, d.slice(0, 2 * s.H, 1),
                      uGates.transpose(), prog, {sdc, "dhPrev"});
    dhRecurrent = dhPrev;
    dPre[step] = d.expand({0});
    if (inputGrad)
      dx[step] = poplin::matMul(graph, d, wIn.transpose(), prog, {sdc, "dx"})
                     .expand({0});
  }
  if (inputGrad)
    *inputGrad = concat(dx, 0);
  if (bwdIntermediates)
    *bwdIntermediates = concat(dPre, 0);
  return dhRecurrent;
}

GruWeights gruWU(Graph &graph, const GruParams &params, Sequence &prog,
                 const Tensor &fwdOutputInit, const Tensor &kept,
                 const Tensor &bwdIntermediates, const GruWeights &weights,
                 const Tensor &input, const Tensor &output,
                 const DebugContext &debugContext, const OptionFlags &,
                 poplin::matmul::PlanningCache *) {
  const std::string opName = "popnn::gru::gruWU";
  checkPassInputs(params, fwdOutputInit, kept, weights, input, output, opName);
  const Sizes s = sizesOf(params);
  detail::checkRnnTensor(bwdIntermediates, {s.T, s.B, 3 * s.H}, params.dataType,
                         "bwdIntermediates", opName);
  const DebugContext dc(debugContext, "gruWU");
  std::vector<Tensor> prev, resetPrev;
  for (std::size_t t = 0; t != s.T; ++t) {
    const Tensor hPrev = previousOutput(kept, fwdOutputInit, t);
    prev.push_back(hPrev.expand({0}));
    resetPrev.push_back(
        popops::mul(graph, kept[t][KEPT_RESET], hPrev, prog, {dc, "r*h"})
            .expand({0}));
  }
  const std::size_t rows = s.T * s.B;
  const Tensor hPrev = concat(prev, 0).reshape({rows, s.H});
  const Tensor rhPrev = concat(resetPrev, 0).reshape({rows, s.H});
  const Tensor x = input.reshape({rows, s.I});
  const Tensor d = bwdIntermediates.reshape({rows, 3 * s.H});
  GruWeights grads;
  grads.inputWeights = detail::unitsFirst(
      poplin::matMul(graph, x.transpose(), d, prog, {dc, "inputWeightsGrad"}), 3);
  const Tensor dGates = poplin::matMul(graph, hPrev.transpose(),
                                       d.slice(0, 2 * s.H, 1), prog,
                                       {dc, "outputWeightsGrad"});
  const Tensor dCandidate = poplin::matMul(graph, rhPrev.transpose(),
                                           unit(d, 2, s.H), prog,
                                           {dc, "outputWeightsGrad"});
  grads.outputWeights =
      detail::unitsFirst(concat(dGates, dCandidate, 1), 3);
  grads.biases = popops::reduce(graph, d, {0}, {popops::Operation::ADD}, prog,
                                {dc, "biasesGrad"})
                     .reshape({3, s.H});
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
