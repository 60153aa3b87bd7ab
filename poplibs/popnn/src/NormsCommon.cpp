#include "NormsCommon.hpp"

#include "TileWork.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/exceptions.hpp>

#include <numeric>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

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

// A per-channel tensor [C] broadcastable against acts [B][C][field...].
Tensor perChannel(const Tensor &param, const Tensor &acts, const std::string &what,
                  const std::string &opName) {
  if (param.rank() != 1 || param.dim(0) != acts.dim(1) ||
      param.elementType() != acts.elementType())
    throw poputil::poplibs_error(opName + ": " + what + " " + describe(param) +
                                 " must have one element per channel of acts " +
                                 describe(acts) + " and its type");
  std::vector<std::size_t> shape(acts.rank() - 1, 1);
  shape[0] = acts.dim(1);
  return param.reshape(shape);
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

Tensor castTo(Graph &graph, const Tensor &t, const Type &type, Sequence &prog,
              const DebugContext &dc) {
  return t.elementType() == type ? t : popops::cast(graph, t, type, prog, dc);
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
        throw poputil::poplibs_error(opName + ": option " + key +
                                     " must be true or false, not '" + value + "'");
      l.stridedGroups = value == "true";
    } else {
      throw poputil::poplibs_error(opName + ": unknown option '" + key + "'");
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
  const Tensor rows = toRows(acts, l);
  const std::size_t n = rows.dim(1);
  if (n == 0 || (unbiasedVarEstimate && n == 1))
    throw poputil::poplibs_error(l.opName + ": acts " + describe(acts) +
                                 " has too few elements per statistic");
  // Sums in FLOAT (HALF inputs are accumulated in float by popops anyway).
  const Tensor sum = popops::reduce(graph, rows, FLOAT, {1},
                                    {popops::Operation::ADD}, prog, {dc, "sum"});
  const float invN = 1.0f / float(n);
  const float varScale = unbiasedVarEstimate ? float(n) / float(n - 1) : 1.0f;
  Tensor mean = popops::map(graph, _1 * invN, {sum}, prog, {dc, "mean"});
  Tensor var;
  if (stableAlgo) {
    // The squares of the differences from the mean: no cancellation.
    const Tensor meanT = castTo(graph, mean, acts.elementType(), prog, {dc, "mean"});
    const Tensor centred = popops::sub(graph, rows, meanT.expand({1}), prog,
                                       {dc, "centred"});
    const Tensor sq = popops::reduce(graph, centred, FLOAT, {1},
                                     {popops::Operation::SQUARE_ADD}, prog,
                                     {dc, "sumSquares"});
    var = popops::map(graph, _1 * (invN * varScale), {sq}, prog, {dc, "var"});
  } else {
    const Tensor sq = popops::reduce(graph, rows, FLOAT, {1},
                                     {popops::Operation::SQUARE_ADD}, prog,
                                     {dc, "sumSquares"});
    var = popops::map(graph, Max(_1 * invN - _2 * _2, Const(0.0f)) * varScale,
                      {sq, mean}, prog, {dc, "var"});
  }
  Tensor invStdDev = popops::map(graph, Rsqrt(_1 + Const(eps)), {var}, prog,
                                 {dc, "invStdDev"});
  return {castTo(graph, mean, acts.elementType(), prog, {dc, "mean"}),
          castTo(graph, invStdDev, acts.elementType(), prog, {dc, "invStdDev"})};
}

Tensor normWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                  const Tensor &invStdDev, Sequence &prog, const NormLayout &l,
                  const DebugContext &dc) {
  checkActs(acts, l.opName);
  checkStats(mean, acts, l, "mean");
  checkStats(invStdDev, acts, l, "invStdDev");
  const Tensor rows = toRows(acts, l);
  const Tensor whitened =
      popops::map(graph, (_1 - Cast(_2, acts.elementType())) *
                             Cast(_3, acts.elementType()),
                  {rows, mean.expand({1}), invStdDev.expand({1})}, prog,
                  {dc, "whiten"});
  return fromRows(whitened, acts, l);
}

