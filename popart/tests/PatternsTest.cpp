// Patterns on the device under test (SDK_TEST_DEVICE): each rewrite and
// InPlace leave the numbers as they were (host loops, or the same session
// without the pattern), the backward Softmax/Nll patterns keep gradients
// finite, and the Patterns objects a session refuses are named.
#include "PopartTestDevice.hpp"
#include "SessionRun.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/patterns/patterns.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace popart;

namespace {

using Floats = std::vector<float>;

using popart_test::runStep;

// The scheduled ops of a session's IR: type and attributes.
nlohmann::json scheduledOps(Session &s) {
  return nlohmann::json::parse(s.serializeIr())["maingraph"];
}

int countType(const nlohmann::json &ops, const std::string &type) {
  int n = 0;
  for (const auto &op : ops)
    n += op["type"] == type;
  return n;
}

int countInplace(const nlohmann::json &ops) {
  int n = 0;
  for (const auto &op : ops)
    n += op["attributes"].contains("inplace");
  return n;
}

std::unique_ptr<InferenceSession> inference(const std::string &proto,
                                            const TensorId &anchor,
                                            const Patterns &patterns) {
  auto s = InferenceSession::createFromOnnxModel(
      proto, DataFlow(1, {{anchor, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice(), InputShapeInfo(), SessionOptions(),
      patterns);
  s->prepareDevice();
  s->weightsFromHost();
  return s;
}

} // namespace

TEST_CASE("InPlace writes into inputs no later op reads", "[popart][patterns]") {
  // a = exp(x) is read by both Relu and Sigmoid: only the later of the two
  // may overwrite it; Mul writes into relu's output, Neg into Mul's. The
  // streamed x and the anchored y are never written.
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  auto a = o.exp({x});
  auto r = o.relu({a});
  auto s = o.sigmoid({a});
  auto y = o.neg({o.mul({r, s})});
  const std::string proto = b->getModelProto();
  const Floats xs = {-1.0f, 0.0f, 0.5f, 2.0f};
  Floats want(4);
  for (int i = 0; i < 4; ++i) {
    const float e = std::exp(xs[i]);
    want[i] = -(std::max(e, 0.0f) * (1.0f / (1.0f + std::exp(-e))));
  }
  for (bool inplace : {true, false}) {
    INFO("InPlace " << inplace);
    Patterns patterns;
    patterns.enableInPlace(inplace);
    auto session = inference(proto, y, patterns);
    const auto got = runStep(*session, {{x, xs}}, {{y, 4}})[y];
    for (int i = 0; i < 4; ++i)
      REQUIRE(got[i] == Approx(want[i]).epsilon(1e-6));
    const auto ops = scheduledOps(*session);
    REQUIRE(countInplace(ops) == (inplace ? 3 : 0));
  }
}

TEST_CASE("Clip runs in place (ClipInplace) where its input is not read later",
          "[popart][patterns]") {
  // c = clip(exp(x), 0.5, 2) writes into exp's output; d = clip(c, lo),
  // the bound a streamed tensor, into c; a Clip of INT32 values (clipped
  // as themselves) into its Cast. x and the anchors are never written.
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{6}));
  auto lo = b->addInputTensor(TensorInfo("FLOAT", Shape{}));
  float cMin = 0.5f, cMax = 2.0f;
  auto constant = [&](float &v) {
    return o.constant(ConstVoidData(&v, TensorInfo("FLOAT", Shape{})));
  };
  auto c = o.clip({o.exp({x}), constant(cMin), constant(cMax)});
  auto d = o.clip({c, lo});
  std::int32_t i0 = 1, i1 = 3;
  auto e =
      o.clip({o.cast({d}, "INT32"),
              o.constant(ConstVoidData(&i0, TensorInfo("INT32", Shape{}))),
              o.constant(ConstVoidData(&i1, TensorInfo("INT32", Shape{})))});
  auto y = o.cast({e}, "FLOAT");
  auto z = o.neg({d});
  const std::string proto = b->getModelProto();
  const Floats xs = {-3.0f, -0.2f, 0.0f, 0.4f, 0.9f, NAN};
  const Floats los = {0.75f};
  Floats wantY(6), wantZ(6);
  for (int i = 0; i < 6; ++i) {
    // Clip is Max(Min(v, max), min): a NaN stays NaN.
    const float v = std::max(std::min(std::exp(xs[i]), cMax), cMin);
    const float w = std::isnan(v) ? v : std::max(v, los[0]);
    wantZ[i] = -w;
    const float n = std::isnan(w) ? 0.0f : w; // a NaN's INT32 is not checked
    wantY[i] = float(std::min(std::max(std::int32_t(n), i0), i1));
  }
  for (bool inplace : {true, false}) {
    INFO("InPlace " << inplace);
    Patterns patterns;
    patterns.enableInPlace(inplace);
    auto session = InferenceSession::createFromOnnxModel(
        proto,
        DataFlow(1,
                 {{y, AnchorReturnType("ALL")}, {z, AnchorReturnType("ALL")}}),
        popart_test::createTestDevice(), InputShapeInfo(), SessionOptions(),
        patterns);
    session->prepareDevice();
    auto got = runStep(*session, {{x, xs}, {lo, los}}, {{y, 6}, {z, 6}});
    for (int i = 0; i < 5; ++i) {
      INFO("element " << i);
      REQUIRE(got[y][i] == wantY[i]);
      REQUIRE(got[z][i] == wantZ[i]);
    }
    REQUIRE(std::isnan(got[z][5]));
    const auto ops = scheduledOps(*session);
    int clipsInPlace = 0;
    for (const auto &op : ops)
      clipsInPlace +=
          op["type"] == "Clip" && op["attributes"].contains("inplace");
    REQUIRE(clipsInPlace == (inplace ? 3 : 0));
  }
}

namespace {

// A 2-D convolution with stride 1 and `pad` on every side, in double:
// x [C, H, W], w [M, C, k, k], b [M] or empty; y [M, H + 2 pad - k + 1, ..].
std::vector<double> hostConv(const Floats &x, std::size_t c, std::size_t h,
                             std::size_t wd, const Floats &w, std::size_t m,
                             std::size_t k, const Floats &b, std::size_t pad) {
  const std::size_t oh = h + 2 * pad - k + 1, ow = wd + 2 * pad - k + 1;
  std::vector<double> y(m * oh * ow);
  for (std::size_t o = 0; o < m; ++o)
    for (std::size_t i = 0; i < oh; ++i)
      for (std::size_t j = 0; j < ow; ++j) {
        double sum = b.empty() ? 0.0 : b[o];
        for (std::size_t ci = 0; ci < c; ++ci)
          for (std::size_t u = 0; u < k; ++u)
            for (std::size_t v = 0; v < k; ++v) {
              const long r = long(i + u) - long(pad),
                         q = long(j + v) - long(pad);
              if (r >= 0 && q >= 0 && r < long(h) && q < long(wd))
                sum += double(x[(ci * h + r) * wd + q]) *
                       w[((o * c + ci) * k + u) * k + v];
            }
        y[(o * oh + i) * ow + j] = sum;
      }
  return y;
}

Floats wave(std::size_t n, float scale, float phase) {
  Floats v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * std::sin(0.7f * float(i) + phase);
  return v;
}

} // namespace

TEST_CASE("ConvActivation fuses a Relu or Clip into the Conv before it in "
          "inference",
          "[popart][patterns]") {
  // r = relu(conv(x, w1, b1)) and y = clip(conv(r, w2), 0, 0.5) are fused;
  // z = relu(c3) is not, its input c3 being anchored. The numbers are the
  // same bits with the pattern off, and a host loop's.
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 3, 6, 6}), "x");
  const Floats w1 = wave(8 * 3 * 9, 0.4f, 0.1f), b1 = wave(8, 0.2f, 0.5f),
               w2 = wave(16 * 8, 0.3f, 0.7f), w3 = wave(4 * 16, 0.5f, 0.3f);
  auto init = [&](const Floats &v, Shape shape, const std::string &name) {
    return b->addInitializedInputTensor({v.data(), TensorInfo("FLOAT", shape)},
                                        name);
  };
  float lo = 0.0f, hi = 0.5f;
  auto constant = [&](float &v) {
    return o.constant(ConstVoidData(&v, TensorInfo("FLOAT", Shape{})));
  };
  auto r =
      o.relu({o.conv({x, init(w1, {8, 3, 3, 3}, "w1"), init(b1, {8}, "b1")}, {},
                     1, {}, {1, 1, 1, 1}, {})});
  auto y =
      o.clip({o.conv({r, init(w2, {16, 8, 1, 1}, "w2")}, {}, 1, {}, {}, {}),
              constant(lo), constant(hi)});
  auto c3 = o.conv({y, init(w3, {4, 16, 1, 1}, "w3")}, {}, 1, {}, {}, {});
  auto z = o.relu({c3});
  const std::string proto = b->getModelProto();
  const Floats xs = wave(3 * 36, 1.0f, 0.0f);
  // The host loop.
  std::vector<double> hr = hostConv(xs, 3, 6, 6, w1, 8, 3, b1, 1);
  for (auto &v : hr)
    v = std::max(v, 0.0);
  Floats rf(hr.begin(), hr.end());
  std::vector<double> hy = hostConv(rf, 8, 6, 6, w2, 16, 1, {}, 0);
  for (auto &v : hy)
    v = std::min(std::max(v, double(lo)), double(hi));
  Floats yf(hy.begin(), hy.end());
  const std::vector<double> hc3 = hostConv(yf, 16, 6, 6, w3, 4, 1, {}, 0);
  std::map<TensorId, Floats> runs[2];
  for (bool fuse : {true, false}) {
    INFO("ConvActivation " << fuse);
    Patterns patterns;
    patterns.enablePattern("ConvActivation", fuse);
    REQUIRE(patterns.isPatternEnabled("ConvActivation") == fuse);
    auto session = InferenceSession::createFromOnnxModel(
        proto,
        DataFlow(1,
                 {{c3, AnchorReturnType("ALL")}, {z, AnchorReturnType("ALL")}}),
        popart_test::createTestDevice(), InputShapeInfo(), SessionOptions(),
        patterns);
    session->prepareDevice();
    session->weightsFromHost();
    runs[fuse] = runStep(*session, {{x, xs}}, {{c3, 4 * 36}, {z, 4 * 36}});
    const auto ops = scheduledOps(*session);
    int fused = 0;
    for (const auto &op : ops)
      fused += op["type"] == "Conv" && op["attributes"].contains("activation");
    REQUIRE(fused == (fuse ? 2 : 0));
    REQUIRE(countType(ops, "Relu") == (fuse ? 1 : 2));
    REQUIRE(countType(ops, "Clip") == (fuse ? 0 : 1));
    for (std::size_t i = 0; i < hc3.size(); ++i) {
      INFO("element " << i);
      REQUIRE(runs[fuse][c3][i] == Approx(hc3[i]).margin(1e-5));
      REQUIRE(runs[fuse][z][i] == Approx(std::max(hc3[i], 0.0)).margin(1e-5));
    }
  }
  REQUIRE(runs[1][c3] == runs[0][c3]);
  REQUIRE(runs[1][z] == runs[0][z]);
}

