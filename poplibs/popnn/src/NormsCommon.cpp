#include "NormsCommon.hpp"

#include "TileWork.hpp"

#include <poplin/Norms.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;

namespace popnn {
namespace detail {
namespace {

void checkActs(const Tensor &acts, const std::string &opName) {
  checkFloatingPoint(acts, opName, "acts");
  if (acts.rank() < 2)
    throw poputil::poplibs_error(opName + ": acts " + describe(acts) +
                                 " must have at least two dimensions "
                                 "([batch][channels][field...])");
}

std::size_t fieldSize(const Tensor &acts) {
  return acts.numElements() / std::max<std::size_t>(1, acts.dim(0) * acts.dim(1));
}

// acts as [statistics][elements per statistic].
Tensor toRows(const Tensor &acts, const NormLayout &l) {
  const std::size_t B = acts.dim(0), C = acts.dim(1), F = fieldSize(acts);
  const Tensor t = acts.reshape({B, C, F});
  if (l.perChannel)
    return t.dimShuffle({1, 0, 2}).reshape({C, B * F});
  const std::size_t G = l.numGroups, perGroup = C / G;
  if (l.stridedGroups)
    return t.reshape({B, perGroup, G, F}).dimShuffle({0, 2, 1, 3})
        .reshape({B * G, perGroup * F});
  return t.reshape({B * G, perGroup * F});
}

// The inverse of toRows, for a tensor shaped like toRows(acts).
Tensor fromRows(const Tensor &rows, const Tensor &acts, const NormLayout &l) {
  const std::size_t B = acts.dim(0), C = acts.dim(1), F = fieldSize(acts);
  Tensor t;
  if (l.perChannel) {
    t = rows.reshape({C, B, F}).dimShuffle({1, 0, 2});
  } else {
    const std::size_t G = l.numGroups, perGroup = C / G;
    t = l.stridedGroups ? rows.reshape({B, G, perGroup, F})
                              .dimShuffle({0, 2, 1, 3})
                        : rows.reshape({B, C, F});
  }
  return t.reshape(acts.shape());
}

// acts as poplin's [N][C][field] with a channel per statistic: acts
// itself for batch norm, [1][statistics][elements] for group norms.
Tensor channelsView(const Tensor &acts, const NormLayout &l) {
  return l.perChannel ? acts : toRows(acts, l).expand({0});
}

Tensor fromChannelsView(const Tensor &view, const Tensor &acts,
                        const NormLayout &l) {
  return l.perChannel ? view : fromRows(view[0], acts, l);
}

void checkPerChannel(const Tensor &param, const Tensor &acts,
                     const std::string &what, const std::string &opName) {
  if (param.rank() != 1 || param.dim(0) != acts.dim(1) ||
      param.elementType() != acts.elementType())
    throw poputil::poplibs_error(opName + ": " + what + " " + describe(param) +
                                 " must have one element per channel of acts " +
                                 describe(acts) + " and its type");
}

void checkStats(const Tensor &stat, const Tensor &acts, const NormLayout &l,
                const std::string &what) {
  const std::size_t want = l.perChannel ? acts.dim(1) : acts.dim(0) * l.numGroups;
  if (stat.rank() != 1 || stat.dim(0) != want)
    throw poputil::poplibs_error(l.opName + ": " + what + " " + describe(stat) +
                                 " must have " + std::to_string(want) +
                                 " elements, one per statistic of acts " +
                                 describe(acts));
}

} // namespace

NormLayout batchLayout(const std::string &opName) {
  NormLayout l;
  l.opName = opName;
  return l;
}

NormLayout groupLayout(const Tensor &acts, std::size_t numGroups,
                       const Tensor *stats, const OptionFlags &options,
                       const std::string &opName) {
  checkActs(acts, opName);
  NormLayout l;
  l.perChannel = false;
  l.opName = opName;
  for (const auto &[key, value] : options) {
    if (key == "groupNormStridedChannelGrouping") {
      if (value != "true" && value != "false")
        throw poplar::invalid_option(opName + ": option " + key +
                                     " must be true or false, not '" + value + "'");
      l.stridedGroups = value == "true";
    } else {
      throw poplar::invalid_option(opName + ": unknown option '" + key + "'");
    }
  }
  if (numGroups == 0 && stats != nullptr && acts.dim(0) != 0)
    numGroups = stats->numElements() / acts.dim(0);
  if (numGroups == 0 || acts.dim(1) % numGroups != 0)
    throw poputil::poplibs_error(opName + ": " + std::to_string(numGroups) +
                                 " groups do not divide the channels of acts " +
                                 describe(acts));
  l.numGroups = numGroups;
  return l;
}

std::pair<Tensor, Tensor> normStatistics(Graph &graph, const Tensor &acts,
                                         float eps, Sequence &prog,
                                         bool unbiasedVarEstimate, bool stableAlgo,
                                         const Type &partialsType,
                                         const NormLayout &l,
                                         const DebugContext &dc) {
  checkActs(acts, l.opName);
  if (partialsType != FLOAT && partialsType != HALF)
    throw poputil::poplibs_error(l.opName + ": partialsType must be FLOAT or HALF");
  const Tensor view = channelsView(acts, l);
  const std::size_t n = view.numElements() / std::max<std::size_t>(1, view.dim(1));
  if (n == 0 || (unbiasedVarEstimate && n == 1))
    throw poputil::poplibs_error(l.opName + ": acts " + describe(acts) +
                                 " has too few elements per statistic");
  return poplin::normStatistics(graph, view, eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, dc);
}

Tensor normWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                  const Tensor &invStdDev, Sequence &prog, const NormLayout &l,
                  const DebugContext &dc) {
  checkActs(acts, l.opName);
  checkStats(mean, acts, l, "mean");
  checkStats(invStdDev, acts, l, "invStdDev");
  return fromChannelsView(poplin::normWhiten(graph, channelsView(acts, l), mean,
                                             invStdDev, prog, dc),
                          acts, l);
}

Tensor scaleAndShift(Graph &graph, const Tensor &acts, const Tensor &multiplicand,
                     const Tensor &addend, Sequence &prog,
                     const std::string &opName, const DebugContext &dc) {
  checkActs(acts, opName);
  checkPerChannel(multiplicand, acts, "multiplicand", opName);
  checkPerChannel(addend, acts, "addend", opName);
  return poplin::normalise(graph, acts, multiplicand, addend, prog, dc);
}

std::pair<Tensor, Tensor> normalise(Graph &graph, const Tensor &acts,
                                    const Tensor &gamma, const Tensor &beta,
                                    const Tensor &mean, const Tensor &invStdDev,
                                    Sequence &prog, const NormLayout &l,
                                    const DebugContext &dc) {
  checkActs(acts, l.opName);
  checkPerChannel(gamma, acts, "gamma", l.opName);
  checkPerChannel(beta, acts, "beta", l.opName);
  const Tensor whitened = normWhiten(graph, acts, mean, invStdDev, prog, l, dc);
  return {poplin::normalise(graph, whitened, gamma, beta, prog, dc), whitened};
}

std::pair<Tensor, Tensor>
normParamGradients(Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                   Sequence &prog, const Type &partialsType,
                   const std::string &opName, const DebugContext &dc) {
  checkActs(actsWhitened, opName);
  checkSameShape(actsWhitened, "acts", gradsIn, "gradsIn", opName);
  return poplin::normParamGradients(graph, actsWhitened, gradsIn, prog,
                                    partialsType, dc);
}

Tensor normGradients(Graph &graph, const Tensor &actsWhitened,
                     const Tensor &gradsIn, const Tensor &invStdDev,
                     const Tensor &gamma, Sequence &prog, const Type &partialsType,
                     const NormLayout &l, const DebugContext &dc) {
  checkActs(actsWhitened, l.opName);
  checkSameShape(actsWhitened, "actsWhitened", gradsIn, "gradsIn", l.opName);
  checkStats(invStdDev, actsWhitened, l, "invStdDev");
  checkPerChannel(gamma, actsWhitened, "gamma", l.opName);
  // The gradient at the whitened activations, then through the statistics
  // of each group (channels of the view).
  const Tensor g = poplin::normGradients(graph, gradsIn, gamma, prog, dc);
  return fromChannelsView(
      poplin::normStatisticsGradients(graph, channelsView(actsWhitened, l),
                                      channelsView(g, l), invStdDev, prog,
                                      partialsType, dc),
      actsWhitened, l);
}

void normParamUpdate(Graph &graph, const Tensor &gammaDelta,
                     const Tensor &betaDelta, const Tensor *scaleTensor,
                     float scale, Tensor &gamma, Tensor &beta, Sequence &prog,
                     const std::string &opName, const DebugContext &dc) {
  checkSameShape(gamma, "gamma", gammaDelta, "gammaDelta", opName);
  checkSameShape(beta, "beta", betaDelta, "betaDelta", opName);
  if (scaleTensor) {
    popops::scaledSubtractFrom(graph, gamma, gammaDelta, *scaleTensor, prog,
                               {dc, "gamma"});
    popops::scaledSubtractFrom(graph, beta, betaDelta, *scaleTensor, prog,
                               {dc, "beta"});
  } else {
    popops::scaledSubtractFrom(graph, gamma, gammaDelta, scale, prog,
                               {dc, "gamma"});
    popops::scaledSubtractFrom(graph, beta, betaDelta, scale, prog,
                               {dc, "beta"});
  }
}

} // namespace detail
} // namespace popnn
