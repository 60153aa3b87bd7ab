// popnn::rnn's driver of caller-written cells: a loop per shard of the
// sequence, a counter tensor choosing the step, popops' dynamic slices
// reading the step's inputs and dynamic updates storing its outputs.
#include <popnn/Rnn.hpp>

#include "RnnUtil.hpp"
#include "TileWork.hpp"

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <numeric>
#include <string>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace popnn {
namespace rnn {
namespace {

[[noreturn]] void fail(const std::string &op, const std::string &why) {
  throw poputil::poplibs_error("popnn::rnn::" + op + ": " + why);
}

std::string name(const Tensor &t) {
  return t.valid() ? detail::describe(t) : std::string("(invalid)");
}

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

void checkParams(const RnnParams &p, const std::string &op) {
  if (p.dataType != FLOAT && p.dataType != HALF)
    fail(op, "params.dataType must be FLOAT or HALF, not " +
                 p.dataType.toString().str());
  if (p.batchSize == 0 || p.maxTimeSteps == 0)
    fail(op, "params.batchSize and params.maxTimeSteps must be positive");
  if (p.layerSizes.size() != 2 || p.layerSizes[0] == 0 || p.layerSizes[1] == 0)
    fail(op, "params.layerSizes must be {inputSize, outputSize}, both positive");
}

void checkTimeSteps(const Tensor &t, std::size_t batchSize) {
  if (!t.valid())
    return;
  if (t.rank() != 1 || (t.dim(0) != 1 && t.dim(0) != batchSize))
    fail("RnnParams", "varTimeSteps " + name(t) + " must have shape [1] or [" +
                          std::to_string(batchSize) + "]");
  if (t.elementType() != INT && t.elementType() != UNSIGNED_INT)
    fail("RnnParams", "varTimeSteps " + name(t) +
                          " must be INT or UNSIGNED_INT, not " +
                          t.elementType().toString().str());
}

// Elements of a step's [batch][size] in grains of up to 16.
struct Grains {
  std::size_t grain, count;
  Grains(std::size_t batch, std::size_t size)
      : grain(std::gcd<std::size_t>(16, size)),
        count(batch * (size / std::gcd<std::size_t>(16, size))) {}
  std::size_t perTile(std::size_t tiles) const { return ceilDiv(count, tiles); }
  std::size_t tilesUsed(std::size_t tiles) const {
    return ceilDiv(count, perTile(tiles));
  }
  std::size_t bytesPerTile(const Target &target, const Type &type) const {
    return perTile(target.getNumTiles()) * grain * target.getTypeSize(type);
  }
};

void checkShards(const RnnParams &p, unsigned numShards, const std::string &op) {
  if (numShards == 0 || numShards > p.maxTimeSteps)
    fail(op, "numShards (" + std::to_string(numShards) +
                 ") must be from 1 to the number of steps (" +
                 std::to_string(p.maxTimeSteps) + ")");
  const std::size_t perShard = ceilDiv(p.maxTimeSteps, numShards);
  if (perShard * (numShards - 1) >= p.maxTimeSteps)
    fail(op, std::to_string(numShards) + " shards of " +
                 std::to_string(perShard) + " steps leave the last of " +
                 std::to_string(p.maxTimeSteps) + " steps empty");
}

// The input (0) or output (1) size, once the parameters are checked.
std::size_t layerSize(const RnnParams &params, unsigned which,
                      const std::string &op) {
  checkParams(params, op);
  return params.layerSizes[which];
}

// A [steps][batch][size] tensor of the parameters' type, once the
// arguments are checked; steps 0 means a zero multiple.
Tensor createSteps(Graph &graph, const RnnParams &params, unsigned numShards,
                   std::size_t steps, std::size_t size, const std::string &op,
                   const DebugContext &dc) {
  checkParams(params, op);
  checkShards(params, numShards, op);
  if (steps == 0)
    fail(op, "multiple must be positive");
  if (size == 0)
    fail(op, "size must be positive");
  return detail::rnnStepVariable(graph, params.dataType,
                                 {steps, params.batchSize, size}, dc);
}

bool codeReuseOption(const OptionFlags &options) {
  bool reuse = false;
  for (const auto &entry : options) {
    // Options are refused with the original's class (its OptionHandler's).
    if (entry.first != "codeReuse")
      throw invalid_option("popnn::rnn::Rnn: unknown option '" + entry.first +
                           "'");
    if (entry.second == "true" || entry.second == "1")
      reuse = true;
    else if (entry.second == "false" || entry.second == "0")
      reuse = false;
    else
      throw invalid_option("popnn::rnn::Rnn: option codeReuse must be true or "
                           "false, not '" + entry.second + "'");
  }
  return reuse;
}

Tensor scalarConstant(Graph &graph, const Type &type, unsigned value,
                      const DebugContext &dc) {
  Tensor t = graph.addConstant(type, {1}, value, dc);
  graph.setTileMapping(t, 0);
  return t;
}

// The sequence's own tensors (as the caller gave them) and the checks of
// their shapes.
struct Operands {
  const RnnParams &p;
  std::size_t T, B, O;
  explicit Operands(const RnnParams &p)
      : p(p), T(p.maxTimeSteps), B(p.batchSize), O(p.layerSizes[1]) {}