Tensor scaleAndShift(Graph &graph, const Tensor &acts, const Tensor &multiplicand,
                     const Tensor &addend, Sequence &prog,
                     const std::string &opName, const DebugContext &dc) {
  checkActs(acts, opName);
  return popops::map(graph, _1 * _2 + _3,
                     {acts, perChannel(multiplicand, acts, "multiplicand", opName),
                      perChannel(addend, acts, "addend", opName)},
                     prog, {dc, "scaleAndShift"});
}

std::pair<Tensor, Tensor> normalise(Graph &graph, const Tensor &acts,
                                    const Tensor &gamma, const Tensor &beta,
                                    const Tensor &mean, const Tensor &invStdDev,
                                    Sequence &prog, const NormLayout &l,
                                    const DebugContext &dc) {
  checkActs(acts, l.opName);
  perChannel(gamma, acts, "gamma", l.opName);
  perChannel(beta, acts, "beta", l.opName);
  const Tensor whitened = normWhiten(graph, acts, mean, invStdDev, prog, l, dc);
  const Tensor out =
      scaleAndShift(graph, whitened, gamma, beta, prog, l.opName, dc);
  return {out, whitened};
}

std::pair<Tensor, Tensor>
normParamGradients(Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                   Sequence &prog, const Type &partialsType,
                   const std::string &opName, const DebugContext &dc) {
  checkActs(actsWhitened, opName);
  checkSameShape(actsWhitened, "acts", gradsIn, "gradsIn", opName);
  std::vector<std::size_t> dims(actsWhitened.rank());
  std::iota(dims.begin(), dims.end(), 0);
  dims.erase(dims.begin() + 1); // all but the channels
  const Tensor product = popops::mul(graph, gradsIn, actsWhitened, prog,
                                     {dc, "gradsIn*whitened"});
  const Type type = actsWhitened.elementType();
  Tensor gammaDelta = popops::reduce(graph, product, type, dims,
                                     {popops::Operation::ADD}, prog,
                                     {dc, "gammaDelta"});
  Tensor betaDelta = popops::reduce(graph, gradsIn, type, dims,
                                    {popops::Operation::ADD}, prog,
                                    {dc, "betaDelta"});
  return {gammaDelta, betaDelta};
}

Tensor normGradients(Graph &graph, const Tensor &actsWhitened,
                     const Tensor &gradsIn, const Tensor &invStdDev,
                     const Tensor &gamma, Sequence &prog, const Type &partialsType,
                     const NormLayout &l, const DebugContext &dc) {
  checkActs(actsWhitened, l.opName);
  checkSameShape(actsWhitened, "actsWhitened", gradsIn, "gradsIn", l.opName);
  checkStats(invStdDev, actsWhitened, l, "invStdDev");
  const Tensor gammaB = perChannel(gamma, actsWhitened, "gamma", l.opName);
  const Type type = actsWhitened.elementType();
  const Tensor g = popops::mul(graph, gradsIn, gammaB, prog, {dc, "gamma*grads"});
  const Tensor gRows = toRows(g, l), xRows = toRows(actsWhitened, l);
  const float invN = 1.0f / float(std::max<std::size_t>(1, gRows.dim(1)));
  const Tensor sumG = popops::reduce(graph, gRows, FLOAT, {1},
                                     {popops::Operation::ADD}, prog, {dc, "sumG"});
  const Tensor gx = popops::mul(graph, gRows, xRows, prog, {dc, "g*x"});
  const Tensor sumGX = popops::reduce(graph, gx, FLOAT, {1},
                                      {popops::Operation::ADD}, prog,
                                      {dc, "sumGX"});
  const Tensor dx = popops::map(
      graph,
      Cast((Cast(_1, FLOAT) - _2 * invN - Cast(_3, FLOAT) * (_4 * invN)) *
               Cast(_5, FLOAT),
           type),
      {gRows, sumG.expand({1}), xRows, sumGX.expand({1}), invStdDev.expand({1})},
      prog, {dc, "inGradient"});
  return fromRows(dx, actsWhitened, l);
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