TEST_CASE("ConvActivation leaves training sessions as they are",
          "[popart][patterns]") {
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 2, 4, 4}), "x");
  const Floats w = wave(2 * 2 * 9, 0.4f, 0.2f);
  auto wId = b->addInitializedInputTensor(
      {w.data(), TensorInfo("FLOAT", Shape{2, 2, 3, 3})}, "w");
  auto r = o.relu({o.conv({x, wId}, {}, 1, {}, {1, 1, 1, 1}, {})});
  auto loss = b->aiGraphcoreOpset1().l1loss({r}, 1.0f);
  auto session = TrainingSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{r, AnchorReturnType("ALL")}}), loss,
      ConstSGD(0.1f), popart_test::createTestDevice());
  const auto ops = scheduledOps(*session);
  REQUIRE(countType(ops, "Relu") == 1);
  for (const auto &op : ops)
    REQUIRE_FALSE(op["attributes"].contains("activation"));
}

TEST_CASE("Training with InPlace gives the numbers it gives without",
          "[popart][patterns]") {
  auto train = [](bool inplace) {
    auto b = Builder::create();
    auto o = b->aiOnnxOpset11();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}), "x");
    auto label = b->addInputTensor(TensorInfo("INT32", Shape{2}), "label");
    Floats w1(12), w2(16);
    for (std::size_t i = 0; i < w1.size(); ++i)
      w1[i] = 0.3f * std::sin(float(i) + 0.5f);
    for (std::size_t i = 0; i < w2.size(); ++i)
      w2[i] = 0.4f * std::cos(float(i));
    auto W1 = b->addInitializedInputTensor(
        {w1.data(), TensorInfo("FLOAT", Shape{3, 4})}, "w1");
    auto W2 = b->addInitializedInputTensor(
        {w2.data(), TensorInfo("FLOAT", Shape{4, 4})}, "w2");
    auto h = o.tanh({o.relu({o.matmul({x, W1})})});
    auto h2 = o.add({o.sigmoid({h}), h});
    auto probs = o.softmax({o.matmul({h2, W2})}, 1);
    auto loss = b->aiGraphcoreOpset1().nllloss({probs, label});
    Patterns patterns;
    patterns.enableInPlace(inplace);
    auto s = TrainingSession::createFromOnnxModel(
        b->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("ALL")}}), loss,
        SGD({{"defaultLearningRate", {0.5f, true}},
             {"defaultMomentum", {0.9f, true}}}),
        popart_test::createTestDevice(), {}, SessionOptions(), patterns);
    s->prepareDevice();
    s->weightsFromHost();
    Floats losses;
    for (int k = 0; k < 3; ++k) {
      Floats xs = {0.1f * k, -0.4f, 0.7f, 0.2f, 0.9f, -0.3f * k};
      losses.push_back(runStep(*s, {{x, xs}}, {{loss, 1}},
                               {{label, {1, 3}}})[loss][0]);
    }
    return std::make_pair(losses, countInplace(scheduledOps(*s)));
  };
  const auto with = train(true), without = train(false);
  REQUIRE(with.first == without.first); // bit for bit
  REQUIRE(with.second > 0);
  REQUIRE(without.second == 0);
}

