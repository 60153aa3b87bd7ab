// Multi-layer and bidirectional recurrent networks built as a user of the
// original builds them: the original's LSTM, GRU and vanilla RNN functions
// take one layer and one direction, so a stack calls them once per layer
// and direction, the backward direction on the time-reversed input (a
// view), the two directions' outputs concatenated as the next layer's
// input, and the backward pass the other way round, the two directions'
// input gradients summed. Checked against torch.nn.LSTM, GRU and RNN with
// num_layers = 2 and bidirectional = True (float64, autograd) on every test
// device.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Gru.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/Recurrent.hpp>
#include <popops/ElementWise.hpp>

#include <catch2/catch.hpp>

#include <array>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;

namespace {

constexpr std::size_t T = 3, B = 2, I = 3, H = 4, L = 2;

enum class Kind { LSTM, GRU, RNN };

std::size_t gates(Kind k) { return k == Kind::LSTM ? 4 : k == Kind::GRU ? 3 : 1; }
std::size_t inputSize(std::size_t layer) { return layer == 0 ? I : 2 * H; }
std::string key(std::size_t layer, std::size_t dir) {
  return std::to_string(layer) + std::to_string(dir);
}

// torch's module with the weights of our layers: in our layouts
// (win [G][In][H], wout [G][H][H], b [G][H], or [G][2][H] for the GRU's
// input and recurrent biases), our unit order[j] being torch's chunk j.
std::string torchScript(Kind kind) {
  const char *name = kind == Kind::LSTM ? "lstm" : kind == Kind::GRU ? "gru" : "rnn";
  return "T, B, I, H, L = " + std::to_string(T) + ", " + std::to_string(B) +
         ", " + std::to_string(I) + ", " + std::to_string(H) + ", " +
         std::to_string(L) + "\nkind = '" + name + "'\n" + R"(
G = {'lstm': 4, 'gru': 3, 'rnn': 1}[kind]
order = {'lstm': [1, 0, 2, 3], 'gru': [0, 1, 2], 'rnn': [0]}[kind]
make = {'lstm': torch.nn.LSTM, 'gru': torch.nn.GRU, 'rnn': torch.nn.RNN}[kind]
net = make(I, H, num_layers=L, bidirectional=True).double()
x = torch.tensor(inp('x')).reshape(T, B, I).requires_grad_(True)
h0 = torch.tensor(inp('h0')).reshape(L * 2, B, H).requires_grad_(True)
c0 = torch.tensor(inp('c0')).reshape(L * 2, B, H).requires_grad_(True)
def chunks(g):
    return [g[j * H:(j + 1) * H] for j in range(G)]
def ours(parts):
    res = [None] * G
    for j, o in enumerate(order):
        res[o] = parts[j]
    return torch.stack(res)
for l in range(L):
    In = I if l == 0 else 2 * H
    for d in range(2):
        k = str(l) + str(d)
        sfx = '_l' + str(l) + ('_reverse' if d else '')
        win = torch.tensor(inp('win' + k)).reshape(G, In, H)
        wout = torch.tensor(inp('wout' + k)).reshape(G, H, H)
        with torch.no_grad():
            getattr(net, 'weight_ih' + sfx).copy_(torch.cat([win[o].T for o in order]))
            getattr(net, 'weight_hh' + sfx).copy_(torch.cat([wout[o].T for o in order]))
            if kind == 'gru':
                b = torch.tensor(inp('b' + k)).reshape(G, 2, H)
                getattr(net, 'bias_ih' + sfx).copy_(torch.cat([b[o][0] for o in order]))
                getattr(net, 'bias_hh' + sfx).copy_(torch.cat([b[o][1] for o in order]))
            else:
                b = torch.tensor(inp('b' + k)).reshape(G, H)
                getattr(net, 'bias_ih' + sfx).copy_(torch.cat([b[o] for o in order]))
                getattr(net, 'bias_hh' + sfx).zero_()
y, _ = net(x, (h0, c0) if kind == 'lstm' else h0)
(y * torch.tensor(inp('gy')).reshape(T, B, 2 * H)).sum().backward()
out['y'] = y
out['dx'] = x.grad
out['dh0'] = h0.grad
out['dc0'] = c0.grad
for l in range(L):
    for d in range(2):
        k = str(l) + str(d)
        sfx = '_l' + str(l) + ('_reverse' if d else '')
        out['dwin' + k] = ours([c.T for c in chunks(getattr(net, 'weight_ih' + sfx).grad)])
        out['dwout' + k] = ours([c.T for c in chunks(getattr(net, 'weight_hh' + sfx).grad)])
        bi = chunks(getattr(net, 'bias_ih' + sfx).grad)
        bh = chunks(getattr(net, 'bias_hh' + sfx).grad)
        out['db' + k] = ours([torch.stack([i, h]) for i, h in zip(bi, bh)]) if kind == 'gru' else ours(bi)
)";
}

