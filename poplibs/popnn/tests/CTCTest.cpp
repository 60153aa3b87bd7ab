// CTC loss, its gradients and beam search decoding against PyTorch:
// torch.nn.functional.ctc_loss (reduction 'none') and autograd through
// log_softmax for the loss and gradients; for decoding, every labelling
// of a small problem scored exactly by ctc_loss, the most likely ones
// being what a beam wide enough to keep every prefix must find.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace poplar;
using namespace popnntest;
using Catch::Matchers::Contains;

namespace {

const unsigned T = 7, B = 3, C = 5, L = 3, blank = 2;
// Entry 1 repeats a symbol (the blank between them is required); entry 2
// has fewer steps and symbols than the maximum.
const std::vector<float> labels = {0, 1, 3, 4, 4, 0, 1, 3, 0};
const std::vector<float> dataLengths = {7, 6, 4};
const std::vector<float> labelLengths = {3, 3, 2};

const char *lossScript = R"(
T, B, C = 7, 3, 5
logits = torch.tensor(inp('logits')).reshape(T, B, C).requires_grad_()
lp = torch.log_softmax(logits, 2)
targets = torch.tensor(inp('labels')).reshape(B, 3).long()
il = torch.tensor(inp('dataLengths')).long()
tl = torch.tensor(inp('labelLengths')).long()
loss = torch.nn.functional.ctc_loss(lp, targets, il, tl, blank=2,
                                    reduction='none', zero_infinity=False)
loss.sum().backward()
out['lp'] = lp.detach()
out['loss'] = loss.detach()
out['gradLogits'] = logits.grad
# The gradient with respect to the log probabilities themselves, from the
# one with respect to the logits: dL/dlogits = dL/dlp + softmax where the
# step is within the entry's length (the occupancies sum to one there).
valid = (torch.arange(T).reshape(T, 1) < il.reshape(1, B)).double()
out['gradLogProbs'] = logits.grad - lp.detach().exp() * valid.unsqueeze(2)
)";

struct Reference {
  std::vector<float> logits, lp;
  Arrays ref;
};

const Reference &reference() {
  static const Reference r = [] {
    Reference r;
    r.logits = uniformValues(T * B * C, -2.0f, 2.0f, 11);
    r.ref = runPython(lossScript, {{"logits", toDouble(r.logits)},
                                   {"labels", toDouble(labels)},
                                   {"dataLengths", toDouble(dataLengths)},
                                   {"labelLengths", toDouble(labelLengths)}});
    r.lp.assign(r.ref.at("lp").begin(), r.ref.at("lp").end());
    return r;
  }();
  return r;
}

struct LossInputs {
  Tensor data, labels, dataLengths, labelLengths;
};

LossInputs lossInputs(Rig &rig, const popnn::ctc::Plan &plan,
                      const std::vector<float> &data, const Type &type) {
  LossInputs in;
  in.data = rig.input(type, {T, B, C}, "data", data);
  in.labels = rig.input(UNSIGNED_INT, {B, L}, "labels", labels);
  in.dataLengths = rig.input(UNSIGNED_INT, {B}, "dataLengths", dataLengths);
  in.labelLengths = rig.input(UNSIGNED_INT, {B}, "labelLengths", labelLengths);
  return in;
}

} // namespace

TEST_CASE("CTC loss and gradient match PyTorch's ctc_loss",
          "[popnn][ctc]") {
  const Reference &r = reference();
  for (const bool logits : {false, true}) {
    for (const bool softmaxGradient : {true, false}) {
      if (logits && !softmaxGradient)
        continue;
      INFO("from " << (logits ? "logits" : "log probabilities")
                   << ", includeSoftmaxGradient " << softmaxGradient);
      Rig rig;
      auto plan = popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C);
      LossInputs in = lossInputs(rig, plan, logits ? r.logits : r.lp, FLOAT);
      OptionFlags options{
          {"includeSoftmaxGradient", softmaxGradient ? "true" : "false"}};
      auto result =
          logits ? popnn::ctc::calcLossAndGradientLogits(
                       rig.graph, FLOAT, in.data, in.labels, in.dataLengths,
                       in.labelLengths, rig.prog, blank, plan, "ctc", options)
                 : popnn::ctc::calcLossAndGradientLogProbabilities(
                       rig.graph, FLOAT, in.data, in.labels, in.dataLengths,
                       in.labelLengths, rig.prog, blank, plan, "ctc", options);
      REQUIRE(result.first.shape() == std::vector<std::size_t>{B});
      REQUIRE(result.second.shape() == std::vector<std::size_t>{T, B, C});
      rig.output(result.first, "loss");
      rig.output(result.second, "grad");
      auto got = rig.run();
      checkClose(got["loss"], r.ref.at("loss"), 1e-5, 1e-5);
      checkClose(got["grad"],
                 r.ref.at(softmaxGradient ? "gradLogits" : "gradLogProbs"),
                 1e-4, 1e-5);
    }
  }
}

