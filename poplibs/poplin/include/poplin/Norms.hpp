// Normalisation over the channels of activations [N][C][field...]: the
// statistics of each channel (over the batch and the field), whitening with
// them, the per-channel scale and shift, and the gradients of each. popnn's
// batch, group, layer and instance norms are built on these (group norms
// see their groups as the channels of a view of the activations).
// The distributed forms normalise over a batch spread across replicas,
// a callback adding the partial results of a group of replicas.
#ifndef POPLIN_NORMS_HPP
#define POPLIN_NORMS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/poplin_export.hpp>

#include <functional>
#include <tuple>
#include <utility>
#include <vector>

namespace poplin {

/// A per-channel parameter ([C], C = acts.dim(1)) of the given type (or that
/// of acts), mapped over the tiles, for scaling the normalised activations.
POPLIN_API poplar::Tensor
createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                const poplar::Type &type,
                const poplar::DebugContext &debugContext = {});
POPLIN_API poplar::Tensor
createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                const poplar::DebugContext &debugContext = {});

/// A per-channel parameter for shifting the normalised activations.
POPLIN_API poplar::Tensor
createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
               const poplar::Type &type,
               const poplar::DebugContext &debugContext = {});
POPLIN_API poplar::Tensor
createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
               const poplar::DebugContext &debugContext = {});

/// (gamma, beta), of the type of acts.
POPLIN_API std::pair<poplar::Tensor, poplar::Tensor>
createNormParams(poplar::Graph &graph, const poplar::Tensor &acts,
                 const poplar::DebugContext &debugContext = {});

/// The mean and inverse standard deviation 1 / sqrt(var + eps) of each
/// channel of actsUngrouped ([N][C][field...], FLOAT or HALF), over the batch
/// and the field: two tensors of C elements of the type of the activations.
/// The variance is the unbiased estimate when unbiasedVarEstimate; with
/// stableAlgo it is summed from the differences from the mean (slower, no
/// cancellation) rather than from the squares. Sums are made in FLOAT.
POPLIN_API std::pair<poplar::Tensor, poplar::Tensor>
normStatistics(poplar::Graph &graph, const poplar::Tensor &actsUngrouped,
               float eps, poplar::program::Sequence &prog,
               bool unbiasedVarEstimate, bool stableAlgo = false,
               const poplar::Type &partialsType = poplar::FLOAT,
               const poplar::DebugContext &debugContext = {});

/// Adds up (reduce-add) each of inputsToReduce over the groups of groupSize
/// adjacent replicas of the replicated graph, returning the sums in the same
/// order.
using DistributedNormReduceCallback = std::function<std::vector<poplar::Tensor>(
    poplar::Graph &replicatedGraph,
    const std::vector<poplar::Tensor> &inputsToReduce,
    poplar::program::Sequence &prog, unsigned groupSize,
    const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options)>;

/// normStatistics over normSize batch elements of which each replica holds
/// actsUngrouped.dim(0). When normSize is larger, the partial statistics
/// (scaled for the whole group) go through allReduceCallback with a group
/// size of normSize / actsUngrouped.dim(0), which must be whole.
POPLIN_API std::pair<poplar::Tensor, poplar::Tensor> distributedNormStatistics(
    poplar::Graph &replicatedGraph, const poplar::Tensor &actsUngrouped,
    float eps, poplar::program::Sequence &prog, bool unbiasedVarEstimate,
    DistributedNormReduceCallback allReduceCallback, unsigned normSize,
    bool stableAlgo = false, const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {});

/// (acts - mean) * iStdDev, channel by channel.
POPLIN_API poplar::Tensor
normWhiten(poplar::Graph &graph, const poplar::Tensor &acts,
           const poplar::Tensor &mean, const poplar::Tensor &iStdDev,
           poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext = {});

/// actsWhitened * gamma + beta, channel by channel.
POPLIN_API poplar::Tensor
normalise(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
          const poplar::Tensor &gamma, const poplar::Tensor &beta,
          poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {});

/// The gradients of gamma and beta, (gammaDelta, betaDelta): the sums over
/// all but the channels of gradsIn * actsWhitened and of gradsIn.
POPLIN_API std::pair<poplar::Tensor, poplar::Tensor>
normParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                   const poplar::Tensor &gradsIn,
                   poplar::program::Sequence &prog,
                   const poplar::Type &partialsType = poplar::FLOAT,
                   const poplar::DebugContext &debugContext = {});

/// The gradient at the whitened activations: gradsIn * gamma, channel by
/// channel.
POPLIN_API poplar::Tensor
normGradients(poplar::Graph &graph, const poplar::Tensor &gradsIn,
              const poplar::Tensor &gamma, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext = {});

/// The gradient at the activations from that at the whitened activations
/// (gradsIn) through the statistics:
///   invStdDev * (gradsIn - mean(gradsIn) - actsWhitened *
///                mean(gradsIn * actsWhitened))
/// the means over all but the channels.
POPLIN_API poplar::Tensor normStatisticsGradients(
    poplar::Graph &graph, const poplar::Tensor &actsWhitened,
    const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
    poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {});

/// normStatisticsGradients over normSize batch elements spread across
/// replicas, the two means added up over each group by reduceCallback (as
/// distributedNormStatistics).
POPLIN_API poplar::Tensor distributedNormStatisticsGradients(
    poplar::Graph &replicatedGraph, const poplar::Tensor &actsWhitened,
    const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
    poplar::program::Sequence &prog,
    poplin::DistributedNormReduceCallback reduceCallback, unsigned normSize,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {});

} // namespace poplin

#endif // POPLIN_NORMS_HPP
