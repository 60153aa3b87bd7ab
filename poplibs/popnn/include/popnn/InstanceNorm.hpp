// Instance normalisation of activations [batch][channels][field...]:
// one mean and inverse standard deviation per (batch element, channel), over the field (group norm with a group per channel).
// gamma and beta have one element per channel.
#ifndef POPNN_INSTANCENORM_HPP
#define POPNN_INSTANCENORM_HPP

#include <popnn/GroupNorm.hpp>
#include <popnn/popnn_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <utility>

namespace popnn {
namespace in {

/// (mean, inverse standard deviation), 1 / sqrt(variance + eps), of acts'
/// type. The variance is divided by n - 1 when unbiasedVarEstimate; with
/// stableAlgo it is the mean of the squared differences from the mean
/// (else the mean of squares less the squared mean). Sums are in FLOAT.
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> instanceNormStatistics(
    poplar::Graph &graph, const poplar::Tensor acts, float eps,
    poplar::program::Sequence &prog, bool unbiasedVarEstimate,
    bool stableAlgo = false, const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// (acts - mean) * invStdDev
POPNN_API poplar::Tensor instanceNormWhiten(
    poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
    const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// (whitened * gamma + beta, whitened)
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> instanceNormalise(
    poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma,
    const poplar::Tensor &beta, const poplar::Tensor &mean,
    const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// (gammaDelta, betaDelta): the gradients of gamma and beta, sums over
/// everything but the channels of gradsIn * whitened and of gradsIn.
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> instanceNormParamGradients(
    poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
    const poplar::Tensor &mean, const poplar::Tensor &iStdDev,
    poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
POPNN_API std::pair<poplar::Tensor, poplar::Tensor> instanceNormParamGradients(
    poplar::Graph &graph, const poplar::Tensor &actsWhitened,
    const poplar::Tensor &gradsIn, poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// The gradient with respect to acts through the whole layer, statistics
/// included (for statistics computed with unbiasedVarEstimate false).
POPNN_API poplar::Tensor instanceNormGradients(
    poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
    const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
    const poplar::Tensor &gamma, poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
POPNN_API poplar::Tensor instanceNormGradients(
    poplar::Graph &graph, const poplar::Tensor &actsWhitened,
    const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
    const poplar::Tensor &gamma, poplar::program::Sequence &prog,
    const poplar::Type &partialsType = poplar::FLOAT,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// gamma -= scale * gammaDelta; beta -= scale * betaDelta.
POPNN_API void instanceNormParamUpdate(
    poplar::Graph &graph, const poplar::Tensor &gammaDelta,
    const poplar::Tensor &betaDelta, float scale, poplar::Tensor &gamma,
    poplar::Tensor &beta, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
POPNN_API void instanceNormParamUpdate(
    poplar::Graph &graph, const poplar::Tensor &gammaDelta,
    const poplar::Tensor &betaDelta, const poplar::Tensor &scale,
    poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

} // namespace in
} // namespace popnn

#endif // POPNN_INSTANCENORM_HPP
