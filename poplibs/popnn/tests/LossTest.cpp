// popnn::calcLoss, calcAccuracy, argMax/argMin, maxAndArgMax/minAndArgMin
// and topK against PyTorch (cross_entropy, autograd, argmax, topk) and host
// loops, on every test device; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Loss.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t batch = 6, classes = 10;

// Softmax probabilities of random logits, and labels; row 3 is masked.
struct Problem {
  std::vector<float> logits, labels;
  Problem() {
    logits = uniformValues(batch * classes, -3.0f, 3.0f, 5);
    labels = {3, 0, 9, -1, 5, 5};
  }
};

const char *lossScript = R"(
x = torch.tensor(inp('x')).reshape(6, 10).requires_grad_(True)
labels = torch.tensor(inp('labels')).long()
mask = labels >= 0
safe = torch.where(mask, labels, torch.zeros_like(labels))
p = torch.softmax(x, -1)
out['p'] = p
ce = torch.nn.functional.cross_entropy(x, safe, reduction='none') * mask
ce.sum().backward()
out['ce'] = ce
out['ce_dx'] = x.grad
pp = p.detach().clone().requires_grad_(True)
onehot = torch.nn.functional.one_hot(safe, 10).double()
ss = 0.5 * ((pp - onehot) ** 2).sum(-1) * mask
ss.sum().backward()
out['ss'] = ss
out['ss_dp'] = pp.grad
)";

} // namespace

TEST_CASE("calcLoss matches PyTorch's cross entropy and squared error",
          "[popnn][loss]") {
  Problem pr;
  const auto ref = runPython(lossScript, {{"x", toDouble(pr.logits)},
                                          {"labels", toDouble(pr.labels)}});
  std::vector<float> p(ref.at("p").begin(), ref.at("p").end());
  for (const Type labelType : {UNSIGNED_INT, INT}) {
    for (const Type type : {FLOAT, HALF}) {
      for (const auto lossType : {popnn::CROSS_ENTROPY_LOSS,
                                  popnn::SUM_SQUARED_LOSS}) {
        const bool ce = lossType == popnn::CROSS_ENTROPY_LOSS;
        INFO((ce ? "cross entropy " : "sum squared ")
             << type.toString().str() << " labels " << labelType.toString().str());
        const auto probs = type == HALF ? roundToHalf(p) : p;
        Rig rig;
        Tensor outputs = rig.input(type, {batch, classes}, "p", probs);
        Tensor expected = rig.input(labelType, {batch}, "labels", pr.labels);
        Tensor loss = rig.graph.addVariable(type, {batch}, "loss");
        Tensor deltas = rig.graph.clone(outputs, "deltas");
        // numCorrect is an InOut: the batch's count adds to what it held.
        const unsigned before = 7;
        Tensor numCorrect =
            rig.input(UNSIGNED_INT, {}, "numCorrect", {float(before)});
        poputil::mapTensorLinearly(rig.graph, loss);
        rig.graph.setTileMapping(numCorrect,
                                 rig.graph.getTarget().getNumTiles() - 1);
        rig.prog.add(popnn::calcLoss(rig.graph, outputs, expected, loss, deltas,
                                     numCorrect, lossType));
        rig.output(loss, "loss");
        rig.output(deltas, "deltas");
        rig.output(numCorrect, "numCorrect");
        auto got = rig.run();
        const double tol = type == HALF ? 2e-3 : 1e-5;
        checkClose(got["loss"], ref.at(ce ? "ce" : "ss"), tol, tol);
        checkClose(got["deltas"], ref.at(ce ? "ce_dx" : "ss_dp"), tol, tol);
        // The accuracy, by a host loop.
        unsigned correct = 0;
        for (std::size_t r = 0; r != batch; ++r) {
          if (pr.labels[r] < 0)
            continue;
          std::size_t best = 0;
          for (std::size_t j = 1; j != classes; ++j)
            if (probs[r * classes + j] > probs[r * classes + best])
              best = j;
          correct += best == std::size_t(pr.labels[r]);
        }
        REQUIRE(got["numCorrect"][0] == float(before + correct));
      }
    }
  }
}