// The host values of every layer and direction, and torch's results.
struct Values {
  std::map<std::string, std::vector<float>> v;
  Arrays ref;
  explicit Values(Kind kind) {
    const std::size_t G = gates(kind);
    unsigned seed = 100;
    v["x"] = uniformValues(T * B * I, -1, 1, seed++);
    v["h0"] = uniformValues(L * 2 * B * H, -1, 1, seed++);
    v["c0"] = uniformValues(L * 2 * B * H, -1, 1, seed++);
    v["gy"] = uniformValues(T * B * 2 * H, -1, 1, seed++);
    for (std::size_t l = 0; l != L; ++l)
      for (std::size_t d = 0; d != 2; ++d) {
        const std::string k = key(l, d);
        v["win" + k] = uniformValues(G * inputSize(l) * H, -0.5f, 0.5f, seed++);
        v["wout" + k] = uniformValues(G * H * H, -0.5f, 0.5f, seed++);
        v["b" + k] = uniformValues(G * (kind == Kind::GRU ? 2 : 1) * H, -0.5f,
                                   0.5f, seed++);
      }
    Arrays in;
    for (const auto &[name, values] : v)
      in[name] = toDouble(values);
    ref = runPython(torchScript(kind), in);
  }
  // Layer l, direction d's [B][H] slice of h0 or c0.
  std::vector<float> state(const std::string &name, std::size_t l,
                           std::size_t d) const {
    const auto &all = v.at(name);
    const std::size_t begin = (l * 2 + d) * B * H;
    return {all.begin() + begin, all.begin() + begin + B * H};
  }
};

// One layer and direction of a stack, as the functions of one kind see it.
struct Pass {
  Tensor in, out; // in time order of the pass (reversed for direction 1)
};

// The outputs of both directions (in forward time) side by side.
Tensor joinDirections(const std::array<Pass, 2> &p) {
  return concat(p[0].out, p[1].out.reverse(0), 2);
}

// The gradient of direction d's output, in the pass's time order.
Tensor directionGrad(const Tensor &grad, std::size_t d) {
  Tensor g = grad.slice(d * H, (d + 1) * H, 2);
  return d ? g.reverse(0) : g;
}

// Sums the two directions' input gradients (each in its pass's time order).
Tensor sumDirections(Rig &rig, const std::array<Tensor, 2> &dx) {
  return popops::add(rig.graph, dx[0], dx[1].reverse(0), rig.prog);
}

void checkAll(Rig &rig, const Values &values, Kind kind) {
  auto got = rig.run();
  std::vector<std::string> names = {"y", "dx"};
  if (kind != Kind::RNN)
    names.push_back("dh0");
  if (kind == Kind::LSTM)
    names.push_back("dc0");
  for (std::size_t l = 0; l != L; ++l)
    for (std::size_t d = 0; d != 2; ++d)
      for (const char *w : {"dwin", "dwout", "db"})
        names.push_back(w + key(l, d));
  for (const auto &name : names) {
    INFO(name);
    checkClose(got.at(name), values.ref.at(name), 1e-5, 1e-5);
  }
}

// Writes the host weights of a layer and direction (key k) into the
// layer's weights (LstmWeights or GruWeights).
template <class Weights>
void loadWeights(Rig &rig, const Values &values, const std::string &k,
                 const Weights &w) {
  const std::pair<const char *, Tensor> parts[] = {
      {"win", w.inputWeights}, {"wout", w.outputWeights}, {"b", w.biases}};
  for (const auto &part : parts) {
    const std::string name = part.first + k;
    rig.prog.add(Copy(rig.input(FLOAT, part.second.shape(), name,
                                values.v.at(name)),
                      part.second));
  }
}

