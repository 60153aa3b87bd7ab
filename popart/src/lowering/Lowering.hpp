// Lowering: each IR op type has a function that grows its poplar program
// from the poplar tensors of its inputs, through the public poplar and
// PopLibs APIs only, and records the tensors of its outputs.
#ifndef POPART_SRC_LOWERING_LOWERING_HPP
#define POPART_SRC_LOWERING_LOWERING_HPP

#include <popart/op.hpp>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Type.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>

#include <functional>
#include <typeindex>
#include <typeinfo>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

/// The element type a tensor of `type` has on the device (INT64 is held as
/// INT, DOUBLE as FLOAT: the supported-type casting of the original;
/// BFLOAT16 as FLOAT, written to the host truncated to its upper half).
poplar::Type deviceType(DataType type);

class LoweringContext {
public:
  LoweringContext(poplar::Graph &graph,
                  const std::map<std::string, std::string> &matmulOptions,
                  const std::map<std::string, std::string> &convOptions)
      : graph(graph), matmulOptions(matmulOptions), convOptions(convOptions),
        shared(std::make_shared<Shared>()), subgraphs(shared->subgraphs),
        hostReduceGradients(shared->hostReduceGradients) {}
  /// The context of the ops of one IPU (virtual graphs): `ipuGraph` is
  /// its virtual graph; the lowered tensors, subgraphs and seed are
  /// `whole`'s.
  LoweringContext(poplar::Graph &ipuGraph, const LoweringContext &whole)
      : graph(ipuGraph), matmulOptions(whole.matmulOptions),
        convOptions(whole.convOptions), gclOptions(whole.gclOptions),
        seed(whole.seed), shared(whole.shared),
        subgraphs(shared->subgraphs),
        hostReduceGradients(shared->hostReduceGradients) {}
  /// The graph the ops of this context grow into: the whole device's, or
  /// one IPU's.
  poplar::Graph &graph;
  /// The session's options for poplin's matmuls and convolutions.
  std::map<std::string, std::string> matmulOptions, convOptions;
  poplin::matmul::PlanningCache matmulCache;
  poplin::PlanningCache convCache;
  /// SessionOptions::gclOptions, for the collectives between replicas.
  poplar::OptionFlags gclOptions;
  /// The session's random seed ([2] UNSIGNED_INT), when an op needs one;
  /// each op draws with its own seed modifier (seedModifier).
  poplar::Tensor seed;
  bool hasSeed() const { return seed.valid(); }

  const poplar::Tensor &get(const Tensor &t) const { return get(t.id); }
  const poplar::Tensor &get(const Tensor *t) const { return get(t->id); }
  const poplar::Tensor &get(const TensorId &id) const;
  void set(const Tensor &t, const poplar::Tensor &value);
  void set(const Tensor *t, const poplar::Tensor &value) { set(*t, value); }
  bool has(const TensorId &id) const { return shared->tensors.count(id) != 0; }
  /// A new variable of this context's graph spread evenly over its tiles.
  poplar::Tensor addLinearVariable(const poplar::Type &type,
                                   const std::vector<std::size_t> &shape,
                                   const std::string &name);

  /// A subgraph lowered once (ops/CallLowering.cpp): the tensors of its
  /// inputs and outputs, and the function that runs it, which every call
  /// of it calls.
  struct LoweredGraph {
    std::vector<poplar::Tensor> inputs, outputs;
    poplar::Function function;
  };

private:
  // What the contexts of one lowering share.
  struct Shared {
    std::map<TensorId, poplar::Tensor> tensors;
    std::map<std::string, LoweredGraph> subgraphs;
    std::map<TensorId, int64_t> hostReduceGradients;
  };
  std::shared_ptr<Shared> shared;

public:
  std::map<std::string, LoweredGraph> &subgraphs;
  /// The gradients reduced on the host (HostReduceOp), with their
  /// elements.
  std::map<TensorId, int64_t> &hostReduceGradients;
};

using LoweringFunction =
    std::function<void(const Op &, LoweringContext &, poplar::program::Sequence &)>;

/// Makes the variable of a weight that `op` reads at `index`, in `graph`
/// and named after `name`, laid out in storage and over tiles as the op's
/// lowering reads it; an invalid tensor if the op has no preference for
/// that input.
using InputCreator = std::function<poplar::Tensor(
    const Op &op, InIndex index, poplar::Graph &graph, LoweringContext &ctx,
    const std::string &name)>;