TEST_CASE("SoftmaxGradDirect keeps the gradient where p underflows",
          "[popart][patterns]") {
  // logits = x + w; softmax; nll (Sum). With x = [0, 200] and label 0,
  // p[0] is 0 in FLOAT: the loss is -log(1e-7) (probabilities are taken as
  // at least 1e-7), and -1/p (p at least 1e-10) through the softmax's
  // gradient vanishes, while (p - onehot) is [-1, 1].
  auto b = Builder::create();
  auto o = b->aiOnnxOpset13();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 2}), "x");
  auto label = b->addInputTensor(TensorInfo("INT32", Shape{1}), "label");
  Floats w = {0.0f, 0.0f};
  auto W = b->addInitializedInputTensor({w.data(), TensorInfo("FLOAT", Shape{2})},
                                        "w");
  auto logits = o.add({x, W});
  auto probs = o.softmax({logits}, 1);
  auto loss = b->aiGraphcoreOpset1().nllloss({probs, label},
                                             ReductionType::Sum);
  const std::string proto = b->getModelProto();
  const TensorId gradLogits = reservedGradientPrefix() + logits;
  auto run = [&](const Patterns &patterns, Floats xs) {
    auto s = TrainingSession::createFromOnnxModel(
        proto,
        DataFlow(1, {{loss, AnchorReturnType("ALL")},
                     {gradLogits, AnchorReturnType("ALL")}}),
        loss, ConstSGD(0.1f), popart_test::createTestDevice(), {},
        SessionOptions(), patterns);
    s->prepareDevice();
    s->weightsFromHost();
    auto out = runStep(*s, {{x, xs}}, {{loss, 1}, {gradLogits, 2}},
                       {{label, {0}}});
    out["ops"] = {float(countType(scheduledOps(*s), "SoftmaxGradDirect")),
                  float(countType(scheduledOps(*s), "NlllWithSoftmaxGradDirect"))};
    return out;
  };
  Patterns direct, fused, neither;
  direct.enablePattern("NlllWithSoftmaxGradDirect", false);
  neither.enablePattern("NlllWithSoftmaxGradDirect", false)
      .enablePattern("SoftmaxGradDirect", false);

  // Ordinary logits: the three agree with the host.
  const Floats xs = {0.5f, -0.25f};
  const float p0 = 1.0f / (1.0f + std::exp(-0.75f));
  for (const Patterns *p : {&direct, &fused, &neither}) {
    auto out = run(*p, xs);
    REQUIRE(out[loss][0] == Approx(-std::log(p0)).epsilon(1e-5));
    REQUIRE(out[gradLogits][0] == Approx(p0 - 1.0f).epsilon(1e-5));
    REQUIRE(out[gradLogits][1] == Approx(1.0f - p0).epsilon(1e-5));
  }
  REQUIRE(run(direct, xs)["ops"] == Floats{1, 0});
  REQUIRE(run(fused, xs)["ops"] == Floats{0, 1});
  REQUIRE(run(neither, xs)["ops"] == Floats{0, 0});

  // Extreme logits.
  const Floats extreme = {0.0f, 200.0f};
  for (const Patterns *p : {&direct, &fused, &neither}) {
    auto out = run(*p, extreme);
    REQUIRE(out[loss][0] == Approx(-std::log(1e-7f)).epsilon(1e-5));
    REQUIRE(out[gradLogits] ==
            (p == &neither ? Floats{0.0f, 0.0f} : Floats{-1.0f, 1.0f}));
  }
}

