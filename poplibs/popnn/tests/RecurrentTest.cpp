// popnn::rnn (the vanilla recurrent layer of popnn/Recurrent.hpp) against
// torch.nn.RNN and its autograd gradients (float64), through the sequence
// functions and through the step functions composed as a program of the
// original would, on every test device; the flop counts against the sums
// written out; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Recurrent.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using Catch::Matchers::Contains;
namespace rnn = popnn::rnn;

namespace {

constexpr std::size_t S = 4, B = 2, I = 3, O = 5;

// torch.nn.RNN with Wff [I][O] and Wfb [O][O] (torch holds them
// transposed) and one bias.
std::string torchScript(const std::string &nl) {
  return "S, B, I, O = " + std::to_string(S) + ", " + std::to_string(B) + ", " +
         std::to_string(I) + ", " + std::to_string(O) + "\nnl = '" + nl + "'" +
         R"(
x = torch.tensor(inp('x')).reshape(S, B, I).requires_grad_(True)
h0 = torch.tensor(inp('h0')).reshape(1, B, O)
net = torch.nn.RNN(I, O, nonlinearity=nl).double()
with torch.no_grad():
    net.weight_ih_l0.copy_(torch.tensor(inp('wff')).reshape(I, O).T)
    net.weight_hh_l0.copy_(torch.tensor(inp('wfb')).reshape(O, O).T)
    net.bias_ih_l0.copy_(torch.tensor(inp('b')))
    net.bias_hh_l0.zero_()
y, _ = net(x, h0)
(y * torch.tensor(inp('gy')).reshape(S, B, O)).sum().backward()
out['y'] = y
out['dx'] = x.grad
out['dwff'] = net.weight_ih_l0.grad.T
out['dwfb'] = net.weight_hh_l0.grad.T
out['db'] = net.bias_ih_l0.grad
)";
}

struct Values {
  std::vector<float> x, h0, wff, wfb, b, gy;
  Arrays ref;
  Values(popnn::NonLinearityType nl, unsigned seed)
      : x(uniformValues(S * B * I, -1, 1, seed)),
        h0(uniformValues(B * O, -1, 1, seed + 1)),
        wff(uniformValues(I * O, -0.6f, 0.6f, seed + 2)),
        wfb(uniformValues(O * O, -0.6f, 0.6f, seed + 3)),
        b(uniformValues(O, -0.3f, 0.3f, seed + 4)),
        gy(uniformValues(S * B * O, -1, 1, seed + 5)) {
    ref = runPython(torchScript(nl == popnn::NonLinearityType::RELU ? "relu"
                                                                    : "tanh"),
                    {{"x", toDouble(x)}, {"h0", toDouble(h0)},
                     {"wff", toDouble(wff)}, {"wfb", toDouble(wfb)},
                     {"b", toDouble(b)}, {"gy", toDouble(gy)}});
  }
};

// The layer's tensors, made by the rnn functions and written from the host.
struct Layer {
  Tensor x, h0, wff, wfb, b;
  Layer(Rig &rig, const Values &v, bool inferenceOnly) {
    Sequence &prog = rig.prog;
    x = rnn::createInput(rig.graph, S, B, I, O, FLOAT, FLOAT, inferenceOnly, "x");
    h0 = rnn::createFwdState(rig.graph, FLOAT, B, O, prog, false, inferenceOnly,
                             "h0");
    wff = rnn::createWeightsInput(rig.graph, S, B, I, O, FLOAT, FLOAT,
                                  inferenceOnly, "wff");
    wfb = rnn::createWeightsFeedback(rig.graph, B, O, FLOAT, FLOAT,
                                     inferenceOnly, "wfb");
    b = rig.input(FLOAT, {O}, "b", v.b);
    prog.add(Copy(rig.input(FLOAT, {S, B, I}, "x", v.x), x));
    prog.add(Copy(rig.input(FLOAT, {B, O}, "h0", v.h0),
                  rnn::getOutputFromFwdState(h0)));
    prog.add(Copy(rig.input(FLOAT, {I, O}, "wff", v.wff), wff));
    prog.add(Copy(rig.input(FLOAT, {O, O}, "wfb", v.wfb), wfb));
  }
};

void check(std::map<std::string, std::vector<float>> &got, const Arrays &ref,
           const std::vector<std::string> &names) {
  for (const auto &name : names) {
    INFO(name);
    checkClose(got.at(name), ref.at(name), 1e-5, 1e-5);
  }
}

} // namespace