/// The lowering of each op class (UnaryOp, MatMulOp, ...): an op is
/// lowered by the function registered for its class.
class LoweringRegistry {
public:
  static LoweringRegistry &instance();
  template <typename OpClass> void add(LoweringFunction f) {
    functions[std::type_index(typeid(OpClass))] = std::move(f);
  }
  template <typename OpClass> void addCreator(InputCreator f) {
    creators[std::type_index(typeid(OpClass))] = std::move(f);
  }
  /// popart::error naming the op if its class has no lowering.
  const LoweringFunction &get(const Op &op) const;
  /// The creator of the op's inputs, or nullptr if its class has none.
  const InputCreator *creator(const Op &op) const;

private:
  std::map<std::type_index, LoweringFunction> functions;
  std::map<std::type_index, InputCreator> creators;
};

void registerBuiltinLowerings(LoweringRegistry &r);

/// Lowers an op with the Opx registered for its identity
/// (popart/popx/opxmanager.hpp).
void growWithOpx(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog);

/// The lowering of each op class, one file each (XLowering.cpp); the
/// table of op types to lowerings is RegisterLowerings.cpp.
#define POPART_LOWERING(NAME)                                                  \
  void NAME(const Op &op, LoweringContext &ctx, poplar::program::Sequence &prog);
POPART_LOWERING(growUnary)
POPART_LOWERING(growBinary)
POPART_LOWERING(growVariadic)
POPART_LOWERING(growWhere)
POPART_LOWERING(growClip)
POPART_LOWERING(growScale)
POPART_LOWERING(growScaledAdd)
POPART_LOWERING(growIdentity)
POPART_LOWERING(growReshape)
POPART_LOWERING(growTranspose)
POPART_LOWERING(growConcat)
POPART_LOWERING(growSlice)
POPART_LOWERING(growSplit)
POPART_LOWERING(growGather)
POPART_LOWERING(growCast)
POPART_LOWERING(growMatMul)
POPART_LOWERING(growGemm)
POPART_LOWERING(growSoftmax)
POPART_LOWERING(growReduce)
POPART_LOWERING(growExpand)
POPART_LOWERING(growTile)
POPART_LOWERING(growPad)
POPART_LOWERING(growTopK)
POPART_LOWERING(growConv)
/// ConvOp's weights as poplin::createWeights lays them out.
poplar::Tensor createConvWeights(const Op &op, InIndex index,
                                 poplar::Graph &graph, LoweringContext &ctx,
                                 const std::string &name);
