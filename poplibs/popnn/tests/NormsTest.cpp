// Batch, group, layer and instance normalisation against PyTorch's
// batch_norm, group_norm and instance_norm and their autograd gradients,
// on every test device; unbiased and stable statistics against NumPy;
// parameter updates against host loops; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/Norms.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using Catch::Matchers::Contains;

namespace {

enum class Kind { Batch, GroupStrided, GroupContiguous, Layer, Instance };

const char *name(Kind k) {
  switch (k) {
  case Kind::Batch:
    return "batch";
  case Kind::GroupStrided:
    return "group_strided";
  case Kind::GroupContiguous:
    return "group_contiguous";
  case Kind::Layer:
    return "layer";
  case Kind::Instance:
    return "instance";
  }
  return "";
}

constexpr float eps = 1e-5f;
constexpr unsigned numGroups = 2;

// PyTorch's results for every kind on the same activations: the
// statistics (biased and unbiased variance), the outputs and the gradients
// of x, gamma and beta for the output gradient g.
std::string script(const std::vector<std::size_t> &shape) {
  std::string s = "import torch.nn.functional as F\nshape = (";
  for (auto d : shape)
    s += std::to_string(d) + ",";
  s += R"()
B, C = shape[0], shape[1]
G = )" + std::to_string(numGroups) + R"(
eps = )" + std::to_string(eps) + R"(
x0 = torch.tensor(inp('x')).reshape(shape)
g = torch.tensor(inp('g')).reshape(shape)
gamma0 = torch.tensor(inp('gamma'))
beta0 = torch.tensor(inp('beta'))
strided = [c for grp in range(G) for c in range(C) if c % G == grp]
inverse = [strided.index(c) for c in range(C)]
# (instance_norm needs a field of more than one element)
kinds = ['batch', 'group_strided', 'group_contiguous', 'layer']
if len(shape) > 2:
    kinds.append('instance')
for kind in kinds:
    x = x0.clone().requires_grad_(True)
    gamma = gamma0.clone().requires_grad_(True)
    beta = beta0.clone().requires_grad_(True)
    if kind == 'batch':
        y = F.batch_norm(x, None, None, gamma, beta, training=True, eps=eps)
        rows = x0.transpose(0, 1).reshape(C, -1)
    elif kind == 'group_strided':
        y = F.group_norm(x[:, strided], G, gamma[strided], beta[strided], eps)[:, inverse]
        rows = x0[:, strided].reshape(B * G, -1)
    elif kind == 'group_contiguous':
        y = F.group_norm(x, G, gamma, beta, eps)
        rows = x0.reshape(B * G, -1)
    elif kind == 'layer':
        y = F.group_norm(x, 1, gamma, beta, eps)
        rows = x0.reshape(B, -1)
    else:
        y = F.instance_norm(x, weight=gamma, bias=beta, eps=eps)
        rows = x0.reshape(B * C, -1)
    y.backward(g)
    out[kind + '_y'] = y
    out[kind + '_dx'] = x.grad
    out[kind + '_dgamma'] = gamma.grad
    out[kind + '_dbeta'] = beta.grad
    out[kind + '_mean'] = rows.mean(1)
    out[kind + '_istd'] = 1 / torch.sqrt(rows.var(1, unbiased=False) + eps)
    out[kind + '_istd_unbiased'] = 1 / torch.sqrt(rows.var(1, unbiased=True) + eps)
)";
  return s;
}

struct Outputs {
  Tensor mean, istd, istdUnbiased, istdPlain, y, whitened, dx, dx2, dgamma,
      dbeta, dgamma2, dbeta2;
};