TEST_CASE("cross entropy of scaled model outputs", "[popnn][loss]") {
  Problem pr;
  pr.labels[3] = 2;
  const auto ref = runPython(lossScript, {{"x", toDouble(pr.logits)},
                                          {"labels", toDouble(pr.labels)}});
  const float scaling = 62000.0f, deltasScale = 0.25f;
  std::vector<float> scaled(ref.at("p").size());
  for (std::size_t i = 0; i != scaled.size(); ++i)
    scaled[i] = float(ref.at("p")[i] * scaling);
  Rig rig;
  Tensor outputs = rig.input(FLOAT, {batch, classes}, "p", scaled);
  Tensor expected = rig.input(INT, {batch}, "labels", pr.labels);
  Tensor s = rig.input(FLOAT, {}, "scaling", {scaling});
  Tensor d = rig.input(FLOAT, {1}, "deltasScale", {deltasScale});
  Tensor loss = rig.graph.addVariable(FLOAT, {batch}, "loss");
  Tensor deltas = rig.graph.clone(outputs, "deltas");
  poputil::mapTensorLinearly(rig.graph, loss);
  rig.prog.add(popnn::calcLoss(rig.graph, outputs, expected, loss, deltas, d, s,
                               popnn::CROSS_ENTROPY_LOSS));
  rig.output(loss, "loss");
  rig.output(deltas, "deltas");
  auto got = rig.run();
  std::vector<double> want = ref.at("ce_dx");
  for (auto &v : want)
    v *= deltasScale;
  checkClose(got["loss"], ref.at("ce"), 1e-5, 1e-5);
  checkClose(got["deltas"], want, 1e-5, 1e-6);
}

TEST_CASE("argMax, argMin and topK match PyTorch", "[popnn][loss][argmax]") {
  const std::size_t rows = 9, cols = 37;
  const auto x = uniformValues(rows * cols, -100.0f, 100.0f, 8);
  const auto ref = runPython(
      "x = torch.tensor(inp('x')).reshape(9, 37)\n"
      "out['argmax'] = torch.argmax(x, -1)\nout['argmin'] = torch.argmin(x, -1)\n"
      "out['max'] = x.max(-1).values\nout['min'] = x.min(-1).values\n"
      "t = torch.topk(x, 5, -1, sorted=True)\n"
      "out['topv'] = t.values\nout['topi'] = t.indices\n",
      {{"x", toDouble(x)}});
  for (const Type type : {FLOAT, HALF, INT}) {
    INFO(type.toString().str());
    // Distinct in every type: integers with distinct values are kept.
    std::vector<float> xt = x;
    if (type == INT)
      for (auto &v : xt)
        v = std::round(v * 100.0f);
    Rig rig(8);
    Tensor in = rig.input(type, {rows, cols}, "x", xt);
    rig.output(popnn::argMax(rig.graph, in, rig.prog), "argmax");
    rig.output(popnn::argMin(rig.graph, in, rig.prog), "argmin");
    auto [mx, amx] = popnn::maxAndArgMax(rig.graph, in, rig.prog);
    auto [mn, amn] = popnn::minAndArgMin(rig.graph, in, rig.prog);
    REQUIRE(amx.elementType() == UNSIGNED_INT);
    REQUIRE(mx.elementType() == type);
    rig.output(mx, "max");
    rig.output(amx, "amx");
    rig.output(mn, "min");
    rig.output(amn, "amn");
    if (type == FLOAT) {
      Tensor indices;
      rig.output(popnn::topK(rig.graph, in, indices, 5, true, rig.prog), "topv");
      REQUIRE(indices.shape() == std::vector<std::size_t>{rows, 5});
      rig.output(indices, "topi");
    }
    auto got = rig.run();
    if (type != INT) {
      // Rounding to HALF keeps these values distinct.
      checkClose(got["argmax"], ref.at("argmax"), 0, 0);
      checkClose(got["argmin"], ref.at("argmin"), 0, 0);
      checkClose(got["amx"], ref.at("argmax"), 0, 0);
      checkClose(got["amn"], ref.at("argmin"), 0, 0);
      checkClose(got["max"], ref.at("max"), type == HALF ? 1e-3 : 0, 0);
      checkClose(got["min"], ref.at("min"), type == HALF ? 1e-3 : 0, 0);
    }
    // Host loops for every type.
    for (std::size_t r = 0; r != rows; ++r) {
      std::size_t hi = 0, lo = 0;
      for (std::size_t j = 1; j != cols; ++j) {
        if (xt[r * cols + j] > xt[r * cols + hi])
          hi = j;
        if (xt[r * cols + j] < xt[r * cols + lo])
          lo = j;
      }
      if (type != HALF) {
        REQUIRE(got["argmax"][r] == float(hi));
        REQUIRE(got["argmin"][r] == float(lo));
      }
    }
    if (type == FLOAT) {
      checkClose(got["topv"], ref.at("topv"), 0, 0);
      checkClose(got["topi"], ref.at("topi"), 0, 0);
    }
  }
}

