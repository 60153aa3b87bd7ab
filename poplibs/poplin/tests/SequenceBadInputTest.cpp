// Bad input to PopLibs' sequence layers: popnn's LSTM, GRU and Rnn driver
// (parameters, tensors, options) and its CTC loss and beam search (plans,
// tensors, classes). Bad parameters and tensors are the original's
// poputil::poplibs_error naming the function and the tensor or parameter;
// bad options are poplar::invalid_option naming the function and the
// option. After every error the graph still builds an LSTM, with options,
// whose outputs agree with a host loop.
#include "ExpectError.hpp"
#include "MappedVariable.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/Gru.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/Rnn.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

using poputil::poplibs_error;
using sdktest::expectError;
using sdktest::mapped;

namespace {

constexpr std::size_t T = 2, B = 2, I = 3, H = 2;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// The LSTM's outputs [T][B][H] for weights in the default cell order
// (forget, input, candidate, output), from a zero state.
std::vector<float> hostLstm(const std::vector<float> &x,
                            const std::vector<float> &w,
                            const std::vector<float> &u,
                            const std::vector<float> &bias) {
  std::vector<float> h(B * H, 0.0f), c(B * H, 0.0f), out;
  for (std::size_t t = 0; t != T; ++t) {
    std::vector<float> next(B * H);
    for (std::size_t b = 0; b != B; ++b)
      for (std::size_t j = 0; j != H; ++j) {
        float pre[4];
        for (std::size_t g = 0; g != 4; ++g) {
          pre[g] = bias[g * H + j];
          for (std::size_t i = 0; i != I; ++i)
            pre[g] += x[(t * B + b) * I + i] * w[(g * I + i) * H + j];
          for (std::size_t k = 0; k != H; ++k)
            pre[g] += h[b * H + k] * u[(g * H + k) * H + j];
        }
        float &cell = c[b * H + j];
        cell = sigmoid(pre[0]) * cell + sigmoid(pre[1]) * std::tanh(pre[2]);
        next[b * H + j] = sigmoid(pre[3]) * std::tanh(cell);
      }
    h = next;
    out.insert(out.end(), h.begin(), h.end());
  }
  return out;
}

std::vector<float> ramp(std::size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i != n; ++i)
    v[i] = scale * static_cast<float>((i * 7) % 11) + offset;
  return v;
}

} // namespace