// Calls every function of the kind's family (the statistics used further
// are the stable ones; the unbiased ones too).
Outputs build(Rig &rig, Kind kind, const Tensor &x, const Tensor &g,
              const Tensor &gamma, const Tensor &beta) {
  Graph &graph = rig.graph;
  Sequence &prog = rig.prog;
  Outputs o;
  const OptionFlags contiguous{{"groupNormStridedChannelGrouping", "false"}};
  switch (kind) {
  case Kind::Batch:
    o.istdPlain = popnn::bn::batchNormStatistics(graph, x, eps, prog, false).second;
    o.istdUnbiased = popnn::bn::batchNormStatistics(graph, x, eps, prog, true, true).second;
    std::tie(o.mean, o.istd) =
        popnn::bn::batchNormStatistics(graph, x, eps, prog, false, true);
    std::tie(o.y, o.whitened) =
        popnn::bn::batchNormalise(graph, x, gamma, beta, o.mean, o.istd, prog);
    std::tie(o.dgamma, o.dbeta) =
        popnn::bn::batchNormParamGradients(graph, o.whitened, g, prog);
    std::tie(o.dgamma2, o.dbeta2) = popnn::bn::batchNormParamGradients(
        graph, x, g, o.mean, o.istd, prog);
    o.dx = popnn::bn::batchNormGradients(graph, o.whitened, g, o.istd, gamma, prog);
    o.dx2 = popnn::bn::batchNormGradients(graph, x, g, o.mean, o.istd, gamma, prog);
    break;
  case Kind::GroupStrided:
  case Kind::GroupContiguous: {
    const OptionFlags opts =
        kind == Kind::GroupContiguous ? contiguous : OptionFlags{};
    o.istdPlain = popnn::gn::groupNormStatistics(
        graph, x, eps, prog, numGroups, false, false, FLOAT, {}, opts).second;
    o.istdUnbiased = popnn::gn::groupNormStatistics(
        graph, x, eps, prog, numGroups, true, true, FLOAT, {}, opts).second;
    std::tie(o.mean, o.istd) = popnn::gn::groupNormStatistics(
        graph, x, eps, prog, numGroups, false, true, FLOAT, {}, opts);
    std::tie(o.y, o.whitened) = popnn::gn::groupNormalise(
        graph, x, gamma, beta, o.mean, o.istd, prog, {}, opts);
    std::tie(o.dgamma, o.dbeta) = popnn::gn::groupNormParamGradients(
        graph, o.whitened, g, prog, FLOAT, {}, opts);
    std::tie(o.dgamma2, o.dbeta2) = popnn::gn::groupNormParamGradients(
        graph, x, g, o.mean, o.istd, prog, FLOAT, {}, opts);
    o.dx = popnn::gn::groupNormGradients(graph, o.whitened, g, o.istd, gamma,
                                         prog, FLOAT, {}, opts);
    o.dx2 = popnn::gn::groupNormGradients(graph, x, g, o.mean, o.istd, gamma,
                                          prog, FLOAT, {}, opts);
    break;
  }
  case Kind::Layer:
    o.istdPlain = popnn::ln::layerNormStatistics(graph, x, eps, prog, false).second;
    o.istdUnbiased = popnn::ln::layerNormStatistics(graph, x, eps, prog, true, true).second;
    std::tie(o.mean, o.istd) =
        popnn::ln::layerNormStatistics(graph, x, eps, prog, false, true);
    std::tie(o.y, o.whitened) =
        popnn::ln::layerNormalise(graph, x, gamma, beta, o.mean, o.istd, prog);
    std::tie(o.dgamma, o.dbeta) =
        popnn::ln::layerNormParamGradients(graph, o.whitened, g, prog);
    std::tie(o.dgamma2, o.dbeta2) =
        popnn::ln::layerNormParamGradients(graph, x, g, o.mean, o.istd, prog);
    o.dx = popnn::ln::layerNormGradients(graph, o.whitened, g, o.istd, gamma, prog);
    o.dx2 = popnn::ln::layerNormGradients(graph, x, g, o.mean, o.istd, gamma, prog);
    break;
  case Kind::Instance:
    o.istdPlain = popnn::in::instanceNormStatistics(graph, x, eps, prog, false).second;
    o.istdUnbiased =
        popnn::in::instanceNormStatistics(graph, x, eps, prog, true, true).second;
    std::tie(o.mean, o.istd) =
        popnn::in::instanceNormStatistics(graph, x, eps, prog, false, true);
    std::tie(o.y, o.whitened) =
        popnn::in::instanceNormalise(graph, x, gamma, beta, o.mean, o.istd, prog);
    std::tie(o.dgamma, o.dbeta) =
        popnn::in::instanceNormParamGradients(graph, o.whitened, g, prog);
    std::tie(o.dgamma2, o.dbeta2) =
        popnn::in::instanceNormParamGradients(graph, x, g, o.mean, o.istd, prog);
    o.dx = popnn::in::instanceNormGradients(graph, o.whitened, g, o.istd, gamma,
                                            prog);
    o.dx2 = popnn::in::instanceNormGradients(graph, x, g, o.mean, o.istd, gamma,
                                             prog);
    break;
  }
  return o;
}