  void stepsFirst(const Tensor &t, const std::string &what) const {
    if (!t.valid() || t.rank() < 2 || t.dim(0) != T)
      fail("Rnn", what + " " + name(t) + " must have " + std::to_string(T) +
                      " steps in its first dimension");
  }
  // outputs[i], [multiple * T][...]: the view [T][multiple][...].
  Tensor byStep(const Tensor &t, const std::string &what) const {
    if (!t.valid() || t.rank() < 2 || t.dim(0) == 0 || t.dim(0) % T != 0)
      fail("Rnn", what + " " + name(t) + " must have a whole number of " +
                      std::to_string(T) + " steps in its first dimension");
    return t.reshapePartial(0, 1, {T, t.dim(0) / T});
  }
};

// What the loop of one shard reads and writes at its step: the step's part
// of each tensor, and the updates that store the written parts.
struct ShardStep {
  RnnSlice slice;
  std::vector<std::pair<Tensor, Tensor>> stores; // (whole [T]..., step part)
};

ShardStep sliceStep(Graph &graph, const Operands &ops, std::size_t begin,
                    const Tensor &step, const std::vector<Tensor> &inputs,
                    const Tensor *interimIn, const Tensor *interimOut,
                    const std::vector<Tensor> &outputs, Sequence &prog,
                    const DebugContext &dc) {
  ShardStep s;
  auto sliceOf = [&](const Tensor &t, const std::string &what) {
    return popops::dynamicSlice(graph, t, step, {0}, {1}, prog, {dc, what})[0];
  };
  for (std::size_t i = 0; i != inputs.size(); ++i)
    s.slice.inputs.push_back(inputs[i].valid()
                                 ? sliceOf(inputs[i], "input" + std::to_string(i))
                                 : Tensor());
  if (interimIn)
    s.slice.interimIn = sliceOf(*interimIn, "interimIn");
  if (interimOut) {
    s.slice.interimOut = graph.clone((*interimOut)[begin], {dc, "interimOut"});
    s.stores.emplace_back(*interimOut, s.slice.interimOut);
  }
  for (std::size_t i = 0; i != outputs.size(); ++i) {
    const Tensor whole = ops.byStep(outputs[i], "outputs[" + std::to_string(i) + "]");
    s.slice.outputs.push_back(
        graph.clone(whole[begin], {dc, "output" + std::to_string(i)}));
    s.stores.emplace_back(whole, s.slice.outputs.back());
  }
  return s;
}

// The run-time steps, when given: the largest and smallest, as [1] INT.
struct VariableSteps {
  Tensor steps, most, least;
};

VariableSteps variableSteps(Graph &graph, const RnnParams &p, Sequence &prog,
                            const DebugContext &dc) {
  VariableSteps v;
  if (!p.variableTimeSteps())
    return v;
  v.steps = popops::cast(graph, p.varTimeSteps, INT, prog, {dc, "timeSteps"});
  v.most = popops::reduce(graph, v.steps, {0}, {popops::Operation::MAX}, prog,
                          {dc, "maxTimeSteps"})
               .reshape({1});
  v.least = popops::reduce(graph, v.steps, {0}, {popops::Operation::MIN}, prog,
                           {dc, "minTimeSteps"})
                .reshape({1});
  return v;
}

} // namespace

RnnParams::RnnParams(Type dataType, std::size_t batchSize, std::size_t timeSteps,
                     std::vector<std::size_t> layerSizes)
    : dataType(dataType), batchSize(batchSize), maxTimeSteps(timeSteps),
      timeSteps(timeSteps), layerSizes(std::move(layerSizes)) {}

RnnParams::RnnParams(Type dataType, std::size_t batchSize,
                     std::size_t maxTimeSteps, const Tensor &varTimeSteps,
                     std::vector<std::size_t> layerSizes)
    : dataType(dataType), batchSize(batchSize), maxTimeSteps(maxTimeSteps),
      timeSteps(maxTimeSteps), varTimeSteps(varTimeSteps),
      layerSizes(std::move(layerSizes)) {
  checkTimeSteps(varTimeSteps, batchSize);
}

std::size_t RnnParams::getMaxShards(const Graph &graph) const {
  checkParams(*this, "RnnParams::getMaxShards");
  const std::size_t tiles = graph.getTarget().getNumTiles();
  const std::size_t used =
      std::max(Grains(batchSize, layerSizes[0]).tilesUsed(tiles),
               Grains(batchSize, layerSizes[1]).tilesUsed(tiles));
  const std::size_t shards = std::max<std::size_t>(1, tiles / used);
  return ceilDiv(maxTimeSteps, ceilDiv(maxTimeSteps, shards));
}

std::size_t RnnParams::getInputBytesPerTile(const Graph &graph) const {
  checkParams(*this, "RnnParams::getInputBytesPerTile");
  return Grains(batchSize, layerSizes[0]).bytesPerTile(graph.getTarget(), dataType);
}

std::size_t RnnParams::getOutputBytesPerTile(const Graph &graph) const {
  checkParams(*this, "RnnParams::getOutputBytesPerTile");
  return Grains(batchSize, layerSizes[1]).bytesPerTile(graph.getTarget(), dataType);
}

bool RnnParams::variableTimeSteps() const { return varTimeSteps.valid(); }

bool RnnParams::batchVariableTimeSteps() const {
  return varTimeSteps.valid() && varTimeSteps.numElements() > 1;
}

Tensor createInitialState(Graph &graph, const RnnParams &params, bool isOutput,
                          unsigned multiple, unsigned numShards,
                          const DebugContext &debugContext) {
  const std::string op = "createInitialState";
  return createSteps(graph, params, numShards, multiple,
                     layerSize(params, isOutput ? 1 : 0, op), op,
                     {debugContext, "initState"});
}

Tensor createRecurrentTensor(Graph &graph, const RnnParams &params,
                             unsigned size, unsigned numShards,
                             const DebugContext &debugContext) {
  return createSteps(graph, params, numShards, params.maxTimeSteps, size,
                     "createRecurrentTensor", {debugContext, "recurrent"});
}

Tensor createInputTensor(Graph &graph, const RnnParams &params,
                         unsigned numShards, const DebugContext &debugContext) {
  const std::string op = "createInputTensor";
  return createSteps(graph, params, numShards, params.maxTimeSteps,
                     layerSize(params, 0, op), op, {debugContext, "input"});
}

Tensor createOutputTensor(Graph &graph, const RnnParams &params,
                          unsigned numShards, const DebugContext &debugContext) {
  return createOutputTensor(graph, params, 1, numShards, debugContext);
}

Tensor createOutputTensor(Graph &graph, const RnnParams &params,
                          unsigned multiple, unsigned numShards,
                          const DebugContext &debugContext) {
  const std::string op = "createOutputTensor";
  return createSteps(graph, params, numShards,
                     std::size_t(multiple) * params.maxTimeSteps,
                     layerSize(params, 1, op), op, {debugContext, "output"});
}

Tensor shiftRnnTensor(Graph &graph, const RnnParams &params, const Tensor &tBase,
                      const Tensor &tSingle, Sequence &prog, unsigned numShards,
                      const DebugContext &debugContext) {
  const std::string op = "shiftRnnTensor";
  checkParams(params, op);
  checkShards(params, numShards, op);
  const std::size_t T = params.maxTimeSteps;
  if (!tBase.valid() || tBase.rank() == 0 || tBase.dim(0) == 0 ||
      tBase.dim(0) % T != 0)
    fail(op, "tBase " + name(tBase) + " must have a whole number of " +
                 std::to_string(T) + " steps in its first dimension");
  const std::size_t multiple = tBase.dim(0) / T, n = tBase.dim(0);
  std::vector<std::size_t> single = tBase.shape();
  single[0] = multiple;
  if (!tSingle.valid() || tSingle.shape() != single)
    fail(op, "tSingle " + name(tSingle) + " must have the shape of one step of "
                 "tBase " + name(tBase));
  DebugContext dc(debugContext, "shiftRnnTensor");
  Tensor shifted = graph.clone(tBase, dc);
  prog.add(Copy(tSingle, shifted.slice(0, multiple), false, {dc}));
  if (n > multiple)
    prog.add(Copy(tBase.slice(0, n - multiple), shifted.slice(multiple, n),
                  false, {dc}));
  return shifted;
}

std::vector<Tensor>
Rnn(Graph &graph, const RnnParams &params, bool reverse,
    const std::vector<Tensor> &initState, const StateSequence &stateSequence,
    const std::vector<Tensor> &inputs, const Tensor *interimIn,
    Tensor *interimOut, const std::vector<Tensor> &outputs,
    const std::vector<Tensor> &created, Sequence &prog,
    const LoopBodyType &loopFn, unsigned numShards, OptionFlags &options,
    const DebugContext &debugContext) {
  const std::string op = "Rnn";
  checkParams(params, op);
  checkShards(params, numShards, op);
  checkTimeSteps(params.varTimeSteps, params.batchSize);
  codeReuseOption(options);
  if (!loopFn)
    fail(op, "loopFn is empty");
  const Operands ops(params);
  for (std::size_t i = 0; i != inputs.size(); ++i)
    if (inputs[i].valid())
      ops.stepsFirst(inputs[i], "inputs[" + std::to_string(i) + "]");
  if (interimIn)
    ops.stepsFirst(*interimIn, "interimIn");
  if (interimOut) {
    ops.stepsFirst(*interimOut, "interimOut");
    if (interimOut->rank() != 4)
      fail(op, "interimOut " + name(*interimOut) +
                   " must have shape [steps][numTemps][batch][outputSize]");
  }
  for (std::size_t i = 0; i != created.size(); ++i)
    ops.stepsFirst(created[i], "created[" + std::to_string(i) + "]");
  if (stateSequence.output.valid()) {
    ops.stepsFirst(stateSequence.output, "stateSequence.output");
    if (stateSequence.stateIndex >= initState.size() ||
        !initState[stateSequence.stateIndex].valid())
      fail(op, "stateSequence.stateIndex " +
                   std::to_string(stateSequence.stateIndex) +
                   " names no valid initial state");
  }
  DebugContext dc(debugContext, "Rnn");

  std::vector<Tensor> state;
  for (std::size_t i = 0; i != initState.size(); ++i)
    state.push_back(initState[i].valid()
                        ? poputil::duplicate(graph, initState[i], prog,
                                             {dc, "state" + std::to_string(i)})
                        : Tensor());
  const VariableSteps steps = variableSteps(graph, params, prog, dc);
  Tensor counter = graph.addVariable(UNSIGNED_INT, {1}, {dc, "timeStepCounter"});
  graph.setTileMapping(counter, 0);
  const Tensor one = scalarConstant(graph, UNSIGNED_INT, 1, {dc, "one"});
  const std::size_t T = params.maxTimeSteps;
  const std::size_t perShard = ceilDiv(T, numShards);
  bool first = true;
  for (unsigned n = 0; n != numShards; ++n) {
    const unsigned k = reverse ? numShards - 1 - n : n;
    const std::size_t begin = k * perShard, end = std::min(T, begin + perShard);
    const std::string shard = "shard/" + std::to_string(k);
    const Tensor beginT = scalarConstant(graph, UNSIGNED_INT, unsigned(begin),
                                         {dc, shard + "/begin"});
    Sequence body({}, {dc, shard});
    const Tensor step = popops::add(graph, counter, beginT, body, {dc, "step"});
    ShardStep s = sliceStep(graph, ops, begin, step, inputs, interimIn,
                            interimOut, outputs, body, {dc, shard});
    RnnBatchwiseFlags flags;
    TimeStepState time{beginT, counter, Tensor()};
    if (params.variableTimeSteps()) {
      time.variableSeqFlag = popops::map(graph, Cast(_1, INT) >= _2,
                                         {step, steps.least}, body,
                                         {dc, "variableSeqFlag"})
                                 .reshape({});
      if (params.batchVariableTimeSteps()) {
        flags.mask = popops::map(
            graph, Cast(_1 > Cast(_2, INT), params.dataType),
            {steps.steps, step.broadcast(unsigned(params.batchSize), 0)}, body,
            {dc, "mask"});
        flags.inverse = popops::map(graph, Const(1.0f) - _1, {flags.mask}, body,
                                    {dc, "maskInverse"});
      }
    }
    std::vector<Tensor> createdSlices(created.size());
    body.add(loopFn(graph, time, flags, state, s.slice, createdSlices,
                    first ? &prog : nullptr,
                    DebugNameAndId(shard, dc.getId(), dc.getPathName())));
    for (std::size_t i = 0; i != created.size(); ++i) {
      if (!createdSlices[i].valid())
        fail(op, "the loop body did not set created[" + std::to_string(i) + "]");
      s.stores.emplace_back(created[i], createdSlices[i]);
    }
    if (stateSequence.output.valid())
      s.stores.emplace_back(stateSequence.output,
                            state[stateSequence.stateIndex]);
    for (const auto &[whole, part] : s.stores) {
      if (part.rank() + 1 != whole.rank())
        fail(op, "a step of " + name(whole) + " cannot be stored from " +
                     name(part));
      popops::dynamicUpdate(graph, whole, part.expand({0}), step, {0}, {1}, body,
                            {dc, "store"});
    }
    if (reverse)
      popops::subInPlace(graph, counter, one, body, {dc, "counterDecr"});
    else
      popops::addInPlace(graph, counter, one, body, {dc, "counterIncr"});

    const unsigned length = unsigned(end - begin);
    if (!params.variableTimeSteps()) {
      const Tensor start = scalarConstant(graph, UNSIGNED_INT,
                                          reverse ? length - 1 : 0,
                                          {dc, shard + "/start"});
      prog.add(Copy(start, counter, false, {dc}));
      prog.add(Repeat(length, body, {dc, shard}));
    } else {
      // The steps of this shard to run: the largest number of steps less
      // the shard's beginning, within [0, length].
      const Tensor todo = popops::map(
          graph, Min(Max(_1 - Const(int(begin)), Const(0)), Const(int(length))),
          {steps.most}, prog, {dc, shard + "/steps"});
      const Tensor start =
          reverse ? popops::map(graph, Cast(_1 - Const(1), UNSIGNED_INT),
                                {todo}, prog, {dc, shard + "/start"})
                  : scalarConstant(graph, UNSIGNED_INT, 0, {dc, shard + "/start"});
      prog.add(Copy(start, counter, false, {dc}));
      Tensor remaining = graph.clone(todo, {dc, shard + "/remaining"});
      prog.add(Copy(todo, remaining, false, {dc}));
      Sequence cond;
      const Tensor more =
          popops::map(graph, _1 > Const(0), {remaining}, cond, {dc, "more"})
              .reshape({});
      popops::subInPlace(graph, remaining, 1, body, {dc, "remaining"});
      prog.add(RepeatWhileTrue(cond, more, body, {dc, shard}));
    }
    first = false;
  }
  return state;
}

} // namespace rnn
} // namespace popnn