TEST_CASE("CTC loss alone, from log probabilities and logits, in HALF",
          "[popnn][ctc]") {
  const Reference &r = reference();
  for (const bool logits : {false, true}) {
    INFO("from " << (logits ? "logits" : "log probabilities"));
    Rig rig;
    auto plan = popnn::ctc::plan(rig.graph, HALF, FLOAT, B, T, L, C);
    LossInputs in =
        lossInputs(rig, plan, roundToHalf(logits ? r.logits : r.lp), HALF);
    Tensor loss =
        logits ? popnn::ctc::calcCTCLossLogits(rig.graph, FLOAT, in.data,
                                               in.labels, in.dataLengths,
                                               in.labelLengths, rig.prog,
                                               blank, plan)
               : popnn::ctc::calcCTCLossLogProbabilities(
                     rig.graph, FLOAT, in.data, in.labels, in.dataLengths,
                     in.labelLengths, rig.prog, blank, plan);
    REQUIRE(loss.elementType() == FLOAT);
    rig.output(loss, "loss");
    checkClose(rig.run()["loss"], r.ref.at("loss"), 5e-3, 5e-3);
  }
}

TEST_CASE("CTC zeroInfinity zeroes the loss and gradient of an impossible "
          "alignment",
          "[popnn][ctc]") {
  const Reference &r = reference();
  for (const bool zero : {false, true}) {
    INFO("zeroInfinity " << zero);
    Rig rig;
    auto plan = popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C);
    LossInputs in = lossInputs(rig, plan, r.lp, FLOAT);
    // Two steps cannot hold entry 0's three symbols.
    Tensor shortLengths =
        rig.input(UNSIGNED_INT, {B}, "shortLengths", {2, 6, 4});
    auto result = popnn::ctc::calcLossAndGradientLogProbabilities(
        rig.graph, FLOAT, in.data, in.labels, shortLengths, in.labelLengths,
        rig.prog, blank, plan, "ctc",
        {{"zeroInfinity", zero ? "true" : "false"}});
    rig.output(result.first, "loss");
    rig.output(result.second, "grad");
    auto got = rig.run();
    if (zero)
      CHECK(got["loss"][0] == 0.0f);
    else
      CHECK(std::isinf(got["loss"][0]));
    CHECK(got["loss"][1] == Approx(r.ref.at("loss")[1]).epsilon(1e-5));
    for (unsigned t = 0; t != T; ++t)
      for (unsigned c = 0; c != C; ++c)
        if (zero)
          CHECK(got["grad"][(t * B) * C + c] == 0.0f);
  }
}