POPART_LOWERING(growConvTranspose)
POPART_LOWERING(growPool)
POPART_LOWERING(growBatchNorm)
POPART_LOWERING(growInstanceNorm)
POPART_LOWERING(growLRN)
POPART_LOWERING(growLayerNorm)
POPART_LOWERING(growGroupNorm)
POPART_LOWERING(growUnaryGrad)
POPART_LOWERING(growBinaryGrad)
POPART_LOWERING(growVariadicGrad)
POPART_LOWERING(growWhereGrad)
POPART_LOWERING(growClipGrad)
POPART_LOWERING(growScaleGrad)
POPART_LOWERING(growCastGrad)
POPART_LOWERING(growTransposeGrad)
POPART_LOWERING(growConcatGrad)
POPART_LOWERING(growSliceGrad)
POPART_LOWERING(growSplitGrad)
POPART_LOWERING(growGatherGrad)
POPART_LOWERING(growExpandGrad)
POPART_LOWERING(growTileGrad)
POPART_LOWERING(growPadGrad)
POPART_LOWERING(growMatMulGrad)
POPART_LOWERING(growGemmGrad)
POPART_LOWERING(growSoftmaxGrad)
POPART_LOWERING(growReduceGrad)
POPART_LOWERING(growConvGrad)
POPART_LOWERING(growPoolGrad)
POPART_LOWERING(growBatchNormGrad)
POPART_LOWERING(growNll)
POPART_LOWERING(growNllGrad)
POPART_LOWERING(growSoftmaxGradDirect)
POPART_LOWERING(growNlllWithSoftmaxGradDirect)
POPART_LOWERING(growL1)
POPART_LOWERING(growL1Grad)
POPART_LOWERING(growIdentityLoss)
POPART_LOWERING(growIdentityLossGrad)
POPART_LOWERING(growDropout)
POPART_LOWERING(growDropoutGrad)
POPART_LOWERING(growRandom)
POPART_LOWERING(growBernoulli)
POPART_LOWERING(growMultinomial)
POPART_LOWERING(growScaledUpdate)
POPART_LOWERING(growAccumulatorZero)
POPART_LOWERING(growReplicatedAllReduce)
POPART_LOWERING(growReplicatedReduceScatter)
POPART_LOWERING(growReplicatedAllGatherGrad)
POPART_LOWERING(growPrintTensor)
POPART_LOWERING(growPrintTensorGrad)
POPART_LOWERING(growHostReduce)
POPART_LOWERING(growReplicatedAllGather)
POPART_LOWERING(growIpuCopy)
POPART_LOWERING(growAdamUpdate)
POPART_LOWERING(growAdaptiveUpdate)
POPART_LOWERING(growLayerNormGrad)
POPART_LOWERING(growGroupNormGrad)
POPART_LOWERING(growInstanceNormGrad)
POPART_LOWERING(growLRNGrad)
POPART_LOWERING(growTopKGrad)
POPART_LOWERING(growConvTransposeGrad)
POPART_LOWERING(growCall)
POPART_LOWERING(growLoop)
POPART_LOWERING(growPackedDataBlock)
POPART_LOWERING(growIf)
POPART_LOWERING(growOnnxLoop)
POPART_LOWERING(growScan)
POPART_LOWERING(growRoiAlign)
POPART_LOWERING(growHostIO)
POPART_LOWERING(growCopyVarUpdate)
POPART_LOWERING(growTrilu)
POPART_LOWERING(growTriluGrad)
POPART_LOWERING(growGatherElements)
POPART_LOWERING(growGatherElementsGrad)
POPART_LOWERING(growScatterElements)
POPART_LOWERING(growOnnxLoss)
POPART_LOWERING(growCumSum)
POPART_LOWERING(growCumSumGrad)
POPART_LOWERING(growOneHot)
POPART_LOWERING(growDepthToSpace)
POPART_LOWERING(growDepthToSpaceGrad)
POPART_LOWERING(growGatherND)
POPART_LOWERING(growGatherNDGrad)
POPART_LOWERING(growScatterND)
POPART_LOWERING(growCompress)
POPART_LOWERING(growMeanVarianceNorm)
POPART_LOWERING(growDet)
POPART_LOWERING(growEinsum)
POPART_LOWERING(growResize)
POPART_LOWERING(growQuantizeLinear)
POPART_LOWERING(growDequantizeLinear)
POPART_LOWERING(growDynamicQuantizeLinear)
POPART_LOWERING(growQuantizedMatMul)
POPART_LOWERING(growQuantizedConv)
POPART_LOWERING(growUnique)
POPART_LOWERING(growReverseSequence)
POPART_LOWERING(growMaxUnpool)
POPART_LOWERING(growPreviewOptimizer)
POPART_LOWERING(growRecurrent)
POPART_LOWERING(growGridSample)
POPART_LOWERING(growDFT)
POPART_LOWERING(growTfIdfVectorizer)
// ai.graphcore ops.
POPART_LOWERING(growGraphcoreElementwise)
POPART_LOWERING(growGraphcoreElementwiseGrad)
POPART_LOWERING(growDynamicSlice)
POPART_LOWERING(growDynamicSliceGrad)
POPART_LOWERING(growReduceMedian)
POPART_LOWERING(growReduceMedianGrad)
POPART_LOWERING(growScatterReduce)
POPART_LOWERING(growScatterReduceGrad)
POPART_LOWERING(growGroupedGather)
POPART_LOWERING(growGroupedGatherGrad)
POPART_LOWERING(growInit)
POPART_LOWERING(growAbort)
POPART_LOWERING(growNormalizeImage)
POPART_LOWERING(growSequenceSlice)
POPART_LOWERING(growShapedDropout)
POPART_LOWERING(growShapedDropoutGrad)
POPART_LOWERING(growTensorRemap)
POPART_LOWERING(growTensorRemapGrad)
// Sequence models.
POPART_LOWERING(growMultiConv)
POPART_LOWERING(growMultiConvGrad)
POPART_LOWERING(growCtc)
POPART_LOWERING(growCtcGrad)
POPART_LOWERING(growCtcBeamSearchDecoder)
POPART_LOWERING(growPopartLstm)
POPART_LOWERING(growPopartLstmGrad)
POPART_LOWERING(growSplineBasis)
POPART_LOWERING(growSplineWeighting)
#undef POPART_LOWERING

/// The type PopLibs computes element-wise operations on `t` in: INT for 8-
/// and 16-bit integers (which not every operation has), else t itself.
poplar::Type arithmeticType(const poplar::Type &t);
/// t cast to `type` unless it already has it.
poplar::Tensor castTo(LoweringContext &ctx, const poplar::Tensor &t,
                      const poplar::Type &type, poplar::program::Sequence &prog,
                      const std::string &name);

/// A constant of `type` and `shape` holding host values (converted to
/// `type`), spread over the tiles.
poplar::Tensor hostConstant(LoweringContext &ctx, const poplar::Type &type,
                            const std::vector<std::size_t> &shape,
                            const std::vector<int> &values,
                            const std::string &name);
poplar::Tensor hostConstant(LoweringContext &ctx, const poplar::Type &type,
                            const std::vector<std::size_t> &shape,
                            const std::vector<float> &values,
                            const std::string &name);
/// A scalar constant of `type` on tile 0.
poplar::Tensor scalarConstant(LoweringContext &ctx, const poplar::Type &type,
                              double value, const std::string &name);

