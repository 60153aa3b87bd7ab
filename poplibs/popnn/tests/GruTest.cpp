// popnn::gru forward, backward and weight update against the same cell
// written out in PyTorch (float64) and differentiated by autograd (PyTorch's
// own nn.GRU applies the reset gate after the recurrent product, which this
// GRU does not), on every test device; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Gru.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using namespace popnn::gru;
using Catch::Matchers::Contains;

namespace {

// The values as the layer's type holds them.
std::vector<float> inType(const Type &type, std::vector<float> v) {
  return type == HALF ? roundToHalf(v) : v;
}

constexpr std::size_t T = 3, B = 2, I = 3, H = 4;

std::string torchScript(bool fullSequence, std::size_t steps) {
  return "T, B, I, H = " + std::to_string(steps) + ", " + std::to_string(B) + ", " +
         std::to_string(I) + ", " + std::to_string(H) +
         "\nfull = " + (fullSequence ? "True" : "False") + R"(
x = torch.tensor(inp('x')).reshape(T, B, I).requires_grad_(True)
win = torch.tensor(inp('win')).reshape(3, I, H).requires_grad_(True)
wout = torch.tensor(inp('wout')).reshape(3, H, H).requires_grad_(True)
b = torch.tensor(inp('b')).reshape(3, H).requires_grad_(True)
h0 = torch.tensor(inp('h0')).reshape(B, H).requires_grad_(True)
h = h0
ys = []
for t in range(T):
    r = torch.sigmoid(x[t] @ win[0] + h @ wout[0] + b[0])
    u = torch.sigmoid(x[t] @ win[1] + h @ wout[1] + b[1])
    c = torch.tanh(x[t] @ win[2] + (r * h) @ wout[2] + b[2])
    h = u * h + (1 - u) * c
    ys.append(h)
y = torch.stack(ys) if full else ys[-1]
gy = torch.tensor(inp('gy')).reshape(y.shape)
(y * gy).sum().backward()
out['y'] = y
out['dx'] = x.grad
out['dh0'] = h0.grad
out['dwin'] = win.grad
out['dwout'] = wout.grad
out['db'] = b.grad
)";
}

void runCase(bool fullSequence, bool combined, const Type &type = FLOAT,
             std::size_t steps = T) {
  const auto x = inType(type, uniformValues(steps * B * I, -1, 1, 11));
  const auto win = inType(type, uniformValues(3 * I * H, -0.5f, 0.5f, 12));
  const auto wout = inType(type, uniformValues(3 * H * H, -0.5f, 0.5f, 13));
  const auto b = inType(type, uniformValues(3 * H, -0.5f, 0.5f, 14));
  const auto h0 = inType(type, uniformValues(B * H, -1, 1, 15));
  const auto gy = inType(type, uniformValues((fullSequence ? steps : 1) * B * H, -1, 1, 16));
  const auto ref = runPython(torchScript(fullSequence, steps),
                             {{"x", toDouble(x)}, {"win", toDouble(win)},
                              {"wout", toDouble(wout)}, {"b", toDouble(b)},
                              {"h0", toDouble(h0)}, {"gy", toDouble(gy)}});
  Rig rig(4);
  GruParams params(type, B, steps, {I, H});
  params.outputFullSequence = fullSequence;
  Tensor in = createInput(rig.graph, params, "in");
  Tensor init = createInitialState(rig.graph, params, "init");
  GruWeights w = createWeights(rig.graph, params, "w");
  auto feed = [&](const Tensor &t, const std::string &name,
                  const std::vector<float> &v) {
    rig.prog.add(Copy(rig.input(type, t.shape(), name, v), t));
  };
  feed(in, "x", x);
  feed(init, "h0", h0);
  feed(w.inputWeights, "win", win);
  feed(w.outputWeights, "wout", wout);
  feed(w.biases, "b", b);
  Tensor intermediates;
  Tensor y = gruFwd(rig.graph, params, init, in, w, &intermediates, rig.prog);
  Tensor gyT = rig.input(type, y.shape(), "gy", gy);
  Tensor dx, dh0;
  GruWeights dw;
  if (combined) {
    dh0 = gruBwdWithWU(rig.graph, params, rig.prog, init, intermediates, w, in,
                       y, gyT, &dx, dw);
  } else {
    Tensor bwdIntermediates;
    dh0 = gruBwd(rig.graph, params, rig.prog, init, intermediates, w, in, y, gyT,
                 &dx, &bwdIntermediates);
    dw = gruWU(rig.graph, params, rig.prog, init, intermediates,
               bwdIntermediates, w, in, y);
  }
  rig.output(y, "y");
  rig.output(dx, "dx");
  rig.output(dh0, "dh0");
  rig.output(dw.inputWeights, "dwin");
  rig.output(dw.outputWeights, "dwout");
  rig.output(dw.biases, "db");
  auto got = rig.run();
  for (const char *name : {"y", "dx", "dh0", "dwin", "dwout", "db"}) {
    INFO(name);
    // HALF: the values are rounded to HALF at every operation.
    const double tol = type == HALF ? 3e-2 : 1e-5;
    checkClose(got[name], ref.at(name), tol, tol);
  }
}