TEST_CASE("CTC beam search finds the most likely labellings",
          "[popnn][ctc]") {
  // Every labelling of up to four symbols over two classes (31 of them),
  // scored by ctc_loss; a beam of 32 keeps every prefix, so is exact.
  const unsigned t2 = 4, b2 = 2, c2 = 3, blank2 = 1, beam = 32, top = 4;
  const auto logits = uniformValues(t2 * b2 * c2, -1.5f, 1.5f, 5);
  const std::vector<float> lengths = {4, 3};
  const auto ref = runPython(R"(
import itertools
T, B, C, blank = 4, 2, 3, 1
logits = torch.tensor(inp('logits')).reshape(T, B, C)
lp = torch.log_softmax(logits, 2)
lengths = inp('lengths').astype(int)
symbols = [c for c in range(C) if c != blank]
labellings = [()] + [s for n in range(1, T + 1)
                     for s in itertools.product(symbols, repeat=n)]
out['lp'] = lp
for b in range(B):
    scored = []
    for s in labellings:
        target = torch.tensor([list(s) + [0] * (T - len(s))])
        nll = torch.nn.functional.ctc_loss(
            lp[:, b:b + 1, :], target, torch.tensor([lengths[b]]),
            torch.tensor([len(s)]), blank=blank, reduction='none')
        scored.append((-nll.item(), s))
    scored.sort(key=lambda x: -x[0])
    best = scored[:4]
    out['probs%d' % b] = [p for p, _ in best]
    out['lengths%d' % b] = [len(s) for _, s in best]
    out['labels%d' % b] = [list(s) + [0] * (T - len(s)) for _, s in best]
)",
                             {{"logits", toDouble(logits)},
                              {"lengths", toDouble(lengths)}});
  const std::vector<float> lp(ref.at("lp").begin(), ref.at("lp").end());
  for (const bool fromLogits : {false, true}) {
    INFO("from " << (fromLogits ? "logits" : "log probabilities"));
    Rig rig;
    auto plan = popnn::ctc_infer::plan(rig.graph, FLOAT, b2, t2, c2, beam);
    Tensor data = rig.input(FLOAT, {t2, b2, c2}, "data",
                            fromLogits ? logits : lp);
    Tensor dataLengths = rig.input(UNSIGNED_INT, {b2}, "lengths", lengths);
    auto result =
        fromLogits ? popnn::ctc_infer::beamSearchDecoderLogits(
                         rig.graph, data, dataLengths, rig.prog, blank2, beam,
                         top, plan, "decode")
                   : popnn::ctc_infer::beamSearchDecoderLogProbabilities(
                         rig.graph, data, dataLengths, rig.prog, blank2, beam,
                         top, plan, "decode");
    REQUIRE(std::get<0>(result).shape() == std::vector<std::size_t>{b2, top});
    REQUIRE(std::get<2>(result).shape() ==
            std::vector<std::size_t>{b2, top, t2});
    rig.output(std::get<0>(result), "probs");
    rig.output(std::get<1>(result), "lengths");
    rig.output(std::get<2>(result), "labels");
    auto got = rig.run();
    for (unsigned b = 0; b != b2; ++b) {
      const std::string s = std::to_string(b);
      const std::vector<float> probs(got["probs"].begin() + b * top,
                                     got["probs"].begin() + (b + 1) * top);
      checkClose(probs, ref.at("probs" + s), 1e-4, 1e-5);
      for (unsigned p = 0; p != top; ++p) {
        CHECK(got["lengths"][b * top + p] == ref.at("lengths" + s)[p]);
        for (unsigned t = 0; t != t2; ++t)
          CHECK(got["labels"][(b * top + p) * t2 + t] ==
                ref.at("labels" + s)[p * t2 + t]);
      }
    }
  }
}

TEST_CASE("CTC beam search with a narrow beam agrees with best-path "
          "decoding on peaked data",
          "[popnn][ctc]") {
  // One class dominates each step, so the best path (arg max per step,
  // repeats merged, blanks removed) is the most likely labelling.
  const unsigned t2 = 8, c2 = 4, blank2 = 0;
  const std::vector<unsigned> best = {1, 1, 0, 2, 2, 3, 0, 3};
  std::vector<float> lp(t2 * c2);
  for (unsigned t = 0; t != t2; ++t)
    for (unsigned c = 0; c != c2; ++c)
      lp[t * c2 + c] = std::log(c == best[t] ? 0.97f : 0.01f);
  Rig rig;
  auto plan = popnn::ctc_infer::plan(rig.graph, FLOAT, 1, t2, c2, 3);
  Tensor data = rig.input(FLOAT, {t2, 1, c2}, "data", lp);
  Tensor lengths = rig.input(UNSIGNED_INT, {1}, "lengths", {float(t2)});
  auto result = popnn::ctc_infer::beamSearchDecoderLogProbabilities(
      rig.graph, data, lengths, rig.prog, blank2, 3, 1, plan);
  rig.output(std::get<1>(result), "length");
  rig.output(std::get<2>(result), "labels");
  auto got = rig.run();
  const std::vector<float> want = {1, 2, 3, 3}; // best path collapsed
  REQUIRE(got["length"][0] == want.size());
  for (unsigned i = 0; i != want.size(); ++i)
    CHECK(got["labels"][i] == want[i]);
}

