// popnn::lstm forward, backward and weight update against torch.nn.LSTM
// (float64) and its autograd gradients, on every test device: full and
// last-output sequences, a non-default cell order, the separate and
// combined backward passes, a long sequence; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Lstm.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using namespace popnn::lstm;
using Catch::Matchers::Contains;

namespace {

// The values as the layer's type holds them.
std::vector<float> inType(const Type &type, std::vector<float> v) {
  return type == HALF ? roundToHalf(v) : v;
}

constexpr std::size_t T = 3, B = 2, I = 3, H = 4;

// torch.nn.LSTM keeps its gates as (input, forget, candidate, output).
std::string torchScript(const std::vector<popnn::BasicLstmCellUnit> &cellOrder,
                        bool fullSequence, std::size_t steps) {
  const popnn::BasicLstmCellUnit torchUnits[4] = {
      popnn::BASIC_LSTM_CELL_INPUT_GATE, popnn::BASIC_LSTM_CELL_FORGET_GATE,
      popnn::BASIC_LSTM_CELL_CANDIDATE, popnn::BASIC_LSTM_CELL_OUTPUT_GATE};
  std::string order = "[";
  for (auto u : torchUnits)
    order += std::to_string(std::find(cellOrder.begin(), cellOrder.end(), u) -
                            cellOrder.begin()) + ",";
  order += "]";
  return "T, B, I, H = " + std::to_string(steps) + ", " + std::to_string(B) +
         ", " + std::to_string(I) + ", " + std::to_string(H) +
         "\norder = " + order +
         "\nfull = " + (fullSequence ? "True" : "False") + R"(
x = torch.tensor(inp('x')).reshape(T, B, I).requires_grad_(True)
win = torch.tensor(inp('win')).reshape(4, I, H)
wout = torch.tensor(inp('wout')).reshape(4, H, H)
b = torch.tensor(inp('b')).reshape(4, H)
h0 = torch.tensor(inp('h0')).reshape(B, H).requires_grad_(True)
c0 = torch.tensor(inp('c0')).reshape(B, H).requires_grad_(True)
lstm = torch.nn.LSTM(I, H).double()
with torch.no_grad():
    lstm.weight_ih_l0.copy_(torch.cat([win[k].T for k in order], 0))
    lstm.weight_hh_l0.copy_(torch.cat([wout[k].T for k in order], 0))
    lstm.bias_ih_l0.copy_(torch.cat([b[k] for k in order]))
    lstm.bias_hh_l0.zero_()
y, (hn, cn) = lstm(x, (h0.unsqueeze(0), c0.unsqueeze(0)))
gc = torch.tensor(inp('gc')).reshape(B, H)
if full:
    gy = torch.tensor(inp('gy')).reshape(T, B, H)
    loss = (y * gy).sum()
    out['y'] = y
else:
    gy = torch.tensor(inp('gy')).reshape(B, H)
    loss = (y[-1] * gy).sum()
    out['y'] = y[-1]
gh = torch.tensor(inp('gh')).reshape(B, H)
loss = loss + (cn[0] * gc).sum() + (hn[0] * gh).sum()
loss.backward()
out['cn'] = cn
out['dx'] = x.grad
out['dh0'] = h0.grad
out['dc0'] = c0.grad
def ours(g, rows):
    # torch's [4H][rows] blocks, in torch's gate order, to [4][rows][H] in ours
    blocks = [None] * 4
    for k in range(4):
        blocks[order[k]] = g[k * H:(k + 1) * H].T
    return torch.stack(blocks)
out['dwin'] = ours(lstm.weight_ih_l0.grad, I)
out['dwout'] = ours(lstm.weight_hh_l0.grad, H)
db = [None] * 4
for k in range(4):
    db[order[k]] = lstm.bias_ih_l0.grad[k * H:(k + 1) * H]
out['db'] = torch.stack(db)
)";
}

