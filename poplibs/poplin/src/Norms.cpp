// poplin's normalisation over channels, with popops' reductions and maps.
// The activations [N][C][field...] are seen as [N][C][F]; each channel's
// statistic is over dimensions 0 and 2. Sums are made in FLOAT.
#include <poplin/Norms.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <string>

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;

namespace poplin {
namespace {

std::string describe(const Tensor &t) {
  std::string s = "'" + t.getDebugStr() + "' [";
  for (std::size_t i = 0; i != t.rank(); ++i)
    s += (i ? "," : "") + std::to_string(t.dim(i));
  return s + "]";
}

[[noreturn]] void fail(const std::string &op, const std::string &why) {
  throw poputil::poplibs_error("poplin::" + op + ": " + why);
}

void checkActs(const Tensor &acts, const std::string &what,
               const std::string &op) {
  if (!acts.valid())
    fail(op, what + " is not a valid tensor");
  if (acts.rank() < 2)
    fail(op, what + " " + describe(acts) +
                 " must have at least two dimensions ([N][C][field...])");
  if (acts.elementType() != FLOAT && acts.elementType() != HALF)
    fail(op, what + " " + describe(acts) + " must be FLOAT or HALF, not " +
                 acts.elementType().toString().str());
}

void checkPartials(const Type &partialsType, const std::string &op) {
  if (partialsType != FLOAT && partialsType != HALF)
    fail(op, "partialsType must be FLOAT or HALF, not " +
                 partialsType.toString().str());
}

void checkSameShape(const Tensor &a, const std::string &aName, const Tensor &b,
                    const std::string &bName, const std::string &op) {
  if (!b.valid() || a.shape() != b.shape())
    fail(op, bName + " " + (b.valid() ? describe(b) : "(invalid)") +
                 " must have the shape of " + aName + " " + describe(a));
}

// A [C] tensor of acts' channels as [1][C][1...] to broadcast against acts.
Tensor perChannel(const Tensor &t, const Tensor &acts, const std::string &what,
                  const std::string &op) {
  if (!t.valid() || t.rank() != 1 || t.dim(0) != acts.dim(1))
    fail(op, what + " " + (t.valid() ? describe(t) : "(invalid)") +
                 " must have one element per channel of " + describe(acts));
  std::vector<std::size_t> shape(acts.rank(), 1);
  shape[1] = acts.dim(1);
  return t.reshape(shape);
}

Tensor asNCF(const Tensor &acts) {
  const std::size_t N = acts.dim(0), C = acts.dim(1);
  const std::size_t F = N * C == 0 ? 0 : acts.numElements() / (N * C);
  return acts.reshape({N, C, F});
}

Tensor castTo(Graph &graph, const Tensor &t, const Type &type, Sequence &prog,
              const DebugContext &dc) {
  return t.elementType() == type ? t : popops::cast(graph, t, type, prog, dc);
}

// Per-channel sums of acts (op ADD or SQUARE_ADD), in FLOAT, times scale.
Tensor channelSums(Graph &graph, const Tensor &acts, popops::Operation op,
                   float scale, Sequence &prog, const DebugContext &dc) {
  const Tensor sums = popops::reduce(graph, asNCF(acts), FLOAT, {0, 2}, {op},
                                     prog, dc);
  return scale == 1.0f ? sums
                       : popops::map(graph, _1 * Const(scale), {sums}, prog, dc);
}

// When a callback adds up a group's partial results, and over how many
// replicas: 1 when there is nothing to add up.
unsigned replicaGroup(std::size_t replicaBatch, unsigned normSize,
                      const DistributedNormReduceCallback &callback,
                      const std::string &op) {
  if (!callback || normSize <= replicaBatch || replicaBatch == 0)
    return 1;
  if (normSize % replicaBatch != 0)
    fail(op, "normSize " + std::to_string(normSize) +
                 " must be a whole multiple of the batch of each replica (" +
                 std::to_string(replicaBatch) + ")");
  return unsigned(normSize / replicaBatch);
}

std::vector<Tensor> reduceGroup(Graph &graph,
                                const DistributedNormReduceCallback &callback,
                                unsigned group, std::vector<Tensor> partials,
                                Sequence &prog, const DebugContext &dc,
                                const std::string &op) {
  if (group == 1)
    return partials;
  std::vector<Tensor> sums = callback(graph, partials, prog, group, dc, {});
  if (sums.size() != partials.size())
    fail(op, "the reduce callback returned " + std::to_string(sums.size()) +
                 " tensors for " + std::to_string(partials.size()));
  for (std::size_t i = 0; i != sums.size(); ++i)
    checkSameShape(partials[i], "its input", sums[i],
                   "the reduce callback's result", op);
  return sums;
}

std::pair<Tensor, Tensor>
statistics(Graph &graph, const Tensor &acts, float eps, Sequence &prog,
           bool unbiasedVarEstimate, bool stableAlgo, const Type &partialsType,
           const DistributedNormReduceCallback &callback, unsigned normSize,
           const std::string &op, const DebugContext &dc) {
  checkActs(acts, "acts", op);
  checkPartials(partialsType, op);
  const unsigned group = replicaGroup(acts.dim(0), normSize, callback, op);
  const std::size_t perChannelCount =
      acts.dim(1) == 0 ? 0 : acts.numElements() / acts.dim(1);
  const std::size_t n = perChannelCount * group;
  if (n == 0 || (unbiasedVarEstimate && n == 1))
    fail(op, "acts " + describe(acts) + " has too few elements per channel (" +
                 std::to_string(n) + ") for its statistics");
  const float invN = 1.0f / float(n);
  const float varScale = unbiasedVarEstimate ? float(n) / float(n - 1) : 1.0f;
  Tensor mean, var;
  if (stableAlgo) {
    mean = reduceGroup(graph, callback, group,
                       {channelSums(graph, acts, popops::Operation::ADD, invN,
                                    prog, {dc, "mean"})},
                       prog, {dc, "mean"}, op)[0];
    const Tensor meanT = castTo(graph, mean, acts.elementType(), prog, {dc});
    const Tensor centred =
        popops::sub(graph, acts, perChannel(meanT, acts, "mean", op), prog,
                    {dc, "centred"});
    const Tensor sq = reduceGroup(
        graph, callback, group,
        {channelSums(graph, centred, popops::Operation::SQUARE_ADD, invN, prog,
                     {dc, "sumSquares"})},
        prog, {dc, "variance"}, op)[0];
    var = popops::map(graph, _1 * varScale, {sq}, prog, {dc, "var"});
  } else {
    const auto sums = reduceGroup(
        graph, callback, group,
        {channelSums(graph, acts, popops::Operation::ADD, invN, prog,
                     {dc, "mean"}),
         channelSums(graph, acts, popops::Operation::SQUARE_ADD, invN, prog,
                     {dc, "meanSquares"})},
        prog, {dc, "moments"}, op);
    mean = sums[0];
    var = popops::map(graph, Max(_1 - _2 * _2, Const(0.0f)) * varScale,
                      {sums[1], mean}, prog, {dc, "var"});
  }
  const Tensor invStdDev = popops::map(graph, Rsqrt(_1 + Const(eps)), {var},
                                       prog, {dc, "invStdDev"});
  return {castTo(graph, mean, acts.elementType(), prog, {dc, "mean"}),
          castTo(graph, invStdDev, acts.elementType(), prog, {dc, "invStdDev"})};
}

Tensor statisticsGradients(Graph &graph, const Tensor &actsWhitened,
                           const Tensor &gradsIn, const Tensor &invStdDev,
                           Sequence &prog, const Type &partialsType,
                           const DistributedNormReduceCallback &callback,
                           unsigned normSize, const std::string &op,
                           const DebugContext &dc) {
  checkActs(actsWhitened, "actsWhitened", op);
  checkPartials(partialsType, op);
  checkSameShape(actsWhitened, "actsWhitened", gradsIn, "gradsIn", op);
  const Tensor invStdB = perChannel(invStdDev, actsWhitened, "invStdDev", op);
  const unsigned group = replicaGroup(actsWhitened.dim(0), normSize, callback, op);
  const std::size_t perChannelCount =
      actsWhitened.dim(1) == 0 ? 0 : actsWhitened.numElements() / actsWhitened.dim(1);
  const float invN = 1.0f / float(std::max<std::size_t>(1, perChannelCount * group));
  const Tensor gx = popops::mul(graph, gradsIn, actsWhitened, prog, {dc, "g*x"});
  const auto means = reduceGroup(
      graph, callback, group,
      {channelSums(graph, gradsIn, popops::Operation::ADD, invN, prog,
                   {dc, "meanG"}),
       channelSums(graph, gx, popops::Operation::ADD, invN, prog,
                   {dc, "meanGX"})},
      prog, {dc, "means"}, op);
  const Tensor meanG = perChannel(means[0], actsWhitened, "mean", op);
  const Tensor meanGX = perChannel(means[1], actsWhitened, "mean", op);
  return popops::map(graph,
                     Cast((Cast(_1, FLOAT) - _2 - Cast(_3, FLOAT) * _4) *
                              Cast(_5, FLOAT),
                          actsWhitened.elementType()),
                     {gradsIn, meanG, actsWhitened, meanGX, invStdB}, prog,
                     {dc, "inGradient"});
}

Tensor createPerChannel(Graph &graph, const Tensor &acts, const Type &type,
                        const DebugContext &dc, const std::string &op) {
  if (!acts.valid() || acts.rank() < 2)
    fail(op, "acts " + (acts.valid() ? describe(acts) : std::string("(invalid)")) +
                 " must have at least two dimensions ([N][C][field...])");
  Tensor t = graph.addVariable(type, {acts.dim(1)}, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

} // namespace

Tensor createNormGamma(Graph &graph, const Tensor &acts, const Type &type,
                       const DebugContext &debugContext) {
  return createPerChannel(graph, acts, type, {debugContext, "gamma"},
                          "createNormGamma");
}

Tensor createNormGamma(Graph &graph, const Tensor &acts,
                       const DebugContext &debugContext) {
  return createNormGamma(graph, acts, acts.elementType(), debugContext);
}

Tensor createNormBeta(Graph &graph, const Tensor &acts, const Type &type,
                      const DebugContext &debugContext) {
  return createPerChannel(graph, acts, type, {debugContext, "beta"},
                          "createNormBeta");
}

Tensor createNormBeta(Graph &graph, const Tensor &acts,
                      const DebugContext &debugContext) {
  return createNormBeta(graph, acts, acts.elementType(), debugContext);
}

std::pair<Tensor, Tensor> createNormParams(Graph &graph, const Tensor &acts,
                                           const DebugContext &debugContext) {
  return {createNormGamma(graph, acts, debugContext),
          createNormBeta(graph, acts, debugContext)};
}

std::pair<Tensor, Tensor>
normStatistics(Graph &graph, const Tensor &actsUngrouped, float eps,
               Sequence &prog, bool unbiasedVarEstimate, bool stableAlgo,
               const Type &partialsType, const DebugContext &debugContext) {
  return statistics(graph, actsUngrouped, eps, prog, unbiasedVarEstimate,
                    stableAlgo, partialsType, nullptr, 0, "normStatistics",
                    {debugContext, "normStatistics"});
}

std::pair<Tensor, Tensor> distributedNormStatistics(
    Graph &replicatedGraph, const Tensor &actsUngrouped, float eps,
    Sequence &prog, bool unbiasedVarEstimate,
    DistributedNormReduceCallback allReduceCallback, unsigned normSize,
    bool stableAlgo, const Type &partialsType,
    const DebugContext &debugContext) {
  return statistics(replicatedGraph, actsUngrouped, eps, prog,
                    unbiasedVarEstimate, stableAlgo, partialsType,
                    allReduceCallback, normSize, "distributedNormStatistics",
                    {debugContext, "distributedNormStatistics"});
}

Tensor normWhiten(Graph &graph, const Tensor &acts, const Tensor &mean,
                  const Tensor &iStdDev, Sequence &prog,
                  const DebugContext &debugContext) {
  const std::string op = "normWhiten";
  checkActs(acts, "acts", op);
  const Type type = acts.elementType();
  return popops::map(graph, (_1 - Cast(_2, type)) * Cast(_3, type),
                     {acts, perChannel(mean, acts, "mean", op),
                      perChannel(iStdDev, acts, "iStdDev", op)},
                     prog, {debugContext, "normWhiten"});
}

Tensor normalise(Graph &graph, const Tensor &actsWhitened, const Tensor &gamma,
                 const Tensor &beta, Sequence &prog,
                 const DebugContext &debugContext) {
  const std::string op = "normalise";
  checkActs(actsWhitened, "actsWhitened", op);
  const Type type = actsWhitened.elementType();
  return popops::map(graph, _1 * Cast(_2, type) + Cast(_3, type),
                     {actsWhitened, perChannel(gamma, actsWhitened, "gamma", op),
                      perChannel(beta, actsWhitened, "beta", op)},
                     prog, {debugContext, "normalise"});
}

std::pair<Tensor, Tensor>
normParamGradients(Graph &graph, const Tensor &actsWhitened,
                   const Tensor &gradsIn, Sequence &prog,
                   const Type &partialsType, const DebugContext &debugContext) {
  const std::string op = "normParamGradients";
  checkActs(actsWhitened, "actsWhitened", op);
  checkPartials(partialsType, op);
  checkSameShape(actsWhitened, "actsWhitened", gradsIn, "gradsIn", op);
  DebugContext dc(debugContext, "normParamGradients");
  const Type type = actsWhitened.elementType();
  const Tensor product =
      popops::mul(graph, gradsIn, actsWhitened, prog, {dc, "gradsIn*whitened"});
  return {castTo(graph, channelSums(graph, product, popops::Operation::ADD, 1.0f,
                                    prog, {dc, "gammaDelta"}),
                 type, prog, {dc, "gammaDelta"}),
          castTo(graph, channelSums(graph, gradsIn, popops::Operation::ADD, 1.0f,
                                    prog, {dc, "betaDelta"}),
                 type, prog, {dc, "betaDelta"})};
}

Tensor normGradients(Graph &graph, const Tensor &gradsIn, const Tensor &gamma,
                     Sequence &prog, const DebugContext &debugContext) {
  const std::string op = "normGradients";
  checkActs(gradsIn, "gradsIn", op);
  return popops::map(graph, _1 * Cast(_2, gradsIn.elementType()),
                     {gradsIn, perChannel(gamma, gradsIn, "gamma", op)}, prog,
                     {debugContext, "normGradients"});
}

Tensor normStatisticsGradients(Graph &graph, const Tensor &actsWhitened,
                               const Tensor &gradsIn, const Tensor &invStdDev,
                               Sequence &prog, const Type &partialsType,
                               const DebugContext &debugContext) {
  return statisticsGradients(graph, actsWhitened, gradsIn, invStdDev, prog,
                             partialsType, nullptr, 0, "normStatisticsGradients",
                             {debugContext, "normStatisticsGradients"});
}

Tensor distributedNormStatisticsGradients(
    Graph &replicatedGraph, const Tensor &actsWhitened, const Tensor &gradsIn,
    const Tensor &invStdDev, Sequence &prog,
    DistributedNormReduceCallback reduceCallback, unsigned normSize,
    const Type &partialsType, const DebugContext &debugContext) {
  return statisticsGradients(replicatedGraph, actsWhitened, gradsIn, invStdDev,
                             prog, partialsType, reduceCallback, normSize,
                             "distributedNormStatisticsGradients",
                             {debugContext, "distributedNormStatisticsGradients"});
}

} // namespace poplin