void runAll(const std::vector<std::size_t> &shape, const Type &type,
            const std::vector<Kind> &kinds) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  const std::size_t C = shape[1];
  // An offset mean: the plain variance formula must not lose it.
  auto x = uniformValues(n, 1.0f, 5.0f, 90);
  auto g = uniformValues(n, -1.0f, 1.0f, 91);
  auto gamma = uniformValues(C, 0.5f, 2.0f, 92);
  auto beta = uniformValues(C, -1.0f, 1.0f, 93);
  if (type == HALF) {
    x = roundToHalf(x);
    g = roundToHalf(g);
    gamma = roundToHalf(gamma);
    beta = roundToHalf(beta);
  }
  const auto ref = runPython(script(shape), {{"x", toDouble(x)},
                                             {"g", toDouble(g)},
                                             {"gamma", toDouble(gamma)},
                                             {"beta", toDouble(beta)}});
  const double tol = type == HALF ? 1e-2 : 2e-5;
  for (const Kind kind : kinds) {
    INFO(name(kind) << " norm, " << type.toString().str() << ", rank " << shape.size());
    Rig rig(4);
    Tensor xt = rig.input(type, shape, "x", x);
    Tensor gt = rig.input(type, shape, "g", g);
    Tensor gammaT = rig.input(type, {C}, "gamma", gamma);
    Tensor betaT = rig.input(type, {C}, "beta", beta);
    const Outputs o = build(rig, kind, xt, gt, gammaT, betaT);
    REQUIRE(o.y.shape() == shape);
    REQUIRE(o.dx.shape() == shape);
    REQUIRE(o.mean.elementType() == type);
    rig.output(o.mean, "mean");
    rig.output(o.istd, "istd");
    rig.output(o.istdUnbiased, "istdUnbiased");
    rig.output(o.istdPlain, "istdPlain");
    rig.output(o.y, "y");
    rig.output(o.dx, "dx");
    rig.output(o.dx2, "dx2");
    rig.output(o.dgamma, "dgamma");
    rig.output(o.dbeta, "dbeta");
    rig.output(o.dgamma2, "dgamma2");
    rig.output(o.dbeta2, "dbeta2");
    auto got = rig.run();
    const std::string k = name(kind);
    checkClose(got["mean"], ref.at(k + "_mean"), tol, tol);
    checkClose(got["istd"], ref.at(k + "_istd"), tol, tol);
    // The plain algorithm (mean of squares less the squared mean) loses
    // precision when the variance is small next to the squared mean, as
    // in rows of two elements here.
    checkClose(got["istdPlain"], ref.at(k + "_istd"), 2e-2, 2e-2);
    checkClose(got["istdUnbiased"], ref.at(k + "_istd_unbiased"), tol, tol);
    checkClose(got["y"], ref.at(k + "_y"), tol, tol);
    checkClose(got["dx"], ref.at(k + "_dx"), 5 * tol, 5 * tol);
    checkClose(got["dx2"], ref.at(k + "_dx"), 5 * tol, 5 * tol);
    checkClose(got["dgamma"], ref.at(k + "_dgamma"), 5 * tol, 5 * tol);
    checkClose(got["dbeta"], ref.at(k + "_dbeta"), tol, tol);
    checkClose(got["dgamma2"], ref.at(k + "_dgamma"), 5 * tol, 5 * tol);
    checkClose(got["dbeta2"], ref.at(k + "_dbeta"), tol, tol);
  }
}

const std::vector<Kind> allKinds = {Kind::Batch, Kind::GroupStrided,
                                    Kind::GroupContiguous, Kind::Layer,
                                    Kind::Instance};

} // namespace

TEST_CASE("normalisations match PyTorch on 4-D activations", "[popnn][norms]") {
  runAll({3, 4, 5, 2}, FLOAT, allKinds);
}

TEST_CASE("normalisations of 2-D and 3-D activations", "[popnn][norms]") {
  runAll({5, 12}, FLOAT, {Kind::Batch, Kind::Layer, Kind::GroupStrided});
  runAll({2, 4, 7}, FLOAT, allKinds);
}

TEST_CASE("HALF batch and group normalisation", "[popnn][norms]") {
  runAll({4, 4, 3, 3}, HALF, {Kind::Batch, Kind::GroupContiguous});
}