TEST_CASE("SumToAdd, NegativeOneScale, TransposeToIdentityOrReshape and "
          "PostNRepl compute what the ops they replace did",
          "[popart][patterns]") {
  auto b = Builder::create();
  auto o = b->aiOnnxOpset11();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 3, 1}));
  auto t = o.transpose({x}, {2, 1, 0});        // a reshape to [1, 3, 1]
  auto same = o.transpose({t}, {0, 1, 2});     // an identity
  auto n = b->aiGraphcoreOpset1().scale({same}, -1.0f);
  auto sum = o.sum({n, x});                    // SumToAdd
  auto one = o.sum({sum});                     // PostNRepl
  auto y = o.concat({one}, 1);                 // PostNRepl
  const std::string proto = b->getModelProto();
  const Floats xs = {1.0f, -2.0f, 3.5f};
  for (bool on : {true, false}) {
    INFO("patterns " << on);
    Patterns patterns;
    for (const char *name : {"SumToAdd", "NegativeOneScale",
                             "TransposeToIdentityOrReshapePattern", "PostNRepl"})
      patterns.enablePattern(name, on);
    auto s = inference(proto, y, patterns);
    // -x + x
    REQUIRE(runStep(*s, {{x, xs}}, {{y, 3}})[y] == Floats{0.0f, 0.0f, 0.0f});
    const auto ops = scheduledOps(*s);
    REQUIRE(countType(ops, "Transpose") == (on ? 0 : 2));
    REQUIRE(countType(ops, "Scale") == (on ? 0 : 1));
    REQUIRE(countType(ops, "Neg") == (on ? 1 : 0));
    REQUIRE(countType(ops, "Sum") == (on ? 0 : 2));
    REQUIRE(countType(ops, "Add") == (on ? 1 : 0));
    REQUIRE(countType(ops, "Concat") == (on ? 1 : 1)); // y is anchored
  }
}