void runCase(const std::vector<popnn::BasicLstmCellUnit> &cellOrder,
             bool fullSequence, bool combined, const Type &type = FLOAT,
             bool finalStateGrad = false, std::size_t steps = T) {
  const auto x = inType(type, uniformValues(steps * B * I, -1, 1, 1));
  const auto win = inType(type, uniformValues(4 * I * H, -0.5f, 0.5f, 2));
  const auto wout = inType(type, uniformValues(4 * H * H, -0.5f, 0.5f, 3));
  const auto b = inType(type, uniformValues(4 * H, -0.5f, 0.5f, 4));
  const auto h0 = inType(type, uniformValues(B * H, -1, 1, 5));
  const auto c0 = inType(type, uniformValues(B * H, -1, 1, 6));
  const auto gy = inType(type, uniformValues((fullSequence ? steps : 1) * B * H, -1, 1, 7));
  const auto gc = inType(type, uniformValues(B * H, -1, 1, 8));
  // The gradient of the final output, through the LstmState forms.
  const auto gh = finalStateGrad ? inType(type, uniformValues(B * H, -1, 1, 9))
                                 : std::vector<float>(B * H, 0.0f);
  const auto ref = runPython(
      torchScript(cellOrder, fullSequence, steps),
      {{"x", toDouble(x)}, {"win", toDouble(win)}, {"wout", toDouble(wout)},
       {"b", toDouble(b)}, {"h0", toDouble(h0)}, {"c0", toDouble(c0)},
       {"gy", toDouble(gy)}, {"gc", toDouble(gc)}, {"gh", toDouble(gh)}});

  Rig rig(4);
  LstmParams params(type, B, steps, {I, H});
  params.cellOrder = cellOrder;
  params.outputFullSequence = fullSequence;
  Tensor in = createInput(rig.graph, params, "in");
  REQUIRE(in.shape() == std::vector<std::size_t>{steps, B, I});
  LstmState init = createInitialState(rig.graph, params, "init");
  LstmWeights w = createWeights(rig.graph, params, "w");
  // Write the host values into the created tensors through copies.
  auto feed = [&](const Tensor &t, const std::string &name,
                  const std::vector<float> &v) {
    Tensor src = rig.input(type, t.shape(), name, v);
    rig.prog.add(Copy(src, t));
  };
  feed(in, "x", x);
  feed(init.output, "h0", h0);
  feed(init.cellState, "c0", c0);
  feed(w.inputWeights, "win", win);
  feed(w.outputWeights, "wout", wout);
  feed(w.biases, "b", b);
  Tensor intermediates;
  auto [y, cn] = lstmFwd(rig.graph, params, init, in, w, &intermediates, rig.prog);
  Tensor gyT = rig.input(type, y.shape(), "gy", gy);
  Tensor gcT = rig.input(type, {B, H}, "gc", gc);
  Tensor dx;
  LstmWeights dw;
  LstmState dInit;
  const LstmState finalGrad{rig.input(type, {B, H}, "gh", gh), gcT};
  if (finalStateGrad && combined) {
    dInit = lstmBwdWithWU(rig.graph, params, rig.prog, init, intermediates, w, in,
                          y, gyT, &finalGrad, &dx, dw);
  } else if (finalStateGrad) {
    Tensor bwdIntermediates;
    dInit = lstmBwd(rig.graph, params, rig.prog, init, intermediates, w, in, y,
                    gyT, &finalGrad, &dx, &bwdIntermediates);
    dw = lstmWU(rig.graph, params, rig.prog, init, intermediates,
                bwdIntermediates, w, in, y);
  } else if (combined) {
    dInit = lstmBwdWithWU(rig.graph, params, rig.prog, init, intermediates, w, in,
                          y, gyT, &gcT, &dx, dw);
  } else {
    Tensor bwdIntermediates;
    dInit = lstmBwd(rig.graph, params, rig.prog, init, intermediates, w, in, y,
                    gyT, &gcT, &dx, &bwdIntermediates);
    dw = lstmWU(rig.graph, params, rig.prog, init, intermediates,
                bwdIntermediates, w, in, y);
  }
  rig.output(y, "y");
  rig.output(cn, "cn");
  rig.output(dx, "dx");
  rig.output(dInit.output, "dh0");
  rig.output(dInit.cellState, "dc0");
  rig.output(dw.inputWeights, "dwin");
  rig.output(dw.outputWeights, "dwout");
  rig.output(dw.biases, "db");
  auto got = rig.run();
  for (const char *name : {"y", "cn", "dx", "dh0", "dc0", "dwin", "dwout", "db"}) {
    INFO(name);
    // HALF: the values are rounded to HALF at every operation.
    const double tol = type == HALF ? 3e-2 : 1e-5;
    checkClose(got[name], ref.at(name), tol, tol);
  }
}

} // namespace

TEST_CASE("LSTM forward, backward and weight update match torch.nn.LSTM",
          "[popnn][lstm]") {
  SECTION("full sequence, separate passes") {
    runCase(getDefaultBasicLstmCellOrder(), true, false);
  }
  SECTION("last output, another cell order, combined passes") {
    runCase({popnn::BASIC_LSTM_CELL_OUTPUT_GATE, popnn::BASIC_LSTM_CELL_CANDIDATE,
             popnn::BASIC_LSTM_CELL_FORGET_GATE, popnn::BASIC_LSTM_CELL_INPUT_GATE},
            false, true);
  }
  SECTION("HALF") { runCase(getDefaultBasicLstmCellOrder(), true, true, HALF); }
  SECTION("final state gradients, separate passes") {
    runCase(getDefaultBasicLstmCellOrder(), true, false, FLOAT, true);
  }
  SECTION("final state gradients, last output, combined passes") {
    runCase(getDefaultBasicLstmCellOrder(), false, true, FLOAT, true);
  }
  // The steps run in a loop, so a long sequence makes a graph no larger
  // than a short one.
  SECTION("200 steps, full sequence, separate passes") {
    runCase(getDefaultBasicLstmCellOrder(), true, false, FLOAT, true, 200);
  }
}

TEST_CASE("LSTM errors", "[popnn][lstm]") {
  Rig rig;
  LstmParams params(FLOAT, B, T, {I, H});
  LstmState init = createInitialState(rig.graph, params, "init");
  LstmWeights w = createWeights(rig.graph, params, "w");
  Tensor bad = rig.graph.addVariable(FLOAT, {T, B, I + 1}, "badInput");
  rig.graph.setTileMapping(bad, 0);
  REQUIRE_THROWS_AS(lstmFwd(rig.graph, params, rig.prog, init, w, bad, nullptr),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(lstmFwd(rig.graph, params, rig.prog, init, w, bad, nullptr),
                      Contains("badInput"));
  LstmParams twoLayers(FLOAT, B, T, {I, H, H});
  REQUIRE_THROWS_WITH(createInput(rig.graph, twoLayers, "in"),
                      Contains("layerSizes"));
  LstmParams gelu(FLOAT, B, T, {I, H}, popnn::NonLinearityType::GELU);
  REQUIRE_THROWS_WITH(createInput(rig.graph, gelu, "in"), Contains("gelu"));
  LstmParams order(FLOAT, B, T, {I, H});
  order.cellOrder = {popnn::BASIC_LSTM_CELL_INPUT_GATE,
                     popnn::BASIC_LSTM_CELL_INPUT_GATE,
                     popnn::BASIC_LSTM_CELL_CANDIDATE,
                     popnn::BASIC_LSTM_CELL_OUTPUT_GATE};
  REQUIRE_THROWS_WITH(createWeights(rig.graph, order, "w"), Contains("cellOrder"));
}