// Reads back the weight gradients of a layer and direction (key k).
void outputWeightGrads(Rig &rig, const std::string &k, const Tensor &in,
                       const Tensor &out, const Tensor &biases) {
  rig.output(in, "dwin" + k);
  rig.output(out, "dwout" + k);
  rig.output(biases, "db" + k);
}

// The [L * 2][B][H] gradient of h0 (or c0) from each layer's and direction's.
void outputStateGrads(Rig &rig, const std::vector<Tensor> &grads,
                      const std::string &name) {
  std::vector<Tensor> expanded;
  for (const auto &g : grads)
    expanded.push_back(g.expand({0}));
  rig.output(concat(expanded, 0), name);
}

} // namespace

TEST_CASE("A two-layer bidirectional LSTM of lstmFwd and lstmBwdWithWU calls "
          "matches torch.nn.LSTM",
          "[popnn][lstm][stack]") {
  using namespace popnn::lstm;
  const Values values(Kind::LSTM);
  Rig rig(4);
  Tensor x = rig.input(FLOAT, {T, B, I}, "x", values.v.at("x"));
  Tensor layerIn = x;
  std::array<std::array<Pass, 2>, L> passes;
  std::array<std::array<LstmWeights, 2>, L> weights;
  std::array<std::array<LstmState, 2>, L> init;
  std::array<std::array<Tensor, 2>, L> kept;
  for (std::size_t l = 0; l != L; ++l) {
    LstmParams params(FLOAT, B, T, {inputSize(l), H});
    for (std::size_t d = 0; d != 2; ++d) {
      const std::string k = key(l, d);
      weights[l][d] = createWeights(rig.graph, params, "w" + k);
      loadWeights(rig, values, k, weights[l][d]);
      init[l][d] = {rig.input(FLOAT, {B, H}, "h0" + k, values.state("h0", l, d)),
                    rig.input(FLOAT, {B, H}, "c0" + k, values.state("c0", l, d))};
      passes[l][d].in = d ? layerIn.reverse(0) : layerIn;
      passes[l][d].out = lstmFwd(rig.graph, params, init[l][d], passes[l][d].in,
                                 weights[l][d], &kept[l][d], rig.prog,
                                 "lstm" + k)
                             .first;
    }
    layerIn = joinDirections(passes[l]);
  }
  rig.output(layerIn, "y");
  Tensor grad = rig.input(FLOAT, {T, B, 2 * H}, "gy", values.v.at("gy"));
  std::vector<Tensor> dh0(L * 2), dc0(L * 2);
  for (std::size_t l = L; l-- != 0;) {
    LstmParams params(FLOAT, B, T, {inputSize(l), H});
    std::array<Tensor, 2> dx;
    for (std::size_t d = 0; d != 2; ++d) {
      LstmWeights dw;
      LstmState dInit = lstmBwdWithWU(
          rig.graph, params, rig.prog, init[l][d], kept[l][d], weights[l][d],
          passes[l][d].in, passes[l][d].out, directionGrad(grad, d),
          static_cast<const Tensor *>(nullptr), &dx[d], dw);
      dh0[l * 2 + d] = dInit.output;
      dc0[l * 2 + d] = dInit.cellState;
      outputWeightGrads(rig, key(l, d), dw.inputWeights, dw.outputWeights,
                        dw.biases);
    }
    grad = sumDirections(rig, dx);
  }
  rig.output(grad, "dx");
  outputStateGrads(rig, dh0, "dh0");
  outputStateGrads(rig, dc0, "dc0");
  checkAll(rig, values, Kind::LSTM);
}