TEST_CASE("rnnFwdSequence and rnnBwdSequence match torch.nn.RNN",
          "[popnn][rnn]") {
  for (auto nl : {popnn::NonLinearityType::TANH, popnn::NonLinearityType::RELU}) {
    for (bool weighted : {false, true}) {
      DYNAMIC_SECTION((nl == popnn::NonLinearityType::TANH ? "tanh" : "relu")
                      << (weighted ? ", weightedIn" : ", feedFwdWeights")) {
        Values v(nl, weighted ? 30 : 40);
        Rig rig(4);
        Layer l(rig, v, false);
        Tensor weightedIn;
        if (weighted)
          weightedIn = rnn::forwardWeightInput(rig.graph, l.x, l.wff, rig.prog);
        Tensor y = rnn::rnnFwdSequence(rig.graph, rig.prog, l.h0,
                                       weighted ? &weightedIn : nullptr, l.b,
                                       l.wff, l.wfb, l.x, nl, FLOAT, false, "fwd");
        REQUIRE(y.shape() == std::vector<std::size_t>{S, B, O});
        Tensor gy = rig.input(FLOAT, {S, B, O}, "gy", v.gy);
        Tensor dx, dwff, dwfb, db;
        std::tie(dx, dwff, dwfb, db) = rnn::rnnBwdSequence(
            rig.graph, true, false, rig.prog, l.h0, y, l.b, l.wff, l.wfb,
            gy.dimShuffle({1, 0, 2}), l.x, nl, FLOAT, "bwd");
        rig.output(y, "y");
        rig.output(dx, "dx");
        rig.output(dwff, "dwff");
        rig.output(dwfb, "dwfb");
        rig.output(db, "db");
        auto got = rig.run();
        check(got, v.ref, {"y", "dx", "dwff", "dwfb", "db"});
      }
    }
  }
}

TEST_CASE("rnnBwdSequence without input gradients or weight update",
          "[popnn][rnn]") {
  Values v(popnn::NonLinearityType::TANH, 50);
  Rig rig(4);
  Layer l(rig, v, false);
  Tensor y = rnn::rnnFwdSequence(rig.graph, rig.prog, l.h0, nullptr, l.b, l.wff,
                                 l.wfb, l.x, popnn::NonLinearityType::TANH,
                                 FLOAT, false);
  Tensor gy = rig.input(FLOAT, {S, B, O}, "gy", v.gy);
  Tensor grads, dwff, dwfb, db;
  std::tie(grads, dwff, dwfb, db) = rnn::rnnBwdSequence(
      rig.graph, true, true, rig.prog, l.h0, y, l.b, l.wff, l.wfb,
      gy.dimShuffle({1, 0, 2}), l.x, popnn::NonLinearityType::TANH, FLOAT);
  REQUIRE(grads.shape() == std::vector<std::size_t>{S, B, O});
  Tensor noWU[4];
  std::tie(noWU[0], noWU[1], noWU[2], noWU[3]) = rnn::rnnBwdSequence(
      rig.graph, false, false, rig.prog, l.h0, y, l.b, l.wff, l.wfb,
      gy.dimShuffle({1, 0, 2}), l.x, popnn::NonLinearityType::TANH, FLOAT);
  REQUIRE(!noWU[1].valid());
  REQUIRE(!noWU[3].valid());
  rig.output(y, "y");
  rig.output(dwff, "dwff");
  rig.output(dwfb, "dwfb");
  rig.output(db, "db");
  rig.output(noWU[0], "dx");
  auto got = rig.run();
  check(got, v.ref, {"y", "dx", "dwff", "dwfb", "db"});
}

TEST_CASE("The step functions composed step by step match torch.nn.RNN",
          "[popnn][rnn]") {
  Values v(popnn::NonLinearityType::TANH, 60);
  Rig rig(4);
  Layer l(rig, v, false);
  Sequence &prog = rig.prog;
  const auto nl = popnn::NonLinearityType::TANH;
  Tensor ff = rnn::forwardWeightInput(rig.graph, l.x, l.wff, prog);
  Tensor y = rnn::forwardIterate(rig.graph, ff, l.h0, l.wfb, l.b, prog, nl);
  Tensor gy = rig.input(FLOAT, {S, B, O}, "gy", v.gy);
  Tensor bwdState = rnn::createBwdState(rig.graph, FLOAT, B, O, prog);
  Tensor dwff = rig.graph.clone(l.wff), dwfb = rig.graph.clone(l.wfb),
         db = rig.graph.clone(l.b);
  for (const Tensor &t : {dwff, dwfb, db})
    popops::zero(rig.graph, t, prog);
  std::vector<Tensor> dx(S);
  for (std::size_t i = S; i-- != 0;) {
    Tensor gradIn;
    if (i == 0) {
      // The overload without the input weights gives the state only.
      Tensor state = rnn::backwardGradientStep(rig.graph, gy[i], bwdState, y[i],
                                               l.wfb, prog, nl);
      std::tie(gradIn, bwdState) = rnn::backwardGradientStep(
          rig.graph, gy[i], bwdState, y[i], l.wff, l.wfb, prog, nl);
      rig.output(state, "state0");
      rig.output(bwdState, "bwdState0");
    } else {
      std::tie(gradIn, bwdState) = rnn::backwardGradientStep(
          rig.graph, gy[i], bwdState, y[i], l.wff, l.wfb, prog, nl);
    }
    dx[i] = gradIn.expand({0});
    rnn::paramDeltaUpdate(rig.graph, bwdState, l.x[i], i == 0 ? l.h0 : y[i - 1],
                          dwff, dwfb, db, prog);
  }
  rig.output(y, "y");
  rig.output(concat(dx, 0), "dx");
  rig.output(dwff, "dwff");
  rig.output(dwfb, "dwfb");
  rig.output(db, "db");
  auto got = rig.run();
  check(got, v.ref, {"y", "dx", "dwff", "dwfb", "db"});
  REQUIRE(got["state0"] == got["bwdState0"]);
}

