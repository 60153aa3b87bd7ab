// Builder: makes an ONNX model (a ModelProto) op by op. The op methods of
// the ai.onnx opsets (AiOnnxOpset6 ... ) are generated at build time from
// the ONNX operator schemas into popart/builder.gen.hpp.
#ifndef POPART_BUILDER_HPP
#define POPART_BUILDER_HPP

#include <popart/attributes.hpp>
#include <popart/commgroup.hpp>
#include <popart/dataflow.hpp>
#include <popart/debugcontext.hpp>
#include <popart/domainopset.hpp>
#include <popart/names.hpp>
#include <popart/op.hpp>
#include <popart/operatoridentifier.hpp>
#include <popart/popart_export.hpp>
#include <popart/op/collectives/collectives.hpp>
#include <popart/op/init.hpp>
#include <popart/op/scatterreduce.hpp>
#include <popart/op/tensorremap.hpp>
#include <popart/reductiontype.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/vendored/optional.hpp>
#include <popart/voiddata.hpp>

#include <popart/builder.gen.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace popart {

class Builder;

/// The ai.graphcore operators.
class POPART_API AiGraphcoreOpset1 : private DomainOpSet {
protected:
  int getOpsetVersion() const override { return 1; }
  const char *getDomain() const override { return Domain::ai_graphcore; }

public:
  explicit AiGraphcoreOpset1(std::unique_ptr<BuilderImpl> &impl_)
      : DomainOpSet(impl_) {}

