// A driver for recurrent cells written by the caller: rnn::Rnn runs a loop
// body (the cell of one time step) over the steps of a sequence, slicing
// the inputs of the step and storing its outputs, with the sequence split
// into shards (consecutive ranges of steps, each its own loop), forwards or
// in reverse, and optionally a number of steps that each batch element
// gives at run time. The tensor functions make [steps][batch][size]
// tensors to go with it.
#ifndef POPNN_RNN_HPP
#define POPNN_RNN_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/popnn_export.hpp>
#include <poputil/DebugInfo.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace popnn {
namespace rnn {

/// The sizes of a recurrent layer, for any cell.
struct POPNN_API RnnParams {
  /// FLOAT or HALF.
  poplar::Type dataType;
  std::size_t batchSize;
  /// The number of steps of the sequence (the most, with varTimeSteps).
  std::size_t maxTimeSteps;
  /// The same as maxTimeSteps (kept for older programs).
  std::size_t timeSteps;
  /// When valid, the steps to run at run time: one value for the whole
  /// batch ([1]) or one per batch element ([batchSize]), INT or
  /// UNSIGNED_INT, each at most maxTimeSteps. Invalid: maxTimeSteps.
  poplar::Tensor varTimeSteps;
  /// {inputSize, outputSize}.
  std::vector<std::size_t> layerSizes;

  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes);
  /// Throws poputil::poplibs_error naming varTimeSteps unless its shape is
  /// [1] or [batchSize].
  RnnParams(poplar::Type dataType, std::size_t batchSize,
            std::size_t maxTimeSteps, const poplar::Tensor &varTimeSteps,
            std::vector<std::size_t> layerSizes);

  /// The most shards the sequence can be split into on this graph's target
  /// (a shard's tensors spread over the tiles a step's input or output
  /// takes, in grains of up to 16 elements).
  std::size_t getMaxShards(const poplar::Graph &graph) const;
  /// The bytes of a step's input on each tile it is spread over.
  std::size_t getInputBytesPerTile(const poplar::Graph &graph) const;
  /// The bytes of a step's output on each tile it is spread over.
  std::size_t getOutputBytesPerTile(const poplar::Graph &graph) const;
  /// Whether the steps are given at run time.
  bool variableTimeSteps() const;
  /// Whether each batch element gives its own number of steps.
  bool batchVariableTimeSteps() const;
};

/// A state tensor, [multiple][batchSize][size] with size the output size
/// (isOutput) or the input size, mapped as the steps of a shard are.
POPNN_API poplar::Tensor
createInitialState(poplar::Graph &graph, const RnnParams &params, bool isOutput,
                   unsigned multiple, unsigned numShards,
                   const poplar::DebugContext &debugContext = {});

/// A [maxTimeSteps][batchSize][size] tensor whose steps are spread over the
/// tiles so that slicing one step at run time moves little data.
POPNN_API poplar::Tensor
createRecurrentTensor(poplar::Graph &graph, const RnnParams &params,
                      unsigned size, unsigned numShards,
                      const poplar::DebugContext &debugContext = {});

/// createRecurrentTensor with the input size.
POPNN_API poplar::Tensor
createInputTensor(poplar::Graph &graph, const RnnParams &params,
                  unsigned numShards,
                  const poplar::DebugContext &debugContext = {});

/// createRecurrentTensor with the output size.
POPNN_API poplar::Tensor
createOutputTensor(poplar::Graph &graph, const RnnParams &params,
                   unsigned numShards,
                   const poplar::DebugContext &debugContext = {});

/// multiple output tensors of a step, step after step:
/// [multiple * maxTimeSteps][batchSize][outputSize].
POPNN_API poplar::Tensor
createOutputTensor(poplar::Graph &graph, const RnnParams &params,
                   unsigned multiple, unsigned numShards,
                   const poplar::DebugContext &debugContext = {});

/// A copy of tBase ([multiple * maxTimeSteps][...]) moved one step later:
/// step s of the result holds step s - 1 of tBase, step 0 holds tSingle
/// ([multiple][...]). The copies are added to prog.
POPNN_API poplar::Tensor
shiftRnnTensor(poplar::Graph &graph, const RnnParams &params,
               const poplar::Tensor &tBase, const poplar::Tensor &tSingle,
               poplar::program::Sequence &prog, unsigned numShards,
               const poplar::DebugContext &debugContext = {});