// torch.nn.GRU (which resets after the recurrent product) with the weights
// of a GRU whose units are in cellOrder.
std::string torchGruScript(const std::vector<BasicGruCellUnit> &cellOrder) {
  std::string pos = "[";
  for (auto u : {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE,
                 BASIC_GRU_CELL_CANDIDATE})
    pos += std::to_string(std::find(cellOrder.begin(), cellOrder.end(), u) -
                          cellOrder.begin()) + ",";
  pos += "]";
  return "T, B, I, H = " + std::to_string(T) + ", " + std::to_string(B) + ", " +
         std::to_string(I) + ", " + std::to_string(H) + "\npos = " + pos + R"(
x = torch.tensor(inp('x')).reshape(T, B, I).requires_grad_(True)
win = torch.tensor(inp('win')).reshape(3, I, H)
wout = torch.tensor(inp('wout')).reshape(3, H, H)
b = torch.tensor(inp('b')).reshape(3, 2, H)
h0 = torch.tensor(inp('h0')).reshape(B, H).requires_grad_(True)
gru = torch.nn.GRU(I, H).double()
with torch.no_grad():
    gru.weight_ih_l0.copy_(torch.cat([win[k].T for k in pos], 0))
    gru.weight_hh_l0.copy_(torch.cat([wout[k].T for k in pos], 0))
    gru.bias_ih_l0.copy_(torch.cat([b[k][0] for k in pos]))
    gru.bias_hh_l0.copy_(torch.cat([b[k][1] for k in pos]))
y, hn = gru(x, h0.unsqueeze(0))
gy = torch.tensor(inp('gy')).reshape(T, B, H)
(y * gy).sum().backward()
out['y'] = y
out['dx'] = x.grad
out['dh0'] = h0.grad
def ours(g):
    blocks = [None] * 3
    for k in range(3):
        blocks[pos[k]] = g[k * H:(k + 1) * H].T
    return torch.stack(blocks)
out['dwin'] = ours(gru.weight_ih_l0.grad)
out['dwout'] = ours(gru.weight_hh_l0.grad)
db = [None] * 3
for k in range(3):
    db[pos[k]] = torch.stack([gru.bias_ih_l0.grad[k * H:(k + 1) * H],
                              gru.bias_hh_l0.grad[k * H:(k + 1) * H]])
out['db'] = torch.stack(db)
)";
}

} // namespace

