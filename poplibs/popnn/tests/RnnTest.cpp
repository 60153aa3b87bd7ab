// popnn::rnn::Rnn driving a cell written by the test (an Elman cell,
// h = tanh(x W + h U)) against the same cell run by host loops in double:
// forwards and in reverse, over one to three shards, with the outputs,
// intermediate outputs, created tensors and state sequence stored step by
// step, and with run-time numbers of steps per batch element; the tensor
// functions; errors. On every test device.
#include "TestRig.hpp"

#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Rnn.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using Catch::Matchers::Contains;
namespace rnn = popnn::rnn;

namespace {

constexpr std::size_t T = 5, B = 2, I = 3, O = 4;

struct Host {
  std::vector<float> x, w, u, h0;
  Host()
      : x(uniformValues(T * B * I, -1, 1, 81)),
        w(uniformValues(I * O, -0.7f, 0.7f, 82)),
        u(uniformValues(O * O, -0.7f, 0.7f, 83)),
        h0(uniformValues(B * O, -1, 1, 84)) {}

  // Every step's pre-activation and output; batch element b runs steps 0
  // to steps[b] - 1 (in reverse, from steps[b] - 1 down to 0) and keeps its
  // state at the others.
  struct Run {
    std::vector<double> pre, out, state;
  };
  Run run(bool reverse, const std::vector<unsigned> &steps) const {
    Run r{std::vector<double>(T * B * O), std::vector<double>(T * B * O),
          std::vector<double>(h0.begin(), h0.end())};
    for (std::size_t n = 0; n != T; ++n) {
      const std::size_t t = reverse ? T - 1 - n : n;
      std::vector<double> next = r.state;
      for (std::size_t b = 0; b != B; ++b)
        for (std::size_t o = 0; o != O; ++o) {
          double p = 0;
          for (std::size_t i = 0; i != I; ++i)
            p += double(x[(t * B + b) * I + i]) * w[i * O + o];
          for (std::size_t k = 0; k != O; ++k)
            p += r.state[b * O + k] * u[k * O + o];
          const std::size_t at = (t * B + b) * O + o;
          r.pre[at] = p;
          const bool live = steps.empty() || t < steps[b];
          next[b * O + o] = live ? std::tanh(p) : r.state[b * O + o];
          r.out[at] = next[b * O + o];
        }
      r.state = next;
    }
    return r;
  }
};

std::vector<double> squares(const std::vector<double> &v) {
  std::vector<double> s;
  for (double x : v)
    s.push_back(x * x);
  return s;
}

// The Elman cell as a loop body; counts its calls and those given initProg.
struct ElmanCell {
  Tensor w, u;
  unsigned calls = 0, initCalls = 0;
  rnn::LoopBodyType body() {
    return [this](Graph &graph, const rnn::TimeStepState &time,
                  const rnn::RnnBatchwiseFlags &flags, std::vector<Tensor> &state,
                  const rnn::RnnSlice &slice, std::vector<Tensor> &created,
                  Sequence *initProg, const DebugNameAndId &dnai) {
      ++calls;
      initCalls += initProg != nullptr;
      REQUIRE(time.counter.valid());
      REQUIRE(time.begin.valid());
      Sequence s;
      Tensor pre = poplin::matMul(graph, slice.inputs[0], w, s, {dnai, "xW"});
      popops::addInPlace(graph, pre,
                         poplin::matMul(graph, state[0], u, s, {dnai, "hU"}), s);
      Tensor h = popnn::tanh(graph, pre, s);
      if (flags.valid())
        h = popops::map(graph, popops::expr::_1 * popops::expr::_2 +
                                   popops::expr::_3 * popops::expr::_4,
                        {flags.mask.expand({1}), h, flags.inverse.expand({1}),
                         state[0]},
                        s);
      s.add(Copy(h, state[0]));
      s.add(Copy(pre, slice.interimOut[0]));
      s.add(Copy(h, slice.outputs[0][0]));
      created[0] = popops::square(graph, h, s);
      if (created.size() > 1) {
        REQUIRE(time.variableSeqFlag.valid());
        created[1] = popops::cast(graph, time.variableSeqFlag.reshape({1}),
                                  FLOAT, s);
      }
      return s;
    };
  }
};

struct Case {
  bool reverse = false;
  unsigned shards = 1;
  std::vector<float> steps; // per batch element, or one for all, or none
};

void runCase(const Case &c) {
  const Host host;
  Rig rig(4);
  Graph &graph = rig.graph;
  Tensor varSteps;
  if (!c.steps.empty())
    varSteps = rig.input(INT, {c.steps.size()}, "steps", c.steps);
  rnn::RnnParams params = c.steps.empty()
                              ? rnn::RnnParams(FLOAT, B, T, {I, O})
                              : rnn::RnnParams(FLOAT, B, T, varSteps, {I, O});
  Tensor x = rnn::createInputTensor(graph, params, c.shards, "x");
  REQUIRE(x.shape() == std::vector<std::size_t>{T, B, I});
  rig.prog.add(Copy(rig.input(FLOAT, {T, B, I}, "xHost", host.x), x));
  Tensor h0 = rnn::createInitialState(graph, params, true, 1, c.shards, "h0")[0];
  rig.prog.add(Copy(rig.input(FLOAT, {B, O}, "h0Host", host.h0), h0));
  ElmanCell cell;
  cell.w = rig.input(FLOAT, {I, O}, "w", host.w);
  cell.u = rig.input(FLOAT, {O, O}, "u", host.u);
  Tensor out = rnn::createOutputTensor(graph, params, c.shards, "out");
  Tensor interim = rnn::createOutputTensor(graph, params, 1, c.shards, "interim")
                       .reshapePartial(0, 1, {T, 1});
  Tensor squared = rnn::createOutputTensor(graph, params, c.shards, "squared");
  Tensor states = rnn::createOutputTensor(graph, params, c.shards, "states");
  OptionFlags options{{"codeReuse", "true"}};
  std::vector<Tensor> created = {squared};
  Tensor seqFlags;
  if (!c.steps.empty()) {
    seqFlags = rig.graph.addVariable(FLOAT, {T, 1}, "variableSeqFlag");
    poputil::mapTensorLinearly(rig.graph, seqFlags);
    created.push_back(seqFlags);
    rig.output(seqFlags, "seqFlags");
  }
  auto final = rnn::Rnn(graph, params, c.reverse, {h0}, {states, 0}, {x},
                        nullptr, &interim, {out}, created, rig.prog,
                        cell.body(), c.shards, options, "elman");
  REQUIRE(final.size() == 1);
  CHECK(cell.calls == c.shards);
  CHECK(cell.initCalls == 1);
  rig.output(final[0], "final");
  rig.output(out, "out");
  rig.output(interim, "interim");
  rig.output(squared, "squared");
  rig.output(states, "states");
  auto got = rig.run();
  std::vector<unsigned> steps;
  for (std::size_t b = 0; b != B; ++b)
    if (!c.steps.empty())
      steps.push_back(unsigned(c.steps[c.steps.size() == 1 ? 0 : b]));
  // With a number of steps for all, the loop stops after the most steps.
  std::size_t ran = T;
  if (!steps.empty())
    ran = *std::max_element(steps.begin(), steps.end());
  const auto want = host.run(c.reverse, steps);
  // The loop runs steps 0 to ran - 1 (in reverse, from ran - 1 down), so
  // later steps keep what the outputs held: compare the steps it ran.
  auto reached = [&](const std::vector<float> &g, const std::vector<double> &w) {
    std::vector<float> gs;
    std::vector<double> ws;
    for (std::size_t t = 0; t != ran; ++t) {
      gs.insert(gs.end(), g.begin() + t * B * O, g.begin() + (t + 1) * B * O);
      ws.insert(ws.end(), w.begin() + t * B * O, w.begin() + (t + 1) * B * O);
    }
    checkClose(gs, ws, 1e-5, 1e-5);
  };
  {
    // The host's steps past the last one run change no state.
    INFO("final");
    checkClose(got["final"], want.state, 1e-5, 1e-5);
  }
  {
    INFO("out");
    reached(got["out"], want.out);
  }
  {
    INFO("states");
    reached(got["states"], want.out);
  }
  {
    INFO("interim");
    reached(got["interim"], want.pre);
  }
  {
    INFO("squared");
    reached(got["squared"], squares(want.out));
  }
  if (!steps.empty()) {
    // variableSeqFlag: the step is past some batch element's steps.
    const unsigned least = *std::min_element(steps.begin(), steps.end());
    for (std::size_t t = 0; t != ran; ++t) {
      INFO("variableSeqFlag at step " << t);
      CHECK(got["seqFlags"][t] == (t >= least ? 1.0f : 0.0f));
    }
  }
}

} // namespace