/// Writes (reduction "none"), adds ("add") or multiplies ("mul") row k of
/// `values` ([K, ...]) into row offsets[k] (UNSIGNED_INT [K]) of `rows`
/// ([R, ...], a tensor of its own): popops' multi-updates.
void updateRows(LoweringContext &ctx, const poplar::Tensor &rows,
                const poplar::Tensor &values, const poplar::Tensor &offsets,
                const std::string &reduction, poplar::program::Sequence &prog,
                const std::string &name);

/// The softmax (or log-softmax) of each row of [rows, columns], stable
/// (the row's maximum subtracted first) or not (ops/SoftmaxLowering.cpp).
poplar::Tensor softmaxOfRows(LoweringContext &ctx, const poplar::Tensor &x2,
                             bool log, bool stable,
                             poplar::program::Sequence &prog,
                             const std::string &name);
/// BOOL [rows, columns]: true at the first maximum of each row (the
/// smallest column holding it), false elsewhere (Hardmax's).
poplar::Tensor firstMaxOfRows(LoweringContext &ctx, const poplar::Tensor &x2,
                              poplar::program::Sequence &prog,
                              const std::string &name);

/// A view of the one element of `scalar` broadcast to `shape`.
poplar::Tensor broadcastScalar(const poplar::Tensor &scalar,
                               const std::vector<std::size_t> &shape);
/// `t`, a tensor numpy-broadcast to its shape from `shape`, summed back to
/// `shape` (the gradient of a broadcast operand).
poplar::Tensor reduceToShape(LoweringContext &ctx, const poplar::Tensor &t,
                             const Shape &shape, poplar::program::Sequence &prog,
                             const std::string &name);
std::vector<std::size_t> dims(const Shape &shape);

/// Host data of `type` as the device holds it (INT64 as INT, DOUBLE and
/// BFLOAT16 as FLOAT), and back.
std::vector<char> toDeviceBytes(const std::vector<char> &data, DataType type);
void fromDeviceBytes(const void *src, void *dst, int64_t n, DataType type);

/// A tensor of its own holding a copy of `view` (the output of ops that
/// only rearrange their input).
poplar::Tensor copyOf(LoweringContext &ctx, const poplar::Tensor &view,
                      poplar::program::Sequence &prog, const std::string &name);
/// [.., m, k] x [.., k, n] with broadcast batch dimensions (numpy matmul),
/// reshaped to outShape. `rhsInput` (`lhsInput`), when given, is the IR
/// tensor b (a) is, in its own element order: a model input only this
/// product reads is laid out as the product's plan wants it.
poplar::Tensor lowerMatMul(LoweringContext &ctx, poplar::Tensor a,
                           poplar::Tensor b, const Shape &outShape,
                           poplar::program::Sequence &prog,
                           const std::string &name,
                           const Tensor *rhsInput = nullptr,
                           const Tensor *lhsInput = nullptr,
                           const std::map<std::string, std::string>
                               &opOptions = {});

/// The options of an op's poplin call: the session's, with the node's own
/// (Builder::setAvailableMemoryProportion, setPartialsType) over them.
poplar::OptionFlags
poplibsOptionFlags(const std::map<std::string, std::string> &session,
                   const std::map<std::string, std::string> &node);

/// A convolution's output [N, C, field...] (a view of channel-innermost
/// blocks) copied into a tensor of its own, so that the element-wise ops
/// and poolings after it see long contiguous runs: on the IPU Model in its
/// own element order and spread evenly over the tiles; on the CPU device
/// stored channels innermost, as the next convolution reads it.
poplar::Tensor denseActivations(LoweringContext &ctx, const poplar::Tensor &out,
                                poplar::program::Sequence &prog,
                                const std::string &name);

class ConvOp;
/// poplin's convolution of `in` [N, C, field...] by `weights`
/// [M, C / group, kernel...] with conv's attributes, in a tensor of its own
/// (denseActivations). `weightsInput`, when given, is the IR tensor the
/// weights are (mapped as the plan wants when only conv reads it);
/// `epilogue`, when given, is applied to the outputs (poplin::ConvEpilogue).
poplar::Tensor lowerConvolution(LoweringContext &ctx, const ConvOp &conv,
                                const poplar::Tensor &in,
                                const poplar::Tensor &weights,
                                poplar::program::Sequence &prog,
                                const Tensor *weightsInput = nullptr,
                                const poplin::ConvEpilogue *epilogue = nullptr);

/// Maps `view` (of the model input `input`: a tensor no op produces) as
/// `create` lays out a new operand of the op reading it, if that op is
/// the input's only reader and did not create it (InputCreator). `create`
/// makes the operand in the graph it is given, with view's shape and
/// element order.
void mapLikePlannedOperand(
    LoweringContext &ctx, const Tensor &input, const poplar::Tensor &view,
    const std::function<poplar::Tensor(poplar::Graph &)> &create);

} // namespace popart

#endif