TEST_CASE("Patterns a session refuses are named", "[popart][patterns]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
  auto y = b->aiOnnxOpset11().relu({x});
  const std::string proto = b->getModelProto();
  REQUIRE_THROWS_WITH(inference(proto, y, Patterns(PatternsLevel::NoPatterns)),
                      Catch::Contains("Pattern '") &&
                          Catch::Contains("must be enabled"));
  Patterns ipu;
  ipu.enableUpdateInplacePrioritiesForIpu(true);
  REQUIRE_THROWS_WITH(inference(proto, y, ipu),
                      Catch::Contains("UpdateInplacePrioritiesForIpu"));
  REQUIRE_THROWS_WITH(Patterns(std::vector<std::string>{"PadSum"}),
                      Catch::Contains("'PadSum' is not provided"));
  REQUIRE_THROWS_WITH(Patterns(std::vector<std::string>{"Inplace"}),
                      Catch::Contains("did you mean InPlace"));
  // With runtime asserts off, no patterns at all is allowed.
  auto s = inference(proto, y,
                     Patterns(PatternsLevel::NoPatterns).enableRuntimeAsserts(false));
  REQUIRE(runStep(*s, {{x, {-1.0f, 2.0f}}}, {{y, 2}})[y] == Floats{0.0f, 2.0f});
}