TEST_CASE("A two-layer bidirectional GRU of gruFwd and gruBwdWithWU calls "
          "matches torch.nn.GRU",
          "[popnn][gru][stack]") {
  using namespace popnn::gru;
  const Values values(Kind::GRU);
  Rig rig(4);
  Tensor layerIn = rig.input(FLOAT, {T, B, I}, "x", values.v.at("x"));
  std::array<std::array<Pass, 2>, L> passes;
  std::array<std::array<GruWeights, 2>, L> weights;
  std::array<std::array<Tensor, 2>, L> init, kept;
  auto paramsOf = [](std::size_t l) {
    GruParams params(FLOAT, B, T, {inputSize(l), H});
    params.resetAfter = true; // as torch.nn.GRU
    return params;
  };
  for (std::size_t l = 0; l != L; ++l) {
    const GruParams params = paramsOf(l);
    for (std::size_t d = 0; d != 2; ++d) {
      const std::string k = key(l, d);
      weights[l][d] = createWeights(rig.graph, params, "w" + k);
      loadWeights(rig, values, k, weights[l][d]);
      init[l][d] = rig.input(FLOAT, {B, H}, "h0" + k, values.state("h0", l, d));
      passes[l][d].in = d ? layerIn.reverse(0) : layerIn;
      passes[l][d].out = gruFwd(rig.graph, params, init[l][d], passes[l][d].in,
                                weights[l][d], &kept[l][d], rig.prog, "gru" + k);
    }
    layerIn = joinDirections(passes[l]);
  }
  rig.output(layerIn, "y");
  Tensor grad = rig.input(FLOAT, {T, B, 2 * H}, "gy", values.v.at("gy"));
  std::vector<Tensor> dh0(L * 2);
  for (std::size_t l = L; l-- != 0;) {
    const GruParams params = paramsOf(l);
    std::array<Tensor, 2> dx;
    for (std::size_t d = 0; d != 2; ++d) {
      GruWeights dw;
      dh0[l * 2 + d] = gruBwdWithWU(
          rig.graph, params, rig.prog, init[l][d], kept[l][d], weights[l][d],
          passes[l][d].in, passes[l][d].out, directionGrad(grad, d), &dx[d], dw);
      outputWeightGrads(rig, key(l, d), dw.inputWeights, dw.outputWeights,
                        dw.biases);
    }
    grad = sumDirections(rig, dx);
  }
  rig.output(grad, "dx");
  outputStateGrads(rig, dh0, "dh0");
  checkAll(rig, values, Kind::GRU);
}

TEST_CASE("A two-layer bidirectional vanilla RNN of rnnFwdSequence and "
          "rnnBwdSequence calls matches torch.nn.RNN",
          "[popnn][rnn][stack]") {
  namespace rnn = popnn::rnn;
  const auto nl = popnn::NonLinearityType::TANH;
  const Values values(Kind::RNN);
  Rig rig(4);
  Tensor layerIn = rig.input(FLOAT, {T, B, I}, "x", values.v.at("x"));
  std::array<std::array<Pass, 2>, L> passes;
  std::array<std::array<Tensor, 2>, L> wff, wfb, bias, init;
  for (std::size_t l = 0; l != L; ++l) {
    for (std::size_t d = 0; d != 2; ++d) {
      const std::string k = key(l, d);
      wff[l][d] = rig.input(FLOAT, {inputSize(l), H}, "win" + k,
                            values.v.at("win" + k));
      wfb[l][d] = rig.input(FLOAT, {H, H}, "wout" + k, values.v.at("wout" + k));
      bias[l][d] = rig.input(FLOAT, {H}, "b" + k, values.v.at("b" + k));
      init[l][d] = rig.input(FLOAT, {B, H}, "h0" + k, values.state("h0", l, d));
      passes[l][d].in = d ? layerIn.reverse(0) : layerIn;
      passes[l][d].out = rnn::rnnFwdSequence(
          rig.graph, rig.prog, init[l][d], nullptr, bias[l][d], wff[l][d],
          wfb[l][d], passes[l][d].in, nl, FLOAT, false, "rnn" + k);
    }
    layerIn = joinDirections(passes[l]);
  }
  rig.output(layerIn, "y");
  Tensor grad = rig.input(FLOAT, {T, B, 2 * H}, "gy", values.v.at("gy"));
  for (std::size_t l = L; l-- != 0;) {
    std::array<Tensor, 2> dx;
    for (std::size_t d = 0; d != 2; ++d) {
      Tensor dwff, dwfb, db;
      // rnnBwdSequence takes the output gradient as [batch][steps][output].
      std::tie(dx[d], dwff, dwfb, db) = rnn::rnnBwdSequence(
          rig.graph, true, false, rig.prog, init[l][d], passes[l][d].out,
          bias[l][d], wff[l][d], wfb[l][d],
          directionGrad(grad, d).dimShuffle({1, 0, 2}), passes[l][d].in, nl,
          FLOAT);
      outputWeightGrads(rig, key(l, d), dwff, dwfb, db);
    }
    grad = sumDirections(rig, dx);
  }
  rig.output(grad, "dx");
  checkAll(rig, values, Kind::RNN);
}
