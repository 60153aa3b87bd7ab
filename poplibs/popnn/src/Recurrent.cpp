// popnn::rnn: the vanilla recurrent layer. The step functions are poplin
// products, popops maps and popnn non-linearities; the sequence functions
// run a step in a Repeat loop, the step chosen by a counter through
// popops' dynamic slices.
#include <popnn/Recurrent.hpp>

#include "TileWork.hpp"

#include <poplin/FullyConnected.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include <string>

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace rnn {
namespace {

using poplin::matmul::PlanningCache;

OptionFlags mmOptions(const Type &partialsType, const std::string &pass) {
  return {{"partialsType", partialsType.toString().str()},
          {"fullyConnectedPass", pass}};
}

std::string fwdPass(bool inferenceOnly) {
  return inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD";
}

[[noreturn]] void fail(const std::string &opName, const std::string &why) {
  throw poputil::poplibs_error("popnn::rnn::" + opName + ": " + why);
}

std::string shapeOf(const std::vector<std::size_t> &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void checkShape(const Tensor &t, const std::vector<std::size_t> &shape,
                const std::string &what, const std::string &opName) {
  if (!t.valid())
    fail(opName, what + " is not a valid tensor");
  if (t.shape() != shape)
    fail(opName, what + " " + detail::describe(t) + " must have shape " +
                     shapeOf(shape));
}

void checkRank3(const Tensor &t, const std::string &what,
                const std::string &opName) {
  if (!t.valid() || t.rank() != 3)
    fail(opName, what + " " + (t.valid() ? detail::describe(t) : "(invalid)") +
                     " must have shape [steps][batch][size]");
  detail::checkFloatingPoint(t, "popnn::rnn::" + opName, what);
}

void checkSizes(unsigned batchSize, unsigned inputSize, unsigned outputSize,
                const Type &dType, const std::string &opName) {
  if (batchSize == 0 || inputSize == 0 || outputSize == 0)
    fail(opName, "batchSize, inputSize and outputSize must be positive (got " +
                     std::to_string(batchSize) + ", " +
                     std::to_string(inputSize) + ", " +
                     std::to_string(outputSize) + ")");
  if (dType != FLOAT && dType != HALF)
    fail(opName, "the data type must be FLOAT or HALF, not " +
                     dType.toString().str());
}

// The checks of the feedback part: the state [B][O], Wfb [O][O], biases [O].
void checkFeedback(const Tensor &state, const Tensor &weightsFeedback,
                   const Tensor *biases, std::size_t B, std::size_t O,
                   const std::string &opName) {
  checkShape(state, {B, O}, "the state", opName);
  checkShape(weightsFeedback, {O, O}, "feedbackWeights", opName);
  if (biases)
    checkShape(*biases, {O}, "biases", opName);
}

// y[s] = nl(y[s-1] Wfb + ff + b) for one step, ff [B][O].
Tensor iterateStep(Graph &graph, const Tensor &ff, const Tensor &prev,
                   const Tensor &weightsFeedback, const Tensor &biases,
                   Sequence &prog, NonLinearityType nl,
                   const OptionFlags &mmOpt, PlanningCache *cache,
                   const DebugContext &dc) {
  Tensor sum = poplin::matMul(graph, prev, weightsFeedback, prog, {dc, "Feedback"},
                              mmOpt, cache);
  popops::addInPlace(graph, sum, ff, prog, {dc, "Sum"});
  popops::addInPlace(graph, sum, biases.expand({0}), prog, {dc, "Bias"});
  nonLinearityInPlace(graph, nl, sum, prog, {dc, "NonLinearity"});
  return sum;
}

// A [1] UNSIGNED_INT counter on tile 0 and the constants it moves by.
struct Counter {
  Tensor index, one;
  Counter(Graph &graph, const DebugContext &dc) {
    index = graph.addVariable(UNSIGNED_INT, {1}, {dc, "seqIdx"});
    one = graph.addConstant(UNSIGNED_INT, {1}, 1u, {dc, "one"});
    graph.setTileMapping(index, 0);
    graph.setTileMapping(one, 0);
  }
};

// A [steps][...] variable each of whose steps is mapped as `like`.
Tensor stepsLike(Graph &graph, const Tensor &like, std::size_t steps,
                 const DebugContext &dc) {
  std::vector<std::size_t> shape = like.shape();
  shape.insert(shape.begin(), steps);
  Tensor t = graph.addVariable(like.elementType(), shape, dc);
  const auto mapping = graph.getTileMapping(like);
  for (std::size_t s = 0; s != steps; ++s)
    graph.setTileMapping(t[s], mapping);
  return t;
}

} // namespace

std::vector<std::pair<poplin::MatMulParams, OptionFlags>>
getMatMulPrePlanParameters(std::size_t numSteps, std::size_t batchSize,
                           std::size_t inputSize, std::size_t outputSize,
                           const Type &dType, const Type &partialsType,
                           bool inferenceOnly, bool hasFeedforwardWeights) {
  (void)numSteps; // the products are per step
  const OptionFlags opts{{"partialsType", partialsType.toString().str()}};
  std::vector<std::pair<poplin::MatMulParams, OptionFlags>> result;
  auto append = [&](std::size_t in) {
    auto mm = poplin::fc::getMatMulPrePlanParameters(
        {1, batchSize, in, outputSize}, opts, dType, inferenceOnly);
    result.insert(result.end(), mm.begin(), mm.end());
  };
  if (hasFeedforwardWeights)
    append(inputSize);
  append(outputSize);
  return result;
}

std::uint64_t getFwdFlops(unsigned sequenceSize, unsigned batchSize,
                          unsigned inputSize, unsigned outputSize,
                          bool weightInput) {
  const std::uint64_t steps = std::uint64_t(sequenceSize) * batchSize;
  // A product [B][K] x [K][O]: K multiplications and K - 1 additions per
  // output element.
  auto product = [&](std::uint64_t k) {
    return steps * outputSize * (2 * k - (k ? 1 : 0));
  };
  // The feedback product, then the input and the bias added (once each
  // per output of a step).
  std::uint64_t flops = product(outputSize) +
                        2 * std::uint64_t(sequenceSize) * outputSize;
  if (weightInput)
    flops += product(inputSize);
  return flops;
}

std::uint64_t getBwdFlops(unsigned sequenceSize, unsigned batchSize,
                          unsigned inputSize, unsigned outputSize,
                          bool calcInputGrad) {
  const std::uint64_t steps = std::uint64_t(sequenceSize) * batchSize;
  const std::uint64_t feedback =
      steps * outputSize * (2 * std::uint64_t(outputSize) - 1);
  const std::uint64_t input =
      steps * outputSize * (2 * std::uint64_t(inputSize) - 1);
  return feedback + (calcInputGrad ? input : 0);
}

std::uint64_t getWuFlops(unsigned sequenceSize, unsigned batchSize,
                         unsigned inputSize, unsigned outputSize) {
  const std::uint64_t rows = std::uint64_t(sequenceSize) * batchSize;
  const std::uint64_t I = inputSize, O = outputSize;
  // The gradients of Wff and Wfb (rows products each, summed) and of the
  // biases, then the update of every parameter.
  const std::uint64_t wff = rows * I * O + (rows - 1) * I * O;
  const std::uint64_t wfb = rows * O * O + (rows - 1) * O * O;
  const std::uint64_t bias = (rows - 1) * O;
  return wff + wfb + bias + (I * O + O * O + O);
}

Tensor createInput(Graph &graph, unsigned numSteps, unsigned batchSize,
                   unsigned inputSize, unsigned outputSize, const Type &dType,
                   const Type &partialsType, bool inferenceOnly,
                   const DebugContext &debugContext, PlanningCache *cache) {
  checkSizes(batchSize, inputSize, outputSize, dType, "createInput");
  if (numSteps == 0)
    fail("createInput", "numSteps must be positive");
  DebugContext dc(debugContext, "rnnInput");
  const Tensor step = poplin::createMatMulInputLHS(
      graph, dType, {batchSize, inputSize}, {inputSize, outputSize}, dc,
      mmOptions(partialsType, fwdPass(inferenceOnly)), cache);
  std::vector<Tensor> steps{step.expand({0})};
  for (unsigned s = 1; s < numSteps; ++s)
    steps.push_back(graph.clone(step, {dc, std::to_string(s)}).expand({0}));
  return concat(steps, 0);
}

Tensor createFwdState(Graph &graph, const Type &dType, unsigned batchSize,
                      unsigned outputSize, Sequence &prog, bool initState,
                      bool inferenceOnly, const DebugContext &debugContext,
                      PlanningCache *cache) {
  checkSizes(batchSize, outputSize, outputSize, dType, "createFwdState");
  DebugContext dc(debugContext, "FwdState");
  Tensor state = poplin::createMatMulInputLHS(
      graph, dType, {batchSize, outputSize}, {outputSize, outputSize}, dc,
      {{"fullyConnectedPass", fwdPass(inferenceOnly)}}, cache);
  if (initState)
    popops::zero(graph, state, prog, dc);
  return state;
}

Tensor getOutputFromFwdState(const Tensor &fwdState) { return fwdState; }

Tensor createWeightsInput(Graph &graph, unsigned sequenceSize,
                          unsigned batchSize, unsigned inputSize,
                          unsigned outputSize, const Type &dType,
                          const Type &partialsType, bool inferenceOnly,
                          const DebugContext &debugContext,
                          PlanningCache *cache) {
  (void)sequenceSize;
  checkSizes(batchSize, inputSize, outputSize, dType, "createWeightsInput");
  return poplin::createMatMulInputRHS(
      graph, dType, {batchSize, inputSize}, {inputSize, outputSize},
      {debugContext, "weightsInput"},
      mmOptions(partialsType, fwdPass(inferenceOnly)), cache);
}

Tensor createWeightsFeedback(Graph &graph, unsigned batchSize,
                             unsigned outputSize, const Type &dType,
                             const Type &partialsType, bool inferenceOnly,
                             const DebugContext &debugContext,
                             PlanningCache *cache) {
  checkSizes(batchSize, outputSize, outputSize, dType, "createWeightsFeedback");
  return poplin::createMatMulInputRHS(
      graph, dType, {batchSize, outputSize}, {outputSize, outputSize},
      {debugContext, "weightsRecurrent"},
      mmOptions(partialsType, fwdPass(inferenceOnly)), cache);
}

Tensor forwardWeightInput(Graph &graph, const Tensor &actIn,
                          const Tensor &weights, Sequence &prog,
                          const Type &partialsType, bool inferenceOnly,
                          const DebugContext &debugContext,
                          PlanningCache *cache) {
  const std::string op = "forwardWeightInput";
  checkRank3(actIn, "actIn", op);
  if (!weights.valid() || weights.rank() != 2 || weights.dim(0) != actIn.dim(2))
    fail(op, "weights " + (weights.valid() ? detail::describe(weights) : "") +
                 " must have shape [inputSize][outputSize] with inputSize " +
                 std::to_string(actIn.dim(2)) + " (that of actIn)");
  DebugContext dc(debugContext, "RnnFwd/FeedFwd");
  const std::size_t S = actIn.dim(0), B = actIn.dim(1);
  const Tensor out = poplin::matMul(
      graph, actIn.reshape({S * B, actIn.dim(2)}), weights, prog, dc,
      mmOptions(partialsType, fwdPass(inferenceOnly)), cache);
  return out.reshape({S, B, weights.dim(1)});
}

Tensor forwardIterate(Graph &graph, const Tensor &feedFwdIn,
                      const Tensor &initState, const Tensor &feedbackWeights,
                      const Tensor &biases, Sequence &prog,
                      NonLinearityType nonLinearityType,
                      const Type &partialsType, bool inferenceOnly,
                      const DebugContext &debugContext, PlanningCache *cache) {
  const std::string op = "forwardIterate";
  checkRank3(feedFwdIn, "feedFwdIn", op);
  const std::size_t S = feedFwdIn.dim(0), B = feedFwdIn.dim(1),
                    O = feedFwdIn.dim(2);
  checkFeedback(initState, feedbackWeights, &biases, B, O, op);
  const OptionFlags mmOpt = mmOptions(partialsType, fwdPass(inferenceOnly));
  std::vector<Tensor> outs;
  Tensor prev = initState;
  for (std::size_t s = 0; s != S; ++s) {
    prev = iterateStep(graph, feedFwdIn[s], prev, feedbackWeights, biases, prog,
                       nonLinearityType, mmOpt, cache,
                       {debugContext, "RnnFwd/Feedback/" + std::to_string(s)});
    outs.push_back(prev.expand({0}));
  }
  return concat(outs, 0);
}

Tensor createBwdState(Graph &graph, const Type &dType, unsigned batchSize,
                      unsigned outputSize, Sequence &prog,
                      const DebugContext &debugContext, PlanningCache *cache) {
  checkSizes(batchSize, outputSize, outputSize, dType, "createBwdState");
  DebugContext dc(debugContext, "BwdState");
  Tensor state = poplin::createMatMulInputLHS(
      graph, dType, {batchSize, outputSize}, {outputSize, outputSize}, dc,
      {{"fullyConnectedPass", "TRAINING_BWD"}}, cache);
  popops::zero(graph, state, prog, dc);
  return state;
}

namespace {

// d = nl'(actOut) (gradientOut + bwdState Wfb^T); and d Wff^T when
// weightsInput is given.
std::pair<Tensor, Tensor>
gradientStep(Graph &graph, const Tensor &gradientOut, const Tensor &bwdState,
             const Tensor &actOut, const Tensor *weightsInput,
             const Tensor &weightsFeedback, Sequence &prog,
             NonLinearityType nl, const Type &partialsType,
             const DebugContext &dc, PlanningCache *cache) {
  const std::string op = "backwardGradientStep";
  if (!bwdState.valid() || bwdState.rank() != 2)
    fail(op, "bwdState must have shape [batch][outputSize]");
  const std::size_t B = bwdState.dim(0), O = bwdState.dim(1);
  checkFeedback(bwdState, weightsFeedback, nullptr, B, O, op);
  checkShape(gradientOut, {B, O}, "nextLayerGrad", op);
  checkShape(actOut, {B, O}, "actOut", op);
  if (weightsInput && (weightsInput->rank() != 2 || weightsInput->dim(1) != O))
    fail(op, "weightsInput " + detail::describe(*weightsInput) +
                 " must have shape [inputSize][" + std::to_string(O) + "]");
  const OptionFlags mmOpt = mmOptions(partialsType, "TRAINING_BWD");
  Tensor t = poplin::matMul(graph, bwdState, weightsFeedback.transpose(), prog,
                            {dc, "RnnBwd/Fb"}, mmOpt, cache);
  popops::addInPlace(graph, t, gradientOut, prog, {dc, "RnnBwd/AddOutGrad"});
  Tensor d = nonLinearityInputGradient(graph, nl, actOut, t, prog,
                                       {dc, "RnnBwd"});
  Tensor gradIn;
  if (weightsInput)
    gradIn = poplin::matMul(graph, d, weightsInput->transpose(), prog,
                            {dc, "RnnBwd/Ff"}, mmOpt, cache);
  return {gradIn, d};
}

} // namespace

std::pair<Tensor, Tensor>
backwardGradientStep(Graph &graph, const Tensor &nextLayerGrad,
                     const Tensor &bwdState, const Tensor &actOut,
                     const Tensor &weightsInput, const Tensor &weightsFeedback,
                     Sequence &prog, NonLinearityType nonLinearityType,
                     const Type &partialsType, const DebugContext &debugContext,
                     PlanningCache *cache) {
  return gradientStep(graph, nextLayerGrad, bwdState, actOut, &weightsInput,
                      weightsFeedback, prog, nonLinearityType, partialsType,
                      {debugContext, "backwardGradientStep"}, cache);
}

Tensor backwardGradientStep(Graph &graph, const Tensor &nextLayerGrad,
                            const Tensor &bwdState, const Tensor &actOut,
                            const Tensor &weightsFeedback, Sequence &prog,
                            NonLinearityType nonLinearityType,
                            const Type &partialsType,
                            const DebugContext &debugContext,
                            PlanningCache *cache) {
  return gradientStep(graph, nextLayerGrad, bwdState, actOut, nullptr,
                      weightsFeedback, prog, nonLinearityType, partialsType,
                      {debugContext, "backwardGradientStep"}, cache)
      .second;
}

void paramDeltaUpdate(Graph &graph, const Tensor &bwdState, const Tensor &actIn,
                      const Tensor &prevOut, Tensor &weightsInputDeltasAcc,
                      Tensor &weightsFeedbackDeltasAcc, Tensor &biasDeltasAcc,
                      Sequence &prog, const Type &partialsType,
                      const DebugContext &debugContext, PlanningCache *cache) {
  const std::string op = "paramDeltaUpdate";
  if (!bwdState.valid() || bwdState.rank() != 2)
    fail(op, "bwdState must have shape [batch][outputSize]");
  const std::size_t B = bwdState.dim(0), O = bwdState.dim(1);
  if (!actIn.valid() || actIn.rank() != 2 || actIn.dim(0) != B)
    fail(op, "actIn must have shape [" + std::to_string(B) + "][inputSize]");
  checkShape(prevOut, {B, O}, "prevOut", op);
  checkShape(weightsInputDeltasAcc, {actIn.dim(1), O}, "weightsInputDeltasAcc",
             op);
  checkShape(weightsFeedbackDeltasAcc, {O, O}, "weightsFeedbackDeltasAcc", op);
  checkShape(biasDeltasAcc, {O}, "biasDeltasAcc", op);
  DebugContext dc(debugContext, "RnnDeltas");
  const OptionFlags mmOpt = mmOptions(partialsType, "TRAINING_WU");
  poplin::matMulAcc(graph, weightsInputDeltasAcc, 1.0f, actIn.transpose(),
                    bwdState, prog, {dc, "Wi"}, mmOpt, cache);
  poplin::matMulAcc(graph, weightsFeedbackDeltasAcc, 1.0f, prevOut.transpose(),
                    bwdState, prog, {dc, "Wfb"}, mmOpt, cache);
  const Tensor sum = popops::reduce(graph, bwdState, {0},
                                    {popops::Operation::ADD}, prog, {dc, "Bias"});
  popops::addInPlace(graph, biasDeltasAcc, sum, prog, {dc, "Bias"});
}

Tensor rnnFwdSequence(Graph &graph, Sequence &prog, const Tensor &fwdStateInit,
                      const Tensor *weightedIn, const Tensor &biases,
                      const Tensor &feedFwdWeights,
                      const Tensor &feedbackWeights,
                      const Tensor &prevLayerActs,
                      const NonLinearityType &nonLinearityType,
                      const Type &partialsType, bool inferenceOnly,
                      const DebugContext &debugContext, PlanningCache *cache) {
  const std::string op = "rnnFwdSequence";
  checkRank3(prevLayerActs, "prevLayerActs", op);
  const std::size_t S = prevLayerActs.dim(0), B = prevLayerActs.dim(1);
  if (!fwdStateInit.valid() || fwdStateInit.rank() != 2)
    fail(op, "fwdStateInit must have shape [batch][outputSize]");
  const std::size_t O = fwdStateInit.dim(1);
  checkFeedback(fwdStateInit, feedbackWeights, &biases, B, O, op);
  if (weightedIn)
    checkShape(*weightedIn, {S, B, O}, "weightedIn", op);
  else
    checkShape(feedFwdWeights, {prevLayerActs.dim(2), O}, "feedFwdWeights", op);
  DebugContext dc(debugContext, "rnnFwdSequence");
  Counter counter(graph, dc);
  popops::zero(graph, counter.index, prog, {dc, "seqIdx"});
  Tensor state = poputil::duplicate(graph, fwdStateInit, prog, {dc, "state"});

  Sequence loop;
  Tensor ff;
  if (weightedIn) {
    ff = popops::dynamicSlice(graph, *weightedIn, counter.index, {0}, {1}, loop,
                              {dc, "rnnInput"});
  } else {
    const Tensor x = popops::dynamicSlice(graph, prevLayerActs, counter.index,
                                          {0}, {1}, loop, {dc, "rnnInput"});
    ff = forwardWeightInput(graph, x, feedFwdWeights, loop, partialsType,
                            inferenceOnly, dc, cache);
  }
  const Tensor next = iterateStep(
      graph, ff[0], state, feedbackWeights, biases, loop, nonLinearityType,
      mmOptions(partialsType, fwdPass(inferenceOnly)), cache, {dc, "step"});
  Tensor fwdState = stepsLike(graph, next, S, {dc, "fwdState"});
  loop.add(Copy(next, state, false, {dc, "state"}));
  popops::dynamicUpdate(graph, fwdState, next.expand({0}), counter.index, {0},
                        {1}, loop, {dc, "rnnUpdateState"});
  popops::addInPlace(graph, counter.index, counter.one, loop, {dc, "seqIdxIncr"});
  prog.add(Repeat(unsigned(S), loop, {dc}));
  return fwdState;
}

std::tuple<Tensor, Tensor, Tensor, Tensor>
rnnBwdSequence(Graph &graph, bool doWU, bool ignoreInputGradientCalc,
               Sequence &prog, const Tensor &fwdStateInit,
               const Tensor &fwdState, const Tensor &biases,
               const Tensor &feedFwdWeights, const Tensor &feedbackWeights,
               const Tensor &outGradient, const Tensor &actIn,
               const NonLinearityType &nonLinearityType,
               const Type &partialsType, const DebugContext &debugContext,
               PlanningCache *cache) {
  const std::string op = "rnnBwdSequence";
  checkRank3(actIn, "actIn", op);
  const std::size_t S = actIn.dim(0), B = actIn.dim(1), I = actIn.dim(2);
  if (!feedbackWeights.valid() || feedbackWeights.rank() != 2)
    fail(op, "feedbackWeights must have shape [outputSize][outputSize]");
  const std::size_t O = feedbackWeights.dim(1);
  checkFeedback(fwdStateInit, feedbackWeights, &biases, B, O, op);
  checkShape(fwdState, {S, B, O}, "fwdState", op);
  checkShape(feedFwdWeights, {I, O}, "feedFwdWeights", op);
  checkShape(outGradient, {B, S, O}, "outGradient ([batch][steps][output])",
             op);
  DebugContext dc(debugContext, "rnnBwdSequence");
  const Type dType = actIn.elementType();

  Tensor wffAcc, wfbAcc, biasAcc;
  if (doWU) {
    wffAcc = graph.clone(feedFwdWeights, {dc, "feedFwdWeightsDeltaAcc"});
    wfbAcc = graph.clone(feedbackWeights, {dc, "feedbackWeightsDeltaAcc"});
    biasAcc = graph.clone(biases, {dc, "biasesDeltaAcc"});
    popops::zero(graph, wffAcc, prog, {dc, "ZeroFeedFwdWeightsDeltasAcc"});
    popops::zero(graph, wfbAcc, prog, {dc, "ZeroFeedbackWeightsDeltasAcc"});
    popops::zero(graph, biasAcc, prog, {dc, "ZeroBiasesDeltasAcc"});
  }
  // The gradient at the adder of the step after the one the loop is at.
  const Tensor bwdState =
      createBwdState(graph, dType, unsigned(B), unsigned(O), prog, dc, cache);
  Counter counter(graph, dc);
  const Tensor start =
      graph.addConstant(UNSIGNED_INT, {1}, unsigned(S - 1), {dc, "start"});
  graph.setTileMapping(start, 0);
  prog.add(Copy(start, counter.index, false, {dc}));
  // The output before each step: the initial state, then fwdState[0..S-2].
  Tensor prevOuts = poputil::duplicate(
      graph, concat(fwdStateInit.expand({0}), fwdState.slice(0, S - 1), 0),
      prog, {dc, "prevOutputs"});

  Sequence loop;
  const Tensor gradOut =
      popops::dynamicSlice(graph, outGradient.dimShuffle({1, 0, 2}),
                           counter.index, {0}, {1}, loop, {dc, "OutGradient"})[0];
  const Tensor actOut = popops::dynamicSlice(graph, fwdState, counter.index,
                                             {0}, {1}, loop, {dc, "actOut"})[0];
  Tensor gradIn, d;
  std::tie(gradIn, d) = gradientStep(
      graph, gradOut, bwdState, actOut,
      ignoreInputGradientCalc ? nullptr : &feedFwdWeights, feedbackWeights,
      loop, nonLinearityType, partialsType, dc, cache);
  Tensor inputGrads;
  if (!ignoreInputGradientCalc) {
    inputGrads = stepsLike(graph, gradIn, S, {dc, "gradient"});
    popops::dynamicUpdate(graph, inputGrads, gradIn.expand({0}), counter.index,
                          {0}, {1}, loop, {dc, "rnnUpdateGradient"});
  }
  if (doWU) {
    const Tensor x = popops::dynamicSlice(graph, actIn, counter.index, {0}, {1},
                                          loop, {dc, "rnnActIn"})[0];
    const Tensor prev = popops::dynamicSlice(graph, prevOuts, counter.index, {0},
                                             {1}, loop, {dc, "fwdState"})[0];
    paramDeltaUpdate(graph, d, x, prev, wffAcc, wfbAcc, biasAcc, loop,
                     partialsType, dc, cache);
  }
  loop.add(Copy(d, bwdState, false, {dc, "bwdState"}));
  popops::subInPlace(graph, counter.index, counter.one, loop,
                     {dc, "seqIdxDecr"});
  prog.add(Repeat(unsigned(S), loop, {dc}));
  if (ignoreInputGradientCalc) {
    inputGrads = graph.addVariable(dType, {S, B, O}, {dc, "gradient"});
    poputil::mapTensorLinearly(graph, inputGrads);
    popops::zero(graph, inputGrads, prog, {dc, "gradient"});
  }
  return std::make_tuple(inputGrads, wffAcc, wfbAcc, biasAcc);
}

} // namespace rnn
} // namespace popnn
