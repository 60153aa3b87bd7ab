// Convolutions of 1, 2 or 3 spatial dimensions (ConvParams), their weight
// update and the pieces training needs: weights, inputs and biases laid out
// for the plan, bias addition and update, and the weight transposition the
// input-gradient pass uses. The work is split over tiles by a plan
// (src/ConvPlan.hpp, described in poplin's README).
//
// Layouts: input [B, inChans, field...], weights [convGroups,
// outChansPerConvGroup, inChansPerConvGroup, kernel...], output [B,
// outChans, outField...], biases [outChans]. Channel c of an input or an
// output belongs to conv group c / chansPerConvGroup.
//
// Options (all end the argument lists as `const poplar::OptionFlags &`):
//   availableMemoryProportion  fraction of a tile's memory the plan may use
//                              for its operands and partials [0.6]
//   partialsType               "half" or "float" [float]; partial sums are
//                              always accumulated in float
//   pass                       NONE, INFERENCE_FWD, TRAINING_FWD,
//                              TRAINING_BWD, TRAINING_WU, FC_INFERENCE_FWD,
//                              FC_TRAINING_FWD, FC_TRAINING_BWD,
//                              FC_TRAINING_WU [NONE]; validated, does not
//                              change the plan
//   tilesPerIPU                the tiles of each IPU to use [all]
//   partialsType.interIPU, partialsType.interTile
//                              "half" or "float"; validated, partials
//                              cross tiles in float
//   use128BitConvUnitLoad, enableMultiStageReduce, enableFastReduce,
//   remapOutputTensor, enableConvDithering
//                              true or false; validated, no effect here
// Any other option, or a bad value, is a poputil::poplibs_error naming it.
#ifndef POPLIN_CONVOLUTION_HPP
#define POPLIN_CONVOLUTION_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/poplin_export.hpp>

#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <tuple>