TEST_CASE("Vanilla RNN flops and products to plan", "[popnn][rnn]") {
  // S = 2, B = 3, I = 4, O = 5: 6 rows of products.
  // Forward: 6*5*(2*5-1) feedback + 2*2*5 adds + 6*5*(2*4-1) input.
  REQUIRE(rnn::getFwdFlops(2, 3, 4, 5) == 270 + 20 + 210);
  REQUIRE(rnn::getFwdFlops(2, 3, 4, 5, false) == 270 + 20);
  REQUIRE(rnn::getBwdFlops(2, 3, 4, 5) == 270 + 210);
  REQUIRE(rnn::getBwdFlops(2, 3, 4, 5, false) == 270);
  // 6*4*5 + 5*4*5 (Wff), 6*25 + 5*25 (Wfb), 5*5 (bias), 20 + 25 + 5 updates.
  REQUIRE(rnn::getWuFlops(2, 3, 4, 5) == 120 + 100 + 150 + 125 + 25 + 50);
  auto training = rnn::getMatMulPrePlanParameters(2, 3, 4, 5, FLOAT);
  REQUIRE(training.size() == 6);
  REQUIRE(training[0].first.aShape == std::vector<std::size_t>{1, 3, 4});
  REQUIRE(training[0].first.bShape == std::vector<std::size_t>{1, 4, 5});
  auto inference =
      rnn::getMatMulPrePlanParameters(2, 3, 4, 5, HALF, FLOAT, true, false);
  REQUIRE(inference.size() == 1);
  REQUIRE(inference[0].first.bShape == std::vector<std::size_t>{1, 5, 5});
  REQUIRE(inference[0].second.at("fullyConnectedPass") == "INFERENCE_FWD");
}

TEST_CASE("Vanilla RNN errors", "[popnn][rnn]") {
  Rig rig;
  Graph &g = rig.graph;
  Sequence &prog = rig.prog;
  REQUIRE_THROWS_AS(rnn::createInput(g, 2, 0, 3, 4, FLOAT), poputil::poplibs_error);
  REQUIRE_THROWS_WITH(rnn::createWeightsFeedback(g, 2, 4, INT),
                      Contains("FLOAT or HALF"));
  Tensor x = rnn::createInput(g, S, B, I, O, FLOAT);
  Tensor wff = rnn::createWeightsInput(g, S, B, I, O, FLOAT);
  Tensor wfb = rnn::createWeightsFeedback(g, B, O, FLOAT);
  Tensor h0 = rnn::createFwdState(g, FLOAT, B, O, prog, true, false);
  Tensor b = g.addVariable(FLOAT, {O}, "b");
  g.setTileMapping(b, 0);
  Tensor badBias = g.addVariable(FLOAT, {O + 1}, "badBias");
  g.setTileMapping(badBias, 0);
  REQUIRE_THROWS_WITH(rnn::forwardWeightInput(g, x, wfb, prog),
                      Contains("popnn::rnn::forwardWeightInput") &&
                          Contains("weights"));
  Tensor ff = rnn::forwardWeightInput(g, x, wff, prog);
  REQUIRE_THROWS_WITH(rnn::forwardIterate(g, ff, h0, wfb, badBias, prog,
                                          popnn::NonLinearityType::TANH),
                      Contains("badBias"));
  REQUIRE_THROWS_WITH(rnn::rnnFwdSequence(g, prog, h0, nullptr, b, wfb, wfb, x,
                                          popnn::NonLinearityType::TANH, FLOAT,
                                          false),
                      Contains("feedFwdWeights"));
  Tensor y = rnn::rnnFwdSequence(g, prog, h0, nullptr, b, wff, wfb, x,
                                 popnn::NonLinearityType::TANH, FLOAT, false);
  // outGradient is [batch][steps][output]; [steps][batch][output] is refused.
  REQUIRE_THROWS_WITH(rnn::rnnBwdSequence(g, true, false, prog, h0, y, b, wff,
                                          wfb, y, x,
                                          popnn::NonLinearityType::TANH, FLOAT),
                      Contains("outGradient"));
  Tensor bwd = rnn::createBwdState(g, FLOAT, B, O, prog);
  REQUIRE_THROWS_WITH(rnn::backwardGradientStep(g, y[0], bwd, x[0], wff, wfb,
                                                prog,
                                                popnn::NonLinearityType::TANH),
                      Contains("actOut"));
}
