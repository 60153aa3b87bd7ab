// What the recurrent layers (Lstm.cpp, Gru.cpp) share: checking shapes and
// activations, creating their tensors, viewing per-unit weights as one
// matrix, and looping a cell over the steps.
#ifndef POPNN_SRC_RNNUTIL_HPP
#define POPNN_SRC_RNNUTIL_HPP

#include <popnn/NonLinearityDef.hpp>
#include <popnn/Rnn.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <functional>
#include <optional>

#include <string>
#include <vector>

namespace popnn {
namespace detail {

/// Throws a poplibs_error naming the op unless the common parameters are
/// usable: one layer ({inputSize, outputSize}), FLOAT or HALF, positive
/// sizes, activations whose derivative is a function of their output.
void checkRnnParams(const std::string &opName, const poplar::Type &dataType,
                    std::size_t batchSize, std::size_t timeSteps,
                    const std::vector<std::size_t> &layerSizes,
                    const std::vector<NonLinearityType> &activations);

/// The options of popnn::lstm and popnn::gru that this implementation
/// honours. Those of the original that ask for a schedule it does not build
/// (recomputation, shards, code reuse, steps per weight update, a product
/// of the whole input sequence before the steps) are accepted only with the
/// value that describes what it does.
struct RecurrentOptions {
  bool inferenceOnly = false;
  poplar::Type partialsType = poplar::FLOAT;
  /// The type the weight gradients are summed over the steps in (LSTM):
  /// the partials of the weight-update products, which take every step at
  /// once; partialsType when not given.
  std::optional<poplar::Type> weightAccumulatorsType;
  std::optional<std::string> availableMemoryProportion;

  /// The options of the matrix products of a pass ("TRAINING_BWD", ...;
  /// "FWD" picks the forward pass the options ask for).
  poplar::OptionFlags matMulOptions(const std::string &pass) const;
  /// The weight-update products': partials in the accumulators' type.
  poplar::OptionFlags weightUpdateOptions() const;
};

/// Parses the options of an LSTM (lstm true) or a GRU, throwing
/// poplar::invalid_option naming the operation and the option that is
/// unknown or whose value is not allowed.
RecurrentOptions parseRecurrentOptions(const poplar::OptionFlags &options,
                                       const std::string &opName, bool lstm);

/// Throws a poplibs_error naming the tensor unless it has this shape and
/// type.
void checkRnnTensor(const poplar::Tensor &t,
                    const std::vector<std::size_t> &shape,
                    const poplar::Type &type, const std::string &what,
                    const std::string &opName);

/// The shape of a layer's output: every step's, or the last step's.
std::vector<std::size_t> rnnOutputShape(bool fullSequence, std::size_t timeSteps,
                                        std::size_t batchSize,
                                        std::size_t outputSize);

/// Throws a poplibs_error unless inputGrad is given exactly when the
/// parameters ask for input gradients.
void checkInputGradRequest(bool given, bool calcInputGradients,
                           const std::string &opName);

/// A new variable mapped linearly over the tiles.
poplar::Tensor rnnVariable(poplar::Graph &graph, const poplar::Type &type,
                           std::vector<std::size_t> shape,
                           const poplar::DebugContext &dc);

/// A new [steps][...] variable, every step mapped linearly over the tiles
/// alike, so that the step the loop slices (or updates) at run time is read
/// (or written) on the tiles where it lies.
poplar::Tensor rnnStepVariable(poplar::Graph &graph, const poplar::Type &type,
                               std::vector<std::size_t> shape,
                               const poplar::DebugContext &dc);

/// A cell's work at one step: it reads the step's slices of the inputs,
/// writes the step's outputs (and interimOut) by copies into
/// `step.outputs` (`step.interimOut`), and updates `state` in place.
using StepBody = std::function<void(poplar::program::Sequence &body,
                                    std::vector<poplar::Tensor> &state,
                                    const popnn::rnn::RnnSlice &step)>;

/// The cell run once per step in a poplar loop over the sequence
/// (popnn::rnn::Rnn, one shard), last step first when reverse, so the graph
/// holds one step whatever the number of steps. Returns the final state.
std::vector<poplar::Tensor>
loopOverSteps(poplar::Graph &graph, const popnn::rnn::RnnParams &params,
              bool reverse, const std::vector<poplar::Tensor> &initState,
              const std::vector<poplar::Tensor> &inputs,
              poplar::Tensor *interimOut,
              const std::vector<poplar::Tensor> &outputs,
              poplar::program::Sequence &prog, const StepBody &cell,
              const poplar::DebugContext &dc);

/// The tensors a forward pass stores a step of: the intermediates
/// ([steps][numKept][batch][outputSize], when kept) and every step's
/// output ([steps][batch][outputSize], for a full sequence).
struct ForwardSequences {
  poplar::Tensor kept;
  std::vector<poplar::Tensor> outputs;
};
ForwardSequences forwardSequences(poplar::Graph &graph, const poplar::Type &type,
                                  std::size_t steps, std::size_t numKept,
                                  std::size_t batch, std::size_t outputSize,
                                  bool keep, bool fullSequence,
                                  const poplar::DebugContext &dc);

/// In a forward step: copies `kept` (in the intermediates' order) into the
/// step's intermediates when they are kept, and `output` into its output
/// when the sequence is one.
void storeForwardStep(poplar::program::Sequence &body,
                      const popnn::rnn::RnnSlice &step,
                      const std::vector<poplar::Tensor> &kept,
                      const poplar::Tensor &output,
                      const poplar::DebugContext &dc);

/// A zeroed copy-shaped variable of `like` (a loop's first carried
/// gradient).
poplar::Tensor zeroedLike(poplar::Graph &graph, const poplar::Tensor &like,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &dc);

/// [units][K][H] as [K][units * H], the units side by side (a view).
poplar::Tensor unitsSideBySide(const poplar::Tensor &w);
/// The inverse: [K][units * H] as [units][K][H].
poplar::Tensor unitsFirst(const poplar::Tensor &w, std::size_t units);

} // namespace detail
} // namespace popnn

#endif // POPNN_SRC_RNNUTIL_HPP