TEST_CASE("Bad input to the recurrent layers and CTC is refused naming it, "
          "and the graph stays usable",
          "[poplibs][errors]") {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  namespace lstm = popnn::lstm;
  const lstm::LstmParams params(FLOAT, B, T, {I, H});
  const lstm::LstmState state{mapped(graph, FLOAT, {B, H}, "h0"),
                              mapped(graph, FLOAT, {B, H}, "c0")};
  const lstm::LstmWeights weights{mapped(graph, FLOAT, {4, I, H}, "W"),
                                  mapped(graph, FLOAT, {4, H, H}, "U"),
                                  mapped(graph, FLOAT, {4, H}, "bias")};
  const Tensor in = mapped(graph, FLOAT, {T, B, I}, "in");
  auto fwd = [&](const OptionFlags &options) {
    lstm::lstmFwd(graph, params, state, in, weights, nullptr, prog, "fwd",
                  options);
  };

  // Options: unknown, bad values, and values asking for a schedule this
  // implementation does not build.
  expectError<invalid_option>(
      "an option the LSTM does not have",
      [&] { lstm::createInput(graph, params, "x", {{"partialType", "half"}}); },
      {"popnn::lstm::createInput", "'partialType'"});
  expectError<invalid_option>("partials of a type that is not one",
                              [&] { fwd({{"partialsType", "double"}}); },
                              {"popnn::lstm::lstmFwd", "partialsType", "double"});
  expectError<invalid_option>(
      "an available memory proportion past 1",
      [&] { fwd({{"availableMemoryProportion", "1.5"}}); },
      {"availableMemoryProportion", "1.5"});
  expectError<invalid_option>("inferenceOnly that is not a boolean",
                              [&] { fwd({{"inferenceOnly", "yes"}}); },
                              {"inferenceOnly", "yes"});
  expectError<invalid_option>("a recomputation mode that does not exist",
                              [&] { fwd({{"recomputationMode", "some"}}); },
                              {"recomputationMode", "some"});
  expectError<invalid_option>("full recomputation",
                              [&] { fwd({{"recomputationMode", "full"}}); },
                              {"recomputationMode", "full"});
  expectError<invalid_option>("zero shards",
                              [&] { fwd({{"numShards", "0"}}); },
                              {"numShards"});
  expectError<invalid_option>("weight accumulators of a type that is not one",
                              [&] {
                                lstm::createWeights(
                                    graph, params, "w",
                                    {{"weightAccumulatorsType", "int"}});
                              },
                              {"popnn::lstm::createWeights", "weightAccumulatorsType"});

  // Parameters: layers, sizes and types.
  expectError<poplibs_error>(
      "two layers",
      [&] {
        lstm::createInput(graph, lstm::LstmParams(FLOAT, B, T, {I, H, H}), "x");
      },
      {"popnn::lstm::createInput", "layerSizes"});
  expectError<poplibs_error>(
      "no time steps",
      [&] {
        lstm::createInitialState(graph, lstm::LstmParams(FLOAT, B, 0, {I, H}),
                                 "s");
      },
      {"timeSteps"});
  expectError<poplibs_error>(
      "an LSTM of integers",
      [&] { lstm::createWeights(graph, lstm::LstmParams(INT, B, T, {I, H}), "w"); },
      {"data type"});

  // Tensors of the wrong shape or type.
  expectError<poplibs_error>(
      "an input of one step too few",
      [&] {
        lstm::lstmFwd(graph, params, state,
                      mapped(graph, FLOAT, {T - 1, B, I}, "shortIn"), weights,
                      nullptr, prog);
      },
      {"popnn::lstm::lstmFwd", "'shortIn'", "[1,2,3]"});
  expectError<poplibs_error>(
      "input weights of half precision",
      [&] {
        lstm::LstmWeights half = weights;
        half.inputWeights = mapped(graph, HALF, {4, I, H}, "halfW");
        lstm::lstmFwd(graph, params, state, in, half, nullptr, prog);
      },
      {"inputWeights", "'halfW'", "half"});
  expectError<poplibs_error>(
      "an initial cell state of another batch size",
      [&] {
        lstm::LstmState bad = state;
        bad.cellState = mapped(graph, FLOAT, {B + 1, H}, "c3");
        lstm::lstmFwd(graph, params, bad, in, weights, nullptr, prog);
      },
      {"initial cell state", "'c3'"});
  {
    Tensor kept;
    const Tensor out = lstm::lstmFwd(graph, params, state, in, weights, &kept,
                                     prog, "kept")
                           .first;
    expectError<poplibs_error>(
        "a backward pass with no inputGrad when the parameters ask for it",
        [&] {
          lstm::lstmBwd(graph, params, prog, state, kept, weights, in, out, out,
                        static_cast<const Tensor *>(nullptr), nullptr, nullptr);
        },
        {"popnn::lstm::lstmBwd", "inputGrad"});
    expectError<poplibs_error>(
        "backward intermediates of the wrong shape",
        [&] {
          lstm::lstmWU(graph, params, prog, state, kept,
                       mapped(graph, FLOAT, {T, B, H}, "dPre"), weights, in,
                       out);
        },
        {"popnn::lstm::lstmWU", "bwdIntermediates", "'dPre'"});
  }

  // The GRU: its own options (not the LSTM's) and biases.
  namespace gru = popnn::gru;
  const gru::GruParams gparams(FLOAT, B, T, {I, H});
  expectError<invalid_option>(
      "an LSTM-only option given to a GRU",
      [&] {
        gru::createInput(graph, gparams, "x", {{"recomputationMode", "none"}});
      },
      {"popnn::gru::createInput", "'recomputationMode'"});
  expectError<invalid_option>(
      "code reuse, which an unrolled GRU does not do",
      [&] { gru::createInitialState(graph, gparams, "s", {{"rnnCodeReuse", "true"}}); },
      {"rnnCodeReuse"});
  expectError<poplibs_error>(
      "GRU biases without the second bias resetAfter needs",
      [&] {
        gru::GruParams after = gparams;
        after.resetAfter = true;
        const gru::GruWeights w{mapped(graph, FLOAT, {3, I, H}, "gW"),
                                mapped(graph, FLOAT, {3, H, H}, "gU"),
                                mapped(graph, FLOAT, {3, H}, "gBias")};
        gru::gruFwd(graph, after, mapped(graph, FLOAT, {B, H}, "g0"), in, w,
                    nullptr, prog);
      },
      {"popnn::gru::gruFwd", "biases", "'gBias'"});

  // The Rnn driver's option.
  expectError<invalid_option>(
      "an Rnn codeReuse that is not a boolean",
      [&] {
        OptionFlags options{{"codeReuse", "sometimes"}};
        popnn::rnn::Rnn(graph, popnn::rnn::RnnParams(FLOAT, B, T, {I, H}), false,
                        {mapped(graph, FLOAT, {B, H}, "r0")}, {}, {in}, nullptr,
                        nullptr, {}, {}, prog,
                        [](Graph &, const popnn::rnn::TimeStepState &,
                           const popnn::rnn::RnnBatchwiseFlags &,
                           std::vector<Tensor> &, const popnn::rnn::RnnSlice &,
                           std::vector<Tensor> &, Sequence *,
                           const DebugNameAndId &) { return Sequence(); },
                        1, options);
      },
      {"popnn::rnn::Rnn", "codeReuse", "sometimes"});

  // CTC: plans, options, tensors and classes.
  constexpr unsigned C = 4, L = 2;
  expectError<poplibs_error>(
      "a CTC plan of one class (the blank alone)",
      [&] { popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, L, 1); },
      {"ctc::plan", "numClasses"});
  expectError<invalid_option>(
      "a CTC plan option that does not exist",
      [&] { popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, L, C, {{"beam", "2"}}); },
      {"beam"});
  expectError<invalid_option>(
      "a CTC plan with a memory proportion past 1",
      [&] {
        popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, L, C,
                         {{"availableMemoryProportion", "2"}});
      },
      {"availableMemoryProportion"});
  // Enormous sizes are refused by the plan, before any tensor is made.
  constexpr unsigned huge = 1u << 31;
  expectError<poplibs_error>(
      "a CTC loss plan of 2^93 data elements",
      [&] { popnn::ctc::plan(graph, FLOAT, FLOAT, huge, huge, L, huge); },
      {"ctc::plan", "2147483648", "cannot fit"});
  expectError<poplibs_error>(
      "a CTC loss plan of 2^62 labels",
      [&] { popnn::ctc::plan(graph, FLOAT, FLOAT, huge, 1, huge, C); },
      {"ctc::plan", "maxLabelLength 2147483648", "cannot fit"});
  expectError<poplibs_error>(
      "a CTC inference plan of enormous data",
      [&] { popnn::ctc_infer::plan(graph, FLOAT, huge, huge, C, 2); },
      {"ctc_infer::plan", "cannot fit"});
  const popnn::ctc::Plan lossPlan =
      popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, L, C);
  const Tensor logits = mapped(graph, FLOAT, {T, B, C}, "logits");
  const Tensor labels = mapped(graph, UNSIGNED_INT, {B, L}, "labels");
  const Tensor lengths = mapped(graph, UNSIGNED_INT, {B}, "dataLengths");
  const Tensor labelLengths = mapped(graph, UNSIGNED_INT, {B}, "labelLengths");
  expectError<poplibs_error>(
      "labels of another batch size than the plan's",
      [&] {
        popnn::ctc::calcLossAndGradientLogits(
            graph, FLOAT, logits, mapped(graph, UNSIGNED_INT, {B + 1, L}, "labels3"),
            lengths, labelLengths, prog, 0, lossPlan);
      },
      {"'labels3'"});
  expectError<poplibs_error>(
      "labels of floats",
      [&] {
        popnn::ctc::calcCTCLossLogits(graph, FLOAT, logits,
                                      mapped(graph, FLOAT, {B, L}, "labelsF"),
                                      lengths, labelLengths, prog, 0, lossPlan);
      },
      {"'labelsF'", "unsigned int"});
  expectError<poplibs_error>(
      "a blank class past the last class",
      [&] {
        popnn::ctc::calcLossAndGradientLogits(graph, FLOAT, logits, labels,
                                              lengths, labelLengths, prog, C,
                                              lossPlan);
      },
      {"blankClass", "4"});
  expectError<invalid_option>(
      "a CTC loss option that does not exist",
      [&] {
        popnn::ctc::calcCTCLossLogits(graph, FLOAT, logits, labels, lengths,
                                      labelLengths, prog, 0, lossPlan, "loss",
                                      {{"zeroInfinityy", "true"}});
      },
      {"zeroInfinityy"});
  const popnn::ctc::Plan inferPlan =
      popnn::ctc_infer::plan(graph, FLOAT, B, T, C, 2);
  expectError<poplibs_error>(
      "a loss computed with a beam search plan",
      [&] {
        popnn::ctc::calcCTCLossLogits(graph, FLOAT, logits, labels, lengths,
                                      labelLengths, prog, 0, inferPlan);
      },
      {"inference plan"});
  expectError<poplibs_error>(
      "more paths than the beam holds",
      [&] {
        popnn::ctc_infer::beamSearchDecoderLogits(graph, logits, lengths, prog,
                                                  0, 2, 3, inferPlan);
      },
      {"topPaths", "3"});
  expectError<poplibs_error>(
      "a beam width other than the plan's",
      [&] {
        popnn::ctc_infer::beamSearchDecoderLogits(graph, logits, lengths, prog,
                                                  0, 3, 1, inferPlan);
      },
      {"beamwidth", "3"});
  expectError<poplibs_error>(
      "a data input of another shape than the plan's",
      [&] {
        popnn::ctc_infer::createDataInput(graph, FLOAT, B, T + 1, C, inferPlan);
      },
      {"createDataInput", "plan"});

  // The graph as it is now: an LSTM with options it honours, against the
  // host.
  const std::vector<float> xs = ramp(T * B * I, 0.1f, -0.5f),
                           ws = ramp(4 * I * H, 0.05f, -0.25f),
                           us = ramp(4 * H * H, -0.04f, 0.2f),
                           bs = ramp(4 * H, 0.02f, -0.1f);
  const OptionFlags honoured{{"partialsType", "float"},
                             {"availableMemoryProportion", "0.3"},
                             {"inferenceOnly", "true"},
                             {"recomputationMode", "none"}};
  Sequence good;
  const lstm::LstmState init =
      lstm::createInitialState(graph, params, "init", honoured);
  lstm::zeroInitialState(graph, init, good);
  const lstm::LstmWeights w = lstm::createWeights(graph, params, "w", honoured);
  const Tensor x = lstm::createInput(graph, params, "x", honoured);
  const Tensor y = lstm::lstmFwd(graph, params, init, x, w, nullptr, good,
                                 "lstm", honoured)
                       .first;
  graph.createHostWrite("x", x);
  graph.createHostWrite("W", w.inputWeights);
  graph.createHostWrite("U", w.outputWeights);
  graph.createHostWrite("bias", w.biases);
  graph.createHostRead("y", y);
  Engine engine(graph, good);
  engine.load(device);
  engine.writeTensor("x", xs.data(), xs.data() + xs.size());
  engine.writeTensor("W", ws.data(), ws.data() + ws.size());
  engine.writeTensor("U", us.data(), us.data() + us.size());
  engine.writeTensor("bias", bs.data(), bs.data() + bs.size());
  engine.run();
  std::vector<float> got(T * B * H);
  engine.readTensor("y", got.data(), got.data() + got.size());
  const std::vector<float> want = hostLstm(xs, ws, us, bs);
  for (std::size_t i = 0; i != want.size(); ++i)
    CHECK(got[i] == Approx(want[i]).margin(1e-5));
}