/// What the loop body sees of one step: the step's slice of each input
/// ([batch][...]), of the intermediate input, the intermediate outputs to
/// write ([numTemps][batch][outputSize]) and the outputs to write
/// ([multiple][batch][outputSize]).
struct RnnSlice {
  std::vector<poplar::Tensor> inputs;
  poplar::Tensor interimIn;
  poplar::Tensor interimOut;
  std::vector<poplar::Tensor> outputs;
};

/// With a number of steps per batch element: mask[b] is 1 while the step is
/// within batch element b's steps and 0 after, inverse is 1 - mask (both
/// [batchSize] of the data type). Invalid otherwise.
struct RnnBatchwiseFlags {
  poplar::Tensor mask;
  poplar::Tensor inverse;

  bool valid() const { return mask.valid(); }
};

/// The time of the step the loop body runs: begin, the first step of the
/// shard, and counter, the step within the shard ([1] UNSIGNED_INT each, so
/// the step is begin + counter); with varTimeSteps, variableSeqFlag (a
/// BOOL scalar) is true once the step is past the steps of some batch
/// element (step >= the smallest number of steps).
struct TimeStepState {
  poplar::Tensor begin;
  poplar::Tensor counter;
  poplar::Tensor variableSeqFlag;
};

/// The loop body: (graph, time, batchwise flags, state, slice, created,
/// initProg, debug name) -> the program of one step. state holds the state
/// tensors, which the program updates in place; created is the step's part
/// of each tensor the body creates (set by the body, stored step by step
/// into Rnn's created tensors). initProg is non-null on the body's first
/// call: programs to run once before the loop may be added to it.
using LoopBodyType = std::function<poplar::program::Sequence(
    poplar::Graph &graph, const TimeStepState &time, const RnnBatchwiseFlags &,
    std::vector<poplar::Tensor> &, const RnnSlice &slice,
    std::vector<poplar::Tensor> &, poplar::program::Sequence *,
    const poplar::DebugNameAndId &)>;

/// Stores, after every step, state tensor stateIndex in output
/// ([maxTimeSteps][...]) at the step. An invalid output stores nothing.
struct StateSequence {
  poplar::Tensor output;
  std::size_t stateIndex;
};

/// Runs loopFn at every step of the sequence, from the first (or, with
/// reverse, the last), appending the loops to prog. The states start as
/// copies of initState (invalid entries stay invalid); the final states are
/// returned. inputs and *interimIn ([maxTimeSteps][batch][...]) are sliced
/// at each step; *interimOut ([maxTimeSteps][numTemps][batch][outputSize],
/// numTemps = interimOut->dim(1)) and outputs ([multiple * maxTimeSteps]
/// [batch][outputSize]) are written from the step's slice, created from the
/// body's created tensors. The steps are split into numShards loops of
/// ceil(maxTimeSteps / numShards) steps (the last shorter), the state
/// carried from one to the next. With params.varTimeSteps a loop stops after
/// the largest number of steps (counting from the first step, also in
/// reverse), and the body gets the batchwise flags.
///
/// Options: codeReuse (true, false) [=false]: accepted (the loop body is
/// built once per shard either way).
///
/// Throws poputil::poplibs_error naming the argument at fault, and
/// poplar::invalid_option naming an option that is unknown or has a bad
/// value.
POPNN_API std::vector<poplar::Tensor>
Rnn(poplar::Graph &graph, const RnnParams &params, bool reverse,
    const std::vector<poplar::Tensor> &initState,
    const StateSequence &stateSequence,
    const std::vector<poplar::Tensor> &inputs, const poplar::Tensor *interimIn,
    poplar::Tensor *interimOut, const std::vector<poplar::Tensor> &outputs,
    const std::vector<poplar::Tensor> &created, poplar::program::Sequence &prog,
    const LoopBodyType &loopFn, unsigned numShards,
    poplar::OptionFlags &options,
    const poplar::DebugContext &debugContext = {});

} // namespace rnn
} // namespace popnn

#endif // POPNN_RNN_HPP