namespace poplin {

struct PlanningCacheImpl;

/// Remembers the convolution plans made for the parameters, options and
/// target it saw, so that creating operands and convolving plan once. Not
/// thread safe.
class POPLIN_API PlanningCache {
public:
  PlanningCache();
  ~PlanningCache();
  /// The number of plans held.
  std::size_t size() const;
  std::unique_ptr<PlanningCacheImpl> impl;
};

/// Multiply-adds of the forward pass, counted as two operations each (only
/// those with a non-padding input and kernel element).
POPLIN_API std::uint64_t getFwdFlops(const ConvParams &params);
/// The same for the input-gradient pass.
POPLIN_API std::uint64_t getBwdFlops(const ConvParams &params);
/// The same for the weight-update pass.
POPLIN_API std::uint64_t getWuFlops(const ConvParams &params);

/// The cycles of each pass if every tile's matrix unit were busy all the
/// time: flops / (2 * MACs per cycle per tile * tiles).
POPLIN_API double getFwdPerfectCycleCount(const poplar::Graph &graph,
                                          const ConvParams &params);
POPLIN_API double getBwdPerfectCycleCount(const poplar::Graph &graph,
                                          const ConvParams &params);
POPLIN_API double getWuPerfectCycleCount(const poplar::Graph &graph,
                                         const ConvParams &params);

/// Weights [convGroups, outChansPerConvGroup, inChansPerConvGroup,
/// kernel...] laid out for the plan of `params`.
POPLIN_API poplar::Tensor
createWeights(poplar::Graph &graph, const ConvParams &params,
              const poplar::DebugContext &debugContext = {},
              const poplar::OptionFlags &options = {},
              PlanningCache *cache = nullptr);

/// Biases [outChans] for the output `activations` ([B, outChans, ...]).
POPLIN_API poplar::Tensor
createBiases(poplar::Graph &graph, const poplar::Tensor &activations,
             const poplar::DebugContext &debugContext = {"biases"});

/// An input [B, inChans, field...] laid out for the plan of `params`.
POPLIN_API poplar::Tensor
createInput(poplar::Graph &graph, const ConvParams &params,
            const poplar::DebugContext &debugContext = {},
            const poplar::OptionFlags &options = {},
            PlanningCache *cache = nullptr);

/// An output [B, outChans, outField...] laid out as convolution() lays
/// out its result.
POPLIN_API poplar::Tensor
createConvOutput(poplar::Graph &graph, const ConvParams &params,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = {},
                 PlanningCache *cache = nullptr);

/// Convolves `in` ([B, inChans, field...]) with `weights` and returns the
/// output [B, outChans, outField...] of params.outputType.
///
/// With transposeAndFlipWeights, `weights` is [convGroups,
/// inChansPerConvGroup, outChansPerConvGroup, kernel...] (the weights of
/// the forward convolution this one is the input gradient of): each kernel
/// element is transposed in its channels and every spatial dimension is
/// reversed before params.kernelTransform applies. getGradientParams
/// (poplin/ConvUtil.hpp) gives the params of that pass.
POPLIN_API poplar::Tensor
convolution(poplar::Graph &graph, const poplar::Tensor &in,
            const poplar::Tensor &weights, const ConvParams &params,
            bool transposeAndFlipWeights, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext = {},
            const poplar::OptionFlags &options = {},
            PlanningCache *cache = nullptr);

/// What convolution() may do to each output once it is summed, as a layer
/// of an inference network does after its convolution: add its output
/// channel's bias, then clamp it to [lowerBound, upperBound] (a ReLU is 0
/// and +infinity). An extension of this SDK.
struct ConvEpilogue {
  /// [outChans] of params.outputType; an empty tensor adds none.
  poplar::Tensor biases;
  /// Whether the outputs are clamped.
  bool clamp = false;
  float lowerBound = 0.0f;
  float upperBound = 0.0f;
};

/// convolution() followed by `epilogue`: the output is that of
/// convolution(), addBias() with epilogue.biases and a popops Clamp
/// (minimum, then maximum: a NaN output stays NaN) bit for bit. The CPU
/// device applies it in the convolution's vertices as they store each FLOAT
/// output, while it is in cache, rather than reading and writing the whole
/// output again; elsewhere (and for HALF, padded outputs or NaN bounds) it
/// runs as those operations after the convolution.
POPLIN_API poplar::Tensor
convolution(poplar::Graph &graph, const poplar::Tensor &in,
            const poplar::Tensor &weights, const ConvParams &params,
            bool transposeAndFlipWeights, const ConvEpilogue &epilogue,
            poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext = {},
            const poplar::OptionFlags &options = {},
            PlanningCache *cache = nullptr);

/// The convolution of `in` and `weights` written into `out`
/// ([B, outChans, outField...] of params.outputType, laid out as the caller
/// chose, e.g. by createConvOutput).
POPLIN_API void convolutionWithOutput(
    poplar::Graph &graph, const poplar::Tensor &in,
    const poplar::Tensor &weights, const poplar::Tensor &out,
    const ConvParams &params, bool transposeAndFlipWeights,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

using ConvPlanParams = std::tuple<const poplar::Target *, const ConvParams,
                                  const poplar::OptionFlags *>;

/// Plans the given convolutions into `cache` ahead of graph construction.
POPLIN_API void preplanConvolutions(const std::set<ConvPlanParams> &convs,
                                    PlanningCache &cache);
POPLIN_API void preplanConvolutions(poplar::Graph &graph,
                                    const std::set<ConvPlanParams> &convs,
                                    PlanningCache &cache);

/// weightsOut[g][i][o][k...] = weightsIn[g][o][i][K - 1 - k...]: the
/// channels of each kernel element transposed and every spatial dimension
/// reversed.
POPLIN_API void weightsTransposeChansFlipXY(
    poplar::Graph &graph, const poplar::Tensor &weightsIn,
    const poplar::Tensor &weightsOut, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {});

/// The gradient of the loss with respect to the weights, [convGroups,
/// outChansPerConvGroup, inChansPerConvGroup, kernel...], from the output
/// gradient `zDeltas` and the forward input `activations`.
POPLIN_API poplar::Tensor
calculateWeightDeltas(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                      const poplar::Tensor &activations,
                      const ConvParams &params, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {},
                      PlanningCache *cache = nullptr);

/// weights += scale * calculateWeightDeltas(...); scale is a one-element
/// tensor or a float (a negative learning rate, usually).
POPLIN_API void convolutionWeightUpdate(
    poplar::Graph &graph, const poplar::Tensor &zDeltas,
    const poplar::Tensor &weights, const poplar::Tensor &activations,
    ConvParams params, const poplar::Tensor &scale,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
POPLIN_API void convolutionWeightUpdate(
    poplar::Graph &graph, const poplar::Tensor &zDeltas,
    const poplar::Tensor &weights, const poplar::Tensor &activations,
    ConvParams params, float scale, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// biases += scale * (zDeltas summed over every dimension but 1).
POPLIN_API void
convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                      const poplar::Tensor &biases, const poplar::Tensor &scale,
                      const poplar::OptionFlags &options,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});
POPLIN_API void
convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                      const poplar::Tensor &biases, float scale,
                      const poplar::OptionFlags &options,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// in[b][c][...] += biases[c], in place.
POPLIN_API void addBias(poplar::Graph &graph, const poplar::Tensor &in,
                        const poplar::Tensor &biases,
                        poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {});

/// Prints the plan of `params`: the splits, the blocks, the estimated
/// cycles of compute, exchange and reduction, and the bytes per tile.
POPLIN_API void reportPlanInfo(std::ostream &out, const poplar::Graph &graph,
                               const ConvParams &params,
                               const poplar::OptionFlags &options = {},
                               PlanningCache *cache = nullptr);

/// The estimated cycles of the forward pass's plan (compute, exchange and
/// reduction), as reportPlanInfo prints them.
POPLIN_API std::uint64_t
getFwdEstimatedCycles(const poplar::Graph &graph, const ConvParams &params,
                      const poplar::OptionFlags &options = {},
                      PlanningCache *cache = nullptr);

} // namespace poplin

#endif // POPLIN_CONVOLUTION_HPP
