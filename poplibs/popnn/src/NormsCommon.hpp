// What batch, group, layer and instance normalisation share. Each sees
// the activations [batch][channels][field...] as rows, one per statistic
// (a mean and an inverse standard deviation):
//   batch norm:    one row per channel, over the batch and the field;
//   group norm:    one row per (batch element, group), over the group's
//                  channels and the field (layer norm: one group;
//                  instance norm: a group per channel).
// gamma and beta are per channel for all of them. The computations are
// poplin's (poplin/Norms.hpp), on a view of the activations whose channels
// are the rows; these functions check the operands in popnn's terms.
#ifndef POPNN_SRC_NORMSCOMMON_HPP
#define POPNN_SRC_NORMSCOMMON_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <string>
#include <utility>

namespace popnn {
namespace detail {

struct NormLayout {
  bool perChannel = true; // batch norm; else groups per batch element
  std::size_t numGroups = 1;
  bool stridedGroups = true; // channel c in group c % numGroups
  std::string opName;        // for messages, e.g. "popnn::gn::groupNormWhiten"
};

/// The layout of group norm, numGroups given or, when 0, read from the
/// statistics (stats.numElements() / batch); the option
/// groupNormStridedChannelGrouping (true, false) [=true] chooses whether
/// channel c is in group c % numGroups (true) or c / (channels / numGroups).
NormLayout groupLayout(const poplar::Tensor &acts, std::size_t numGroups,
                       const poplar::Tensor *stats,
                       const poplar::OptionFlags &options,
                       const std::string &opName);
NormLayout batchLayout(const std::string &opName);

std::pair<poplar::Tensor, poplar::Tensor>
normStatistics(poplar::Graph &graph, const poplar::Tensor &acts, float eps,
               poplar::program::Sequence &prog, bool unbiasedVarEstimate,
               bool stableAlgo, const poplar::Type &partialsType,
               const NormLayout &layout, const poplar::DebugContext &dc);

poplar::Tensor normWhiten(poplar::Graph &graph, const poplar::Tensor &acts,
                          const poplar::Tensor &mean,
                          const poplar::Tensor &invStdDev,
                          poplar::program::Sequence &prog,
                          const NormLayout &layout,
                          const poplar::DebugContext &dc);

/// (whitened * gamma + beta, whitened)
std::pair<poplar::Tensor, poplar::Tensor>
normalise(poplar::Graph &graph, const poplar::Tensor &acts,
          const poplar::Tensor &gamma, const poplar::Tensor &beta,
          const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
          poplar::program::Sequence &prog, const NormLayout &layout,
          const poplar::DebugContext &dc);

/// acts * multiplicand + addend, both per channel.
poplar::Tensor scaleAndShift(poplar::Graph &graph, const poplar::Tensor &acts,
                             const poplar::Tensor &multiplicand,
                             const poplar::Tensor &addend,
                             poplar::program::Sequence &prog,
                             const std::string &opName,
                             const poplar::DebugContext &dc);

/// (gammaDelta, betaDelta) = (sum of gradsIn * whitened, sum of gradsIn)
/// over everything but the channel dimension.
std::pair<poplar::Tensor, poplar::Tensor>
normParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                   const poplar::Tensor &gradsIn,
                   poplar::program::Sequence &prog,
                   const poplar::Type &partialsType, const std::string &opName,
                   const poplar::DebugContext &dc);

/// The gradient with respect to the activations through the whole layer
/// (statistics included):
///   dx = invStdDev * (g' - mean(g') - whitened * mean(g' * whitened)),
/// g' = gamma * gradsIn, the means over each statistic's row.
poplar::Tensor normGradients(poplar::Graph &graph,
                             const poplar::Tensor &actsWhitened,
                             const poplar::Tensor &gradsIn,
                             const poplar::Tensor &invStdDev,
                             const poplar::Tensor &gamma,
                             poplar::program::Sequence &prog,
                             const poplar::Type &partialsType,
                             const NormLayout &layout,
                             const poplar::DebugContext &dc);

/// gamma -= scale * gammaDelta; beta -= scale * betaDelta.
void normParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta,
                     const poplar::Tensor &betaDelta,
                     const poplar::Tensor *scaleTensor, float scale,
                     poplar::Tensor &gamma, poplar::Tensor &beta,
                     poplar::program::Sequence &prog, const std::string &opName,
                     const poplar::DebugContext &dc);

} // namespace detail
} // namespace popnn

#endif // POPNN_SRC_NORMSCOMMON_HPP