TEST_CASE("parameter updates and inference normalisation",
          "[popnn][norms]") {
  const auto gamma = uniformValues(4, 0.5f, 2.0f, 1);
  const auto beta = uniformValues(4, -1.0f, 1.0f, 2);
  const auto dg = uniformValues(4, -1.0f, 1.0f, 3);
  const auto db = uniformValues(4, -1.0f, 1.0f, 4);
  const auto x = uniformValues(2 * 4 * 3, -1.0f, 1.0f, 5);
  Rig rig;
  Tensor gammaT = rig.input(FLOAT, {4}, "gamma", gamma);
  Tensor betaT = rig.input(FLOAT, {4}, "beta", beta);
  Tensor gamma2 = rig.input(FLOAT, {4}, "gamma2", gamma);
  Tensor beta2 = rig.input(FLOAT, {4}, "beta2", beta);
  Tensor dgT = rig.input(FLOAT, {4}, "dg", dg);
  Tensor dbT = rig.input(FLOAT, {4}, "db", db);
  Tensor scale = rig.input(FLOAT, {}, "scale", {0.5f});
  Tensor xt = rig.input(FLOAT, {2, 4, 3}, "x", x);
  popnn::bn::batchNormParamUpdate(rig.graph, dgT, dbT, 0.25f, gammaT, betaT,
                                  rig.prog);
  popnn::gn::groupNormParamUpdate(rig.graph, dgT, dbT, scale, gamma2, beta2,
                                  rig.prog);
  rig.output(gammaT, "gamma");
  rig.output(betaT, "beta");
  rig.output(gamma2, "gamma2");
  rig.output(beta2, "beta2");
  rig.output(popnn::bn::batchNormalise(rig.graph, xt, dgT, dbT, rig.prog), "inf");
  auto [newGamma, newBeta] = popnn::createNormParams(rig.graph, xt, "p");
  REQUIRE(newGamma.shape() == std::vector<std::size_t>{4});
  REQUIRE(newBeta.elementType() == FLOAT);
  auto got = rig.run();
  std::vector<double> wg(4), wb(4), wg2(4), wb2(4), inf(x.size());
  for (std::size_t c = 0; c != 4; ++c) {
    wg[c] = gamma[c] - 0.25 * dg[c];
    wb[c] = beta[c] - 0.25 * db[c];
    wg2[c] = gamma[c] - 0.5 * dg[c];
    wb2[c] = beta[c] - 0.5 * db[c];
  }
  for (std::size_t i = 0; i != x.size(); ++i) {
    const std::size_t c = (i / 3) % 4;
    inf[i] = double(x[i]) * dg[c] + db[c];
  }
  checkClose(got["gamma"], wg, 1e-6, 1e-6);
  checkClose(got["beta"], wb, 1e-6, 1e-6);
  checkClose(got["gamma2"], wg2, 1e-6, 1e-6);
  checkClose(got["beta2"], wb2, 1e-6, 1e-6);
  checkClose(got["inf"], inf, 1e-6, 1e-6);
}

TEST_CASE("normalisation errors name the tensor", "[popnn][norms]") {
  Rig rig;
  auto var = [&](const Type &t, std::vector<std::size_t> s, const std::string &n) {
    Tensor v = rig.graph.addVariable(t, s, n);
    rig.graph.setTileMapping(v, 0);
    return v;
  };
  Tensor x = var(FLOAT, {2, 6, 3}, "acts");
  REQUIRE_THROWS_WITH(popnn::bn::batchNormStatistics(rig.graph, var(FLOAT, {5}, "flat"),
                                                     eps, rig.prog, false),
                      Contains("flat"));
  REQUIRE_THROWS_WITH(popnn::bn::batchNormStatistics(rig.graph, var(INT, {2, 3}, "ints"),
                                                     eps, rig.prog, false),
                      Contains("ints"));
  REQUIRE_THROWS_WITH(
      popnn::gn::groupNormStatistics(rig.graph, x, eps, rig.prog, 4, false),
      Contains("4 groups") && Contains("acts"));
  REQUIRE_THROWS_WITH(popnn::gn::groupNormStatistics(
                          rig.graph, x, eps, rig.prog, 3, false, false, FLOAT,
                          {}, {{"groupNormStridedChannelGrouping", "maybe"}}),
                      Contains("groupNormStridedChannelGrouping"));
  Tensor badMean = var(FLOAT, {5}, "badMean");
  Tensor istd = var(FLOAT, {6}, "istd");
  REQUIRE_THROWS_WITH(
      popnn::bn::batchNormWhiten(rig.graph, x, badMean, istd, rig.prog),
      Contains("badMean"));
  Tensor mean = var(FLOAT, {6}, "mean");
  REQUIRE_THROWS_WITH(popnn::bn::batchNormalise(rig.graph, x, var(FLOAT, {5}, "badGamma"),
                                                var(FLOAT, {6}, "beta"), mean,
                                                istd, rig.prog),
                      Contains("badGamma"));
  REQUIRE_THROWS_WITH(popnn::bn::batchNormParamGradients(
                          rig.graph, x, var(FLOAT, {2, 6, 4}, "badGrads"), rig.prog),
                      Contains("badGrads"));
  Tensor gamma = var(FLOAT, {6}, "gamma"), beta = var(FLOAT, {6}, "beta");
  REQUIRE_THROWS_WITH(popnn::bn::batchNormParamUpdate(
                          rig.graph, var(FLOAT, {3}, "badDelta"), gamma, 0.1f,
                          gamma, beta, rig.prog),
                      Contains("badDelta"));
}