TEST_CASE("argMax takes the first of equal values", "[popnn][loss][argmax]") {
  Rig rig;
  Tensor in = rig.input(FLOAT, {2, 4}, "x", {1, 5, 5, 2, 3, 3, 3, 3});
  rig.output(popnn::argMax(rig.graph, in, rig.prog), "amax");
  rig.output(popnn::argMin(rig.graph, in, rig.prog), "amin");
  auto got = rig.run();
  REQUIRE(got["amax"] == std::vector<float>{1, 0});
  REQUIRE(got["amin"] == std::vector<float>{0, 0});
}

TEST_CASE("loss errors name the tensor", "[popnn][loss]") {
  Rig rig;
  auto var = [&](const Type &t, std::vector<std::size_t> s, const std::string &n) {
    Tensor v = rig.graph.addVariable(t, s, n);
    rig.graph.setTileMapping(v, 0);
    return v;
  };
  Tensor p = var(FLOAT, {4, 3}, "probs");
  Tensor labels = var(UNSIGNED_INT, {4}, "labels");
  Tensor loss = var(FLOAT, {4}, "loss");
  Tensor deltas = var(FLOAT, {4, 3}, "deltas");
  Tensor numCorrect = var(UNSIGNED_INT, {1}, "numCorrect");
  using popnn::SUM_SQUARED_LOSS;
  REQUIRE_THROWS_WITH(popnn::calcLoss(rig.graph, var(FLOAT, {12}, "flat"), labels,
                                      loss, deltas, SUM_SQUARED_LOSS),
                      Contains("flat"));
  REQUIRE_THROWS_WITH(popnn::calcLoss(rig.graph, p, var(FLOAT, {4}, "floatLabels"),
                                      loss, deltas, SUM_SQUARED_LOSS),
                      Contains("floatLabels") && Contains("UNSIGNED_INT"));
  REQUIRE_THROWS_WITH(popnn::calcLoss(rig.graph, p, var(INT, {3}, "short"), loss,
                                      deltas, SUM_SQUARED_LOSS),
                      Contains("short"));
  REQUIRE_THROWS_WITH(popnn::calcLoss(rig.graph, p, labels, loss,
                                      var(FLOAT, {3, 4}, "badDeltas"),
                                      SUM_SQUARED_LOSS),
                      Contains("badDeltas"));
  REQUIRE_THROWS_WITH(popnn::calcLoss(rig.graph, p, labels,
                                      var(FLOAT, {5}, "badLoss"), deltas,
                                      SUM_SQUARED_LOSS),
                      Contains("badLoss"));
  REQUIRE_THROWS_WITH(popnn::calcAccuracy(rig.graph, p, labels,
                                          var(FLOAT, {1}, "floatCount")),
                      Contains("floatCount"));
  REQUIRE_THROWS_AS(popnn::calcLoss(rig.graph, var(INT, {4, 3}, "intProbs"),
                                    labels, loss, deltas, numCorrect,
                                    SUM_SQUARED_LOSS),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(popnn::argMax(rig.graph, var(FLOAT, {2, 2, 2}, "cube"),
                                    rig.prog),
                      Contains("cube"));
  REQUIRE_THROWS_WITH(popnn::argMax(rig.graph, var(BOOL, {2, 2}, "flags"),
                                    rig.prog),
                      Contains("flags"));
  Tensor idx;
  REQUIRE_THROWS_WITH(popnn::topK(rig.graph, p, idx, 4, true, rig.prog),
                      Contains("probs"));
}