TEST_CASE("GRU with resetAfter matches torch.nn.GRU", "[popnn][gru]") {
  const std::vector<BasicGruCellUnit> cellOrder = {
      BASIC_GRU_CELL_CANDIDATE, BASIC_GRU_CELL_RESET_GATE,
      BASIC_GRU_CELL_UPDATE_GATE};
  const auto x = uniformValues(T * B * I, -1, 1, 21);
  const auto win = uniformValues(3 * I * H, -0.5f, 0.5f, 22);
  const auto wout = uniformValues(3 * H * H, -0.5f, 0.5f, 23);
  const auto b = uniformValues(3 * 2 * H, -0.5f, 0.5f, 24);
  const auto h0 = uniformValues(B * H, -1, 1, 25);
  const auto gy = uniformValues(T * B * H, -1, 1, 26);
  const auto ref = runPython(torchGruScript(cellOrder),
                             {{"x", toDouble(x)}, {"win", toDouble(win)},
                              {"wout", toDouble(wout)}, {"b", toDouble(b)},
                              {"h0", toDouble(h0)}, {"gy", toDouble(gy)}});
  Rig rig(4);
  GruParams params(FLOAT, B, T, {I, H});
  params.resetAfter = true;
  params.cellOrder = cellOrder;
  GruWeights w = createWeights(rig.graph, params, "w");
  REQUIRE(w.biases.shape() == std::vector<std::size_t>{3, 2, H});
  Tensor in = rig.input(FLOAT, {T, B, I}, "x", x);
  Tensor init = rig.input(FLOAT, {B, H}, "h0", h0);
  rig.prog.add(Copy(rig.input(FLOAT, {3, I, H}, "win", win), w.inputWeights));
  rig.prog.add(Copy(rig.input(FLOAT, {3, H, H}, "wout", wout), w.outputWeights));
  rig.prog.add(Copy(rig.input(FLOAT, {3, 2, H}, "b", b), w.biases));
  Tensor intermediates;
  Tensor y = gruFwd(rig.graph, params, init, in, w, &intermediates, rig.prog);
  Tensor gyT = rig.input(FLOAT, y.shape(), "gy", gy);
  Tensor dx;
  GruWeights dw;
  Tensor dh0 = gruBwdWithWU(rig.graph, params, rig.prog, init, intermediates, w,
                            in, y, gyT, &dx, dw);
  REQUIRE(dw.biases.shape() == std::vector<std::size_t>{3, 2, H});
  rig.output(y, "y");
  rig.output(dx, "dx");
  rig.output(dh0, "dh0");
  rig.output(dw.inputWeights, "dwin");
  rig.output(dw.outputWeights, "dwout");
  rig.output(dw.biases, "db");
  auto got = rig.run();
  for (const char *name : {"y", "dx", "dh0", "dwin", "dwout", "db"}) {
    INFO(name);
    checkClose(got[name], ref.at(name), 1e-5, 1e-5);
  }
}

TEST_CASE("GRU forward, backward and weight update match PyTorch autograd",
          "[popnn][gru]") {
  SECTION("full sequence, separate passes") { runCase(true, false); }
  SECTION("last output, combined passes") { runCase(false, true); }
  SECTION("HALF") { runCase(true, true, HALF); }
  // The steps run in a loop, so a long sequence makes a graph no larger
  // than a short one.
  SECTION("500 steps, last output, separate passes") {
    runCase(false, false, FLOAT, 500);
  }
}

TEST_CASE("GRU errors", "[popnn][gru]") {
  Rig rig;
  GruParams params(FLOAT, B, T, {I, H});
  Tensor init = createInitialState(rig.graph, params, "init");
  GruWeights w = createWeights(rig.graph, params, "w");
  Tensor bad = rig.graph.addVariable(FLOAT, {T + 1, B, I}, "badInput");
  rig.graph.setTileMapping(bad, 0);
  REQUIRE_THROWS_AS(gruFwd(rig.graph, params, init, bad, w, nullptr, rig.prog),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(gruFwd(rig.graph, params, init, bad, w, nullptr, rig.prog),
                      Contains("badInput"));
  GruParams halfLayer(INT, B, T, {I, H});
  REQUIRE_THROWS_WITH(createInput(rig.graph, halfLayer, "in"),
                      Contains("FLOAT or HALF"));
  GruParams order(FLOAT, B, T, {I, H});
  order.cellOrder = {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_RESET_GATE,
                     BASIC_GRU_CELL_CANDIDATE};
  REQUIRE_THROWS_WITH(createWeights(rig.graph, order, "w"), Contains("cellOrder"));
  GruParams resetAfter(FLOAT, B, T, {I, H});
  resetAfter.resetAfter = true;
  Tensor in = createInput(rig.graph, params, "in");
  // resetAfter wants [3][2][outputSize] biases.
  REQUIRE_THROWS_WITH(gruFwd(rig.graph, resetAfter, init, in, w, nullptr, rig.prog),
                      Contains("biases"));
  Tensor intermediates;
  Tensor y = gruFwd(rig.graph, params, init, in, w, &intermediates, rig.prog);
  // inputGrad must match params.calcInputGradients.
  REQUIRE_THROWS_WITH(gruBwd(rig.graph, params, rig.prog, init, intermediates, w,
                             in, y, y, nullptr, nullptr),
                      Contains("calcInputGradients"));
}