  /// Gelu with the tanh approximation.
  TensorId gelu(const std::vector<TensorId> &args,
                const DebugContext &debugContext = {});
  /// Gelu with the exact erf form.
  TensorId geluerf(const std::vector<TensorId> &args,
                   const DebugContext &debugContext = {});
  /// args[0] * scale.
  TensorId scale(const std::vector<TensorId> &args, float scale,
                 const DebugContext &debugContext = {});
  /// args[0] * scale0 + args[1] * scale1.
  TensorId scaledadd(const std::vector<TensorId> &args, float scale0,
                     float scale1, const DebugContext &debugContext = {});
  /// The input, stopping gradients (identity in inference).
  TensorId detach(const std::vector<TensorId> &args,
                  const DebugContext &debugContext = {});
  /// The input, unchanged and never optimised away.
  TensorId nop(const std::vector<TensorId> &args,
               const DebugContext &debugContext = {});
  TensorId square(const std::vector<TensorId> &args,
                  const DebugContext &debugContext = {});
  TensorId swish(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  TensorId log1p(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  TensorId expm1(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  /// Reshape to a shape given as an attribute.
  TensorId reshape(const TensorId &arg, const std::vector<int64_t> &shape,
                   const DebugContext &debugContext = {});

  // Losses: the output is the loss, reduced by `reduction` (a scalar for
  // Sum and Mean, the input's shape less the class dimension for
  // NoReduction).
  /// lambda * |args[0]|.
  TensorId l1loss(const std::vector<TensorId> &args, const float lambda,
                  const ReductionType reduction = ReductionType::Mean,
                  const DebugContext &debugContext = {});
  /// The negative log likelihood of args[0] (probabilities [..., classes],
  /// or their logarithms if inputIsLogProbability) at the labels args[1]
  /// ([...]); labels equal to ignoreIndex count for nothing (and a mean is
  /// over the others).
  TensorId nllloss(const std::vector<TensorId> &args,
                   const ReductionType reduction = ReductionType::Mean,
                   const nonstd::optional<int> ignoreIndex = nonstd::nullopt,
                   bool inputIsLogProbability = false,
                   const DebugContext &debugContext = {});
  /// args[0] itself as the loss.
  TensorId identityloss(const std::vector<TensorId> &args,
                        const ReductionType reduction = ReductionType::Mean,
                        const DebugContext &debugContext = {});

  // Element-wise (two inputs broadcast as numpy does).
  /// The angle of (x, y) in (-pi, pi], args [y, x] (FLOAT or FLOAT16).
  TensorId atan2(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  /// The remainder of args[0] / args[1] with the dividend's sign (C fmod).
  TensorId fmod(const std::vector<TensorId> &args,
                const DebugContext &debugContext = {});
  /// The remainder with the divisor's sign (Python's %).
  TensorId remainder(const std::vector<TensorId> &args,
                     const DebugContext &debugContext = {});
  /// ONNX Round (ties to even) from any opset.
  TensorId round(const std::vector<TensorId> &args,
                 const DebugContext &debugContext = {});
  /// The nearest integer, ties to even.
  TensorId nearbyint(const std::vector<TensorId> &args,
                     const DebugContext &debugContext = {});
  /// (args[0] + increment) fmod modulus.
  TensorId incrementmod(const std::vector<TensorId> &args,
                        Attributes::Float increment, Attributes::Float modulus,
                        const DebugContext &debugContext = {});
  /// The INT32 index of the bucket of each element of args[0] among the
  /// increasing boundaries args[1]: the number of boundaries below it (at
  /// most it when right is 1).
  TensorId bucketize(const std::vector<TensorId> &args, Attributes::Int right = 0,
                     const DebugContext &debugContext = {});
  /// [values, INT64 indices] of args[0] sorted along axis.
  std::vector<TensorId> sort(const std::vector<TensorId> &args,
                             Attributes::Int axis = -1,
                             Attributes::Int descending = 0,
                             Attributes::Int stable = 0,
                             const DebugContext &debugContext = {});
  /// [medians, INT32 indices] over axes (all when none), the lower one of
  /// an even count; the index among the reduced elements flattened.
  std::vector<TensorId>
  reducemedian(const std::vector<TensorId> &args,
               const nonstd::optional<std::vector<int64_t>> &axes =
                   nonstd::nullopt,
               int64_t keepdims = 1, const DebugContext &debugContext = {});
  // Bitwise operations of INT32 or UINT32 tensors.
  TensorId bitwisenot(const std::vector<TensorId> &args,
                      const DebugContext &debugContext = {});
  TensorId bitwiseand(const std::vector<TensorId> &args,
                      const DebugContext &debugContext = {});
  TensorId bitwiseor(const std::vector<TensorId> &args,
                     const DebugContext &debugContext = {});
  TensorId bitwisexor(const std::vector<TensorId> &args,
                      const DebugContext &debugContext = {});
  TensorId bitwisexnor(const std::vector<TensorId> &args,
                       const DebugContext &debugContext = {});

  // Data movement.
  /// The input flipped along `dimensions` (none: unchanged).
  TensorId reverse(const std::vector<TensorId> &args,
                   const std::vector<int64_t> &dimensions,
                   const DebugContext &debugContext = {});
  /// Slice with starts, ends and axes as attributes (note: ends first).
  TensorId slice(const std::vector<TensorId> &args,
                 const std::vector<int64_t> &ends,
                 const std::vector<int64_t> &starts,
                 const std::vector<int64_t> &axes = std::vector<int64_t>(),
                 const DebugContext &debugContext = {});
  /// Every strides[d]-th element along each dimension d (no stride 0).
  TensorId subsample(const std::vector<TensorId> &args,
                     const std::vector<int64_t> &strides,
                     const DebugContext &debugContext = {});
  /// ONNX DepthToSpace (opset 11, modes DCR and CRD) from any opset.
  TensorId depthtospace(const std::vector<TensorId> &args, int64_t blocksize,
                        const std::string &mode = "DCR",
                        const DebugContext &debugContext = {});
  // Slices at an offset read at run time: args [tensor, offset] or
  // [tensor, offset, slice]; the slice has sizes[i] elements along
  // axes[i] from offset[i] (one integer per axis).
  /// The slice.
  TensorId dynamicslice(const std::vector<TensorId> &args, Attributes::Ints axes,
                        Attributes::Ints sizes, Attributes::Int noOverlap,
                        const DebugContext &debugContext = {});
  /// The tensor with the slice replaced by args[2].
  TensorId dynamicupdate(const std::vector<TensorId> &args,
                         Attributes::Ints axes, Attributes::Ints sizes,
                         Attributes::Int noOverlap,
                         const DebugContext &debugContext = {});
  /// The tensor with the slice zeroed.
  TensorId dynamiczero(const std::vector<TensorId> &args, Attributes::Ints axes,
                       Attributes::Ints sizes,
                       const DebugContext &debugContext = {});
  /// The tensor with args[2] added to the slice.
  TensorId dynamicadd(const std::vector<TensorId> &args, Attributes::Ints axes,
                      Attributes::Ints sizes,
                      const DebugContext &debugContext = {});

  // Normalisation.
  /// [y, mean, invStdDev] of args [x, scale, bias]: x [N, C, ...] normalised
  /// over each group of C / num_groups consecutive channels (and the other
  /// dimensions), then y = normalised * scale + bias per channel; mean and
  /// invStdDev are [N * num_groups].
  std::vector<TensorId>
  groupnormalization(const std::vector<TensorId> &args, int64_t num_groups,
                     float epsilon = 1e-05f,
                     const DebugContext &debugContext = {});

  // Scatter with reduction: args [src, index(, initial_values)]; element e
  // of src goes to the output element at its position with index[e] along
  // axis, combined there by `reduction` (indices outside [0, axis_size)
  // are skipped, elements nothing reaches are the initial value, else 0, 1
  // for Mul). The index is src's shape or, with enable_index_broadcast, a
  // vector along axis broadcast to it.
  /// The output: src's shape with axis_size along axis.
  TensorId scatterreduce(const std::vector<TensorId> &args,
                         Attributes::Int axis_size, Attributes::Int axis = -1,
                         ScatterReduction reduction = ScatterReduction::Sum,
                         Attributes::Int enable_index_broadcast = 1,
                         const DebugContext &debugContext = {});
  /// The same for each of group_size groups along dimension 0.
  TensorId
  groupedscatterreduce(const std::vector<TensorId> &args,
                       Attributes::Int axis_size, Attributes::Int axis = -1,
                       ScatterReduction reduction = ScatterReduction::Sum,
                       Attributes::Int group_size = 1,
                       Attributes::Int enable_index_broadcast = 1,
                       const DebugContext &debugContext = {});

  /// args [data, indices]: a Gather along axis in each of group_size groups
  /// along dimension 0 of both (group_size 1: a plain Gather).
  TensorId groupedgather(const std::vector<TensorId> &args,
                         Attributes::Int axis = 0,
                         Attributes::Int group_size = 1,
                         const DebugContext &debugContext = {});

  /// A new tensor of `shape` and data_type (a DataType value: FLOAT,
  /// FLOAT16, INT32 or UINT32), zeroed when init_type is InitType::Zero,
  /// undefined for NoInit; batch_axis (-1: none) names its batch dimension.
  TensorId init(Attributes::Ints shape, Attributes::Int data_type,
                Attributes::Int init_type, Attributes::Int batch_axis,
                const DebugContext &debugContext = {});
  TensorId init(Attributes::Ints shape, Attributes::Int data_type,
                Attributes::Int init_type,
                const DebugContext &debugContext = {});

  /// Stops the program: always (no args), or when the scalar args[0] is
  /// non-zero (a poplar::application_runtime_error from the run).
  void abort(const std::vector<TensorId> &args,
             const DebugContext &debugContext = {});

  /// args [image, offsets, scales]: the image's 3 inner channels become
  /// 4, channel c < 3 (image * scale - offsets[c]) * scales[c], channel 3
  /// zero (FLOAT16 for a UINT8 image).
  TensorId normalize_image(const std::vector<TensorId> &args, float scale,
                           const DebugContext &debugContext = {});
  /// args [source, destination, N, sourceOffset, destinationOffset]: a
  /// copy of destination with rows destinationOffset[i] .. + N[i] taken
  /// from source rows sourceOffset[i] .. (until the first N[i] == 0); the
  /// rows nothing writes zeroed when zeroUnused is 1.
  TensorId sequenceslice(const std::vector<TensorId> &args,
                         Attributes::Int zeroUnused,
                         const DebugContext &debugContext = {});

  /// Dropout (in training) with one draw per element of a mask of `shape`
  /// broadcast to args[0]; kept elements scaled by 1 / (1 - ratio).
  TensorId shapeddropout(const std::vector<TensorId> &args,
                         const std::vector<int64_t> &shape, float ratio = 0.5f,
                         const DebugContext &debugContext = {});

  /// args[0]'s values in a new tensor with a fresh tile layout; remap_type
  /// a TensorRemapType value (what the backward pass does).
  TensorId tensorremap(const std::vector<TensorId> &args,
                       Attributes::Int remap_type,
                       const DebugContext &debugContext = {});
  /// args [tensor, updater]: the variable `tensor` takes updater's values
  /// (kept between runs); the result is an alias of the updated variable.
  TensorId copyvarupdate(const std::vector<TensorId> &args,
                         const DebugContext &debugContext = {});

  /// Several independent convolutions in one op, tensors[i] = {data
  /// [N, C, field...], weights [M, C / groups, kernel...](, bias [M])}
  /// (groups from the shapes); returns each convolution's output. Every
  /// other list is empty (the defaults: dilations, inDilations and strides
  /// 1, pads and outPads 0) or has one entry per convolution: dilations
  /// (of the kernel), inDilations (of the input), strides one value per
  /// spatial dimension, pads (before the kernel) and outPads (around the
  /// output) two (all lower values, then all upper ones);
  /// availableMemoryProportions in (0, 1], partialsTypes ("float" or
  /// "half") and enableConvDithering (0 or 1) are each convolution's
  /// poplin options. planType ("parallel" or "serial"),
  /// perConvReservedTiles and cycleBackOff ([0, 1)) are the
  /// multi-convolution options of poplin::multiconv.
  std::vector<TensorId>
  multiconv(const MultiConvInputs &tensors,
            const MultiConvDilations &dilations = {},
            const MultiConvDilations &inDilations = {},
            const MultiConvPads &pads = {}, const MultiConvPads &outPads = {},
            const MultiConvStrides &strides = {},
            const std::vector<float> &availableMemoryProportions = {},
            const std::vector<std::string> &partialsTypes = {},
            const nonstd::optional<std::string> planType = nonstd::nullopt,
            const nonstd::optional<int> perConvReservedTiles = nonstd::nullopt,
            const nonstd::optional<float> cycleBackOff = nonstd::nullopt,
            const std::vector<int64_t> enableConvDithering = {},
            const DebugContext &debugContext = {});

  // Sequence models: CTC, the Graphcore LSTM, spline convolutions.

  /// The CTC loss of args [log_probs [T, N, C], targets [N, S],
  /// input_lengths [N], target_lengths [N]] (the integer inputs INT32 or
  /// UINT32): the negative log likelihood of each target (classes other
  /// than `blank`, up to its length) given the log probabilities (up to the
  /// input length). Reduced by `reduction` (Mean: each loss divided by its
  /// target length, then the mean over the batch); outDataType "FLOAT",
  /// "FLOAT16" or "UNDEFINED" (log_probs' type); zeroInfinity: an
  /// impossible target gives a zero loss and gradient instead of infinity.
  TensorId ctcloss(const std::vector<TensorId> &args,
                   const ReductionType reduction = ReductionType::Mean,
                   const unsigned blank = 0,
                   const std::string &outDataType = "UNDEFINED",
                   const bool zeroInfinity = false,
                   const DebugContext &debugContext = {});
  /// ctcloss with both outputs: the loss, and the gradient of each
  /// sample's loss with respect to log_probs [T, N, C] (what the backward
  /// pass scales).
  std::vector<TensorId>
  _ctcloss(const std::vector<TensorId> &args,
           const ReductionType reduction = ReductionType::Mean,
           const unsigned blank = 0,
           const std::string &outDataType = "UNDEFINED",
           const bool zeroInfinity = false,
           const DebugContext &debugContext = {});

  /// Prefix beam search over args [logProbs [maxTime, batchSize,
  /// numClasses], dataLengths [batchSize] (UINT32)]: [labelProbs
  /// [batchSize, topPaths] (log probabilities), labelLengths [batchSize,
  /// topPaths] and decodedLabels [batchSize, topPaths, maxTime] (UINT32)],
  /// the most likely first. topPaths must not exceed beamWidth.
  std::vector<TensorId>
  ctcbeamsearchdecoder(const std::vector<TensorId> &args, unsigned blank = 0,
                       unsigned beamWidth = 100, unsigned topPaths = 1,
                       const DebugContext &debugContext = {});

  /// The Graphcore LSTM of args [input [seqLength, batch, inputSize],
  /// weights [4, inputSize + hidden, hidden], biases [4, hidden] (optional),
  /// initialState [2, batch, hidden] (output then cell state, optional)];
  /// the gates in the order forget, input, candidate, output. Returns
  /// [output ([seqLength, batch, hidden] if outputFullSequence, else the
  /// last step's [batch, hidden]), the final cell state [batch, hidden]].
  std::vector<TensorId> lstm(const std::vector<TensorId> &args,
                             int64_t outputFullSequence,
                             const DebugContext &debugContext = {});

  /// The B-spline basis of args [pseudo [numEdges, numDims] (FLOAT or
  /// FLOAT16), kernel_size [numDims] (INT32), is_open_spline [numDims]
  /// (UINT8)]: [basis, weightIndex], both [numEdges, (degree + 1)^numDims]
  /// (degree 0 to 3).
  std::vector<TensorId> splinebasis(const std::vector<TensorId> &args,
                                    Attributes::Int degree = 1,
                                    const DebugContext &debugContext = {});

  /// Features weighted by the spline kernel, args [input [numEdges,
  /// inChannels], weight [numWeights, inChannels, outChannels], basis
  /// [numEdges, numSplines], weightIndex [numEdges, numSplines] (INT32)]:
  /// out[e] = sum over s of basis[e][s] * input[e] x weight[weightIndex[e][s]].
  TensorId splineweighting(const std::vector<TensorId> &args,
                           const DebugContext &debugContext = {});
  // Normalisation, printing, calls and collectives (issue 16, part 1).
  /// BatchNormalization of args [X, scale, B, mean, var] with the batch
  /// variance divided by N - 1 (PyTorch's) rather than ONNX's N; outputs
  /// as ONNX's: Y, then in training (num_outputs up to 5) the running
  /// mean and variance, the batch's mean and variance.
  std::vector<TensorId>
  batchnormalization(const std::vector<TensorId> &args, unsigned num_outputs,
                     float epsilon = 1e-05f, float momentum = 0.9f,
                     const DebugContext &debugContext = {});

  /// args[0] passed through, its values printed by the run as
  /// "title: [...]" (title: the tensor's id unless given) to the engine's
  /// print stream; with print_gradient its gradient too, titled
  /// title + "_gradient" (or the gradient's id). The layout is
  /// poplar::PrintTensorFmt's: above summariseThreshold elements (0:
  /// never) edgeItems at each end; lines split after maxLineWidth
  /// characters (0: never); `digits` digits, aligned (0: unaligned);
  /// floatFormat 0 auto, 1 fixed, 2 scientific, 3 none.
  TensorId printtensor(const std::vector<TensorId> &args,
                       int64_t print_gradient = 1,
                       const DebugContext &debugContext = {},
                       const std::string &title = {},
                       const int summariseThreshold = 1000,
                       const int edgeItems = 3, const int maxLineWidth = 75,
                       const int digits = 8, const int floatFormat = 0,
                       const char separator = ' ', const char openBracket = '[',
                       const char closeBracket = ']');

  /// The outputs of `callee` (a builder from createSubgraphBuilder) run on
  /// args: its inputs take args' values, in order; num_outputs must be its
  /// number of outputs. In training the gradient flows through the call
  /// (the subgraph run again, then differentiated).
  std::vector<TensorId> call(const std::vector<TensorId> &args,
                             unsigned num_outputs, const Builder &callee,
                             const DebugContext &debugContext = {});

  /// Runs `callback` (a builder from createSubgraphBuilder) on packed
  /// sequences. args: [data, offsets, lengths] for each callback input
  /// (sequence s of data is its rows offsets[s] .. + lengths[s], UINT32),
  /// then the result's offsets and lengths. The callback's input i takes
  /// callbackBatchSize sequences unpacked, [callbackBatchSize,
  /// maxSequenceLengths[i], data's inner dimensions], zero past each
  /// sequence's length; its one output [callbackBatchSize, L, ...] is
  /// packed back: the first resultLengths[s] rows of sequence s go to rows
  /// resultOffsets[s] .. of the result [resultSize, ...], zero elsewhere.
  TensorId packedDataBlock(const std::vector<TensorId> &args,
                           const std::vector<int64_t> &maxSequenceLengths,
                           int64_t resultSize, int64_t callbackBatchSize,
                           const Builder &callback,
                           const DebugContext &debugContext = {});

  /// Deprecated (logs a warning): the other form, with commGroup given as
  /// [CommGroupType, group size].
  TensorId replicatedallreduce(
      const std::vector<TensorId> &args,
      const nonstd::optional<std::vector<int64_t>> &commGroup = nonstd::nullopt,
      const DebugContext &debugContext = {});
  /// args[0] combined element by element over the replicas of each group
  /// (SessionOptions::replicatedGraphCount): Add unless collectiveOperator
  /// says otherwise, over all replicas unless commGroup says otherwise.
  TensorId replicatedallreduce(
      const std::vector<TensorId> &args,
      const nonstd::optional<CollectiveOperator> &collectiveOperator =
          nonstd::nullopt,
      const nonstd::optional<CommGroup> &commGroup = nonstd::nullopt,
      const DebugContext &debugContext = {});
  /// Part k of the flattened combination for replica k of each group of n:
  /// [ceil(elements / n)], the last part padded with zeros.
  TensorId replicatedreducescatter(
      const std::vector<TensorId> &args,
      const nonstd::optional<CollectiveOperator> &collectiveOperator =
          nonstd::nullopt,
      const nonstd::optional<CommGroup> &commGroup = nonstd::nullopt,
      const DebugContext &debugContext = {});

private:
  // The bitwise operation `opid` of args.
  TensorId bitwiseGenericOp(const OperatorIdentifier &opid,
                            const std::vector<TensorId> &args,
                            const DebugContext &debugContext = {});
};

class POPART_API Builder {
public:
  static std::unique_ptr<Builder> create();
  /// A builder holding the model of a file, or of serialised ModelProto
  /// bytes.
  static std::unique_ptr<Builder>
  createFromOnnxModel(const std::string &modelProtoOrFilename);
  ~Builder();

  /// A builder of a subgraph (for AiGraphcoreOpset1::call and
  /// packedDataBlock), owned by this one.
  Builder &createSubgraphBuilder();

  // Inputs and outputs.
  TensorId addInputTensor(const TensorInfo &tensorInfo,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const std::string &dataType, const Shape &shape,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const TensorInfo &tensorInfo,
                          const InputSettings &settings,
                          const DebugContext &debugContext = {});
  TensorId addInputTensor(const std::string &dataType, const Shape &shape,
                          const InputSettings &settings,
                          const DebugContext &debugContext = {});
  /// An input of the subgraph with no type or shape.
  TensorId addUntypedInputTensor(const DebugContext &debugContext = {});
  TensorId addInitializedInputTensor(const ConstVoidData &initData,
                                     const DebugContext &debugContext = {});
  void addOutputTensor(const TensorId &arg0);

  // Opsets.
#define POPART_BUILDER_OPSET(N)                                                \
  AiOnnxOpset##N aiOnnxOpset##N() { return AiOnnxOpset##N(this->impl_); }
  POPART_BUILDER_OPSET(6)
  POPART_BUILDER_OPSET(7)
  POPART_BUILDER_OPSET(8)
  POPART_BUILDER_OPSET(9)
  POPART_BUILDER_OPSET(10)
  POPART_BUILDER_OPSET(11)
  POPART_BUILDER_OPSET(12)
  POPART_BUILDER_OPSET(13)
  POPART_BUILDER_OPSET(14)
  POPART_BUILDER_OPSET(15)
  POPART_BUILDER_OPSET(16)
  POPART_BUILDER_OPSET(17)
#undef POPART_BUILDER_OPSET
  AiGraphcoreOpset1 aiGraphcoreOpset1() {
    return AiGraphcoreOpset1(this->impl_);
  }

  /// A node of any operator (a custom op, or one the opsets lack).
  std::vector<TensorId>
  customOp(const OperatorIdentifier &opid, int opsetVersion,
           const std::vector<TensorId> &inputs, const unsigned numOutputs,
           const std::map<std::string, any> &attributes,
           const DebugContext &debugContext = {});

  // Annotations (node attributes of the node producing a tensor).
  void virtualGraph(const TensorId &nodeOutputName, int64_t value = 0);
  void virtualGraph(const std::set<TensorId> &nodeOutputNames,
                    int64_t value = 0);
  int64_t getVirtualGraph(const TensorId &nodeOutputName);
  void pipelineStage(const TensorId &nodeOutputName, int64_t value);
  void executionPhase(const TensorId &nodeOutputName, int64_t value = 0);
  void setAvailableMemoryProportion(const TensorId &nodeOutputName,
                                    const float availableMemoryProportion);
  void setPartialsType(const TensorId &nodeOutputName,
                       const std::string partialsType);
  std::string getPartialsType(const TensorId &nodeOutputName);
  void excludePatterns(const TensorId &nodeOutputName,
                       const std::vector<std::string> &patternNames);
  void excludePatterns(const std::set<TensorId> &nodeOutputNames,
                       const std::vector<std::string> &patternNames);

  /// Whether the node producing the tensor runs again in the backward pass
  /// (Recompute) or keeps its output for it (Checkpoint).
  void recomputeOutputInBackwardPass(
      const TensorId &nodeOutputName,
      RecomputeType value = RecomputeType::Recompute);
  void recomputeOutputInBackwardPass(
      const std::set<TensorId> &nodeOutputNames,
      RecomputeType value = RecomputeType::Recompute);
  bool getRecomputeOutputInBackwardPass(const TensorId &nodeOutputName);
  /// Each tensor passed through a node that keeps it for the backward pass
  /// (a checkpoint); returns the checkpointed tensors.
  std::vector<TensorId> checkpointOutput(const std::vector<TensorId> &nodeOutputNames);

  void addNodeAttribute(const std::string &attributeName,
                        const int64_t &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<int64_t> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const float &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<float> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::string &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  void addNodeAttribute(const std::string &attributeName,
                        const std::vector<std::string> &attributeValue,
                        const std::set<TensorId> &nodeOutputNames);
  bool nodeHasAttribute(const std::string &attributeName,
                        const std::set<TensorId> &nodeOutputNames);
  int64_t getInt64NodeAttribute(const std::string &attributeName,
                                const std::set<TensorId> &nodeOutputNames);
  std::vector<int64_t>
  getInt64VectorNodeAttribute(const std::string &attributeName,
                              const std::set<TensorId> &nodeOutputNames);
  float getFloatNodeAttribute(const std::string &attributeName,
                              const std::set<TensorId> &nodeOutputNames);
  std::string getStringNodeAttribute(const std::string &attributeName,
                                     const std::set<TensorId> &nodeOutputNames);
  void removeNodeAttribute(const std::string &attributeName,
                           const std::set<TensorId> &nodeOutputNames);
  std::vector<std::string>
  getAllNodeAttributeNames(const std::set<TensorId> &nodeOutputNames);

  /// Attributes given to every node added while they are set (for example
  /// "__ipu_number" from virtualGraph scopes).
  void setAttribute(const std::string &attribute, any value);
  any getAttribute(const std::string attribute) const;
  bool hasAttribute(const std::string &attribute) const;
  void clearAttribute(const std::string &attribute);

  // Name scopes: "scope/" is prefixed to the names of ops and tensors.
  void pushNameScope(const std::string &name);
  void popNameScope();
  std::string getNameScope(const std::string &name = "") const;
  void setGraphName(const std::string &name);

  // The model.
  /// The serialised ModelProto (text format when humanReadable).
  std::string getModelProto(bool humanReadable = false) const;
  void saveModelProto(const std::string &fn);
  void loadModelProto(const std::string &modelProtoOrFilename);

  std::vector<TensorId> getInputTensorIds() const;
  std::vector<TensorId> getOutputTensorIds() const;
  std::vector<TensorId> getValueTensorIds() const;
  std::vector<TensorId> getTrainableTensorIds() const;
  bool hasValueInfo(const TensorId &id) const;
  /// The shape of a tensor, from ONNX shape inference.
  std::vector<int64_t> getTensorShape(const TensorId id);
  bool isInitializer(const TensorId id) const;
  DataType getTensorDataType(const TensorId id);
  std::string getTensorDtypeString(const TensorId id);

private:
  Builder();
  std::unique_ptr<BuilderImpl> impl_;
  std::vector<std::unique_ptr<Builder>> children_;
};

} // namespace popart

#endif