TEST_CASE("Rnn runs a cell over the sequence", "[popnn][rnn]") {
  SECTION("one shard") { runCase({false, 1, {}}); }
  SECTION("reverse") { runCase({true, 1, {}}); }
  SECTION("three shards") { runCase({false, 3, {}}); }
  SECTION("two shards, reverse") { runCase({true, 2, {}}); }
}

TEST_CASE("Rnn with run-time numbers of steps", "[popnn][rnn]") {
  SECTION("per batch element") { runCase({false, 1, {3, 5}}); }
  SECTION("per batch element, two shards") { runCase({false, 2, {2, 4}}); }
  SECTION("per batch element, reverse") { runCase({true, 1, {4, 1}}); }
  SECTION("one for the batch") { runCase({false, 2, {3}}); }
}

TEST_CASE("Rnn tensors", "[popnn][rnn]") {
  Rig rig(4);
  Graph &graph = rig.graph;
  rnn::RnnParams params(FLOAT, B, T, {I, O});
  CHECK(!params.variableTimeSteps());
  CHECK(rnn::createOutputTensor(graph, params, 3, 1).shape() ==
        std::vector<std::size_t>{3 * T, B, O});
  CHECK(rnn::createInitialState(graph, params, false, 2, 1).shape() ==
        std::vector<std::size_t>{2, B, I});
  CHECK(rnn::createRecurrentTensor(graph, params, 7, 5).shape() ==
        std::vector<std::size_t>{T, B, 7});
  // Steps of B x size elements in grains of gcd(16, size): the input's
  // (size 3) are 6 grains of 1, the output's (size 4) 2 grains of 4. On 4
  // tiles the input takes 3 tiles (2 grains each) and the output 2 (1
  // each): 4 / 3 tiles leaves room for one shard; on 1 tile, one shard.
  const unsigned tiles = graph.getTarget().getNumTiles();
  CHECK(params.getMaxShards(graph) == 1);
  // One grain of 16 a step: 10 steps in up to a shard per tile, 3 steps a
  // shard on 4 tiles (so 4 shards).
  rnn::RnnParams wide(FLOAT, 1, 10, {16, 16});
  CHECK(wide.getMaxShards(graph) == (tiles == 4 ? 4 : tiles == 1 ? 1 : 10));
  if (tiles == 4) {
    CHECK(params.getInputBytesPerTile(graph) == 2 * 4);
    CHECK(params.getOutputBytesPerTile(graph) == 1 * 4 * 4);
  } else if (tiles == 1) {
    CHECK(params.getInputBytesPerTile(graph) == 6 * 4);
    CHECK(params.getOutputBytesPerTile(graph) == 2 * 4 * 4);
  }
  // shiftRnnTensor: step s of the result is step s - 1 of the base.
  rnn::RnnParams two(FLOAT, 1, 3, {1, 2});
  std::vector<float> base = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  Tensor tBase = rig.input(FLOAT, {6, 1, 2}, "base", base); // multiple 2
  Tensor tSingle = rig.input(FLOAT, {2, 1, 2}, "single", {-1, -2, -3, -4});
  Tensor shifted = rnn::shiftRnnTensor(graph, two, tBase, tSingle, rig.prog, 1);
  rig.output(shifted, "shifted");
  auto got = rig.run();
  CHECK(got["shifted"] == std::vector<float>{-1, -2, -3, -4, 1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("Rnn errors", "[popnn][rnn]") {
  Rig rig;
  Graph &graph = rig.graph;
  Tensor wrong = graph.addVariable(INT, {3}, "wrongSteps");
  graph.setTileMapping(wrong, 0);
  CHECK_THROWS_AS(rnn::RnnParams(FLOAT, B, T, wrong, {I, O}),
                  poputil::poplibs_error);
  CHECK_THROWS_WITH(rnn::RnnParams(FLOAT, B, T, wrong, {I, O}),
                    Contains("wrongSteps"));
  rnn::RnnParams params(FLOAT, B, T, {I, O});
  CHECK_THROWS_WITH(rnn::createInputTensor(graph, params, 0),
                    Contains("numShards"));
  // 5 steps in 4 shards of 2 leave the last empty.
  CHECK_THROWS_WITH(rnn::createInputTensor(graph, params, 4),
                    Contains("empty"));
  Tensor x = rnn::createInputTensor(graph, params, 1, "x");
  Tensor h0 = rnn::createInitialState(graph, params, true, 1, 1, "h0")[0];
  Tensor out = rnn::createOutputTensor(graph, params, 1, "out");
  ElmanCell cell;
  cell.w = graph.addVariable(FLOAT, {I, O}, "w");
  cell.u = graph.addVariable(FLOAT, {O, O}, "u");
  OptionFlags options;
  Tensor shortInput = graph.addVariable(FLOAT, {T - 1, B, I}, "shortInput");
  CHECK_THROWS_WITH(rnn::Rnn(graph, params, false, {h0}, {}, {shortInput},
                             nullptr, nullptr, {out}, {}, rig.prog, cell.body(),
                             1, options),
                    Contains("shortInput"));
  OptionFlags bad{{"codeReuse", "sometimes"}};
  CHECK_THROWS_WITH(rnn::Rnn(graph, params, false, {h0}, {}, {x}, nullptr,
                             nullptr, {out}, {}, rig.prog, cell.body(), 1, bad),
                    Contains("codeReuse"));
  CHECK_THROWS_WITH(rnn::Rnn(graph, params, false, {h0}, {out, 3}, {x}, nullptr,
                             nullptr, {out}, {}, rig.prog, cell.body(), 1,
                             options),
                    Contains("stateIndex"));
}