TEST_CASE("CTC rejects bad plans, tensors and options", "[popnn][ctc]") {
  Rig rig;
  auto plan = popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C);
  Tensor data = rig.graph.addVariable(FLOAT, {T, B, C}, "data");
  Tensor labelsT = rig.graph.addVariable(UNSIGNED_INT, {B, L}, "labels");
  Tensor lengths = rig.graph.addVariable(UNSIGNED_INT, {B}, "lengths");
  Tensor wrongData = rig.graph.addVariable(FLOAT, {T, B, C + 1}, "wide");
  CHECK_THROWS_WITH(popnn::ctc::calcCTCLossLogProbabilities(
                        rig.graph, FLOAT, wrongData, labelsT, lengths, lengths,
                        rig.prog, blank, plan),
                    Contains("data") && Contains("wide"));
  Tensor intLabels = rig.graph.addVariable(INT, {B, L}, "intLabels");
  CHECK_THROWS_AS(popnn::ctc::calcCTCLossLogProbabilities(
                      rig.graph, FLOAT, data, intLabels, lengths, lengths,
                      rig.prog, blank, plan),
                  poputil::poplibs_error);
  CHECK_THROWS_WITH(popnn::ctc::calcCTCLossLogProbabilities(
                        rig.graph, FLOAT, data, labelsT, lengths, lengths,
                        rig.prog, C, plan),
                    Contains("blankClass"));
  CHECK_THROWS_AS(popnn::ctc::calcCTCLossLogProbabilities(
                      rig.graph, FLOAT, data, labelsT, lengths, lengths,
                      rig.prog, blank, plan, {}, {{"zeroInfinity", "maybe"}}),
                  poplar::invalid_option);
  CHECK_THROWS_WITH(popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C,
                                     {{"partialsType", "half"}}),
                    Contains("partialsType half"));
  CHECK_THROWS_WITH(popnn::ctc::plan(rig.graph, FLOAT, FLOAT, 0, T, L, C),
                    Contains("batchSize 0"));
  auto inferPlan = popnn::ctc_infer::plan(rig.graph, FLOAT, B, T, C, 4);
  CHECK_THROWS_WITH(popnn::ctc::calcCTCLossLogProbabilities(
                        rig.graph, FLOAT, data, labelsT, lengths, lengths,
                        rig.prog, blank, inferPlan),
                    Contains("inference plan"));
  CHECK_THROWS_WITH(popnn::ctc_infer::beamSearchDecoderLogProbabilities(
                        rig.graph, data, lengths, rig.prog, blank, 4, 5,
                        inferPlan),
                    Contains("topPaths 5"));
  CHECK_THROWS_WITH(popnn::ctc_infer::beamSearchDecoderLogProbabilities(
                        rig.graph, data, lengths, rig.prog, blank, 3, 1,
                        inferPlan),
                    Contains("beamwidth 3"));
  CHECK_THROWS_WITH(popnn::ctc::createLabelsInput(rig.graph, FLOAT, B, L, plan),
                    Contains("UNSIGNED_INT"));
  // Plans compare by content and print what they hold.
  CHECK(plan == popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C));
  CHECK(plan != inferPlan);
  std::ostringstream os;
  os << inferPlan;
  CHECK_THAT(os.str(), Contains("beamwidth 4"));
}

TEST_CASE("CTC planned inputs are mapped an entry to a tile",
          "[popnn][ctc]") {
  Rig rig;
  auto plan = popnn::ctc::plan(rig.graph, FLOAT, FLOAT, B, T, L, C);
  Tensor data = popnn::ctc::createDataInput(rig.graph, FLOAT, B, T, C, plan);
  Tensor lab = popnn::ctc::createLabelsInput(rig.graph, UNSIGNED_INT, B, L, plan);
  REQUIRE(data.shape() == std::vector<std::size_t>{T, B, C});
  const auto mapping = rig.graph.getTileMapping(lab);
  for (unsigned b = 0; b != B; ++b)
    CHECK(mapping[b % rig.graph.getTarget().getNumTiles()].size() > 0);
  CHECK_THROWS_WITH(
      popnn::ctc::createDataInput(rig.graph, FLOAT, B + 1, T, C, plan),
      Contains("plan"));
}
