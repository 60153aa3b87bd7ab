// Inference sessions on the device under test (SDK_TEST_DEVICE): ops
// against host loops, anchors and batchesPerStep, StepIO errors, and the
// errors of unsupported models.
#include "PopartTestDevice.hpp"
#include "ProcessFile.hpp"

#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>

using namespace popart;

namespace {

using Floats = std::vector<float>;

// Runs one step of a model with FLOAT inputs and one FLOAT anchor.
Floats runFloat(const std::string &proto,
                const std::map<TensorId, Floats> &inputs, const TensorId &out,
                std::size_t outElements, const DataFlow &flow) {
  auto session =
      InferenceSession::createFromOnnxModel(proto, flow, popart_test::createTestDevice());
  session->prepareDevice();
  session->weightsFromHost();
  std::map<TensorId, Floats> data = inputs;
  std::vector<NDArrayWrapper<float>> wrappers;
  wrappers.reserve(data.size() + 1);
  std::map<TensorId, IArray &> ins, outs;
  for (auto &d : data) {
    wrappers.emplace_back(d.second.data(), Shape{int64_t(d.second.size())});
    ins.emplace(d.first, wrappers.back());
  }
  Floats result(outElements);
  wrappers.emplace_back(result.data(), Shape{int64_t(result.size())});
  outs.emplace(out, wrappers.back());
  StepIO stepio(ins, outs);
  session->run(stepio);
  return result;
}

Floats runFloat(const std::string &proto,
                const std::map<TensorId, Floats> &inputs, const TensorId &out,
                std::size_t outElements) {
  return runFloat(proto, inputs, out, outElements,
                  DataFlow(1, {{out, AnchorReturnType("ALL")}}));
}

Floats iota(std::size_t n, float start, float step) {
  Floats v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = start + step * float(i);
  return v;
}

void requireClose(const Floats &got, const Floats &want, float tol = 1e-5f) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).epsilon(tol).margin(tol));
  }
}

} // namespace

TEST_CASE("Unary element-wise ops match host loops", "[popart][session]") {
  using Fn = std::function<float(float)>;
  const std::vector<std::pair<std::string, Fn>> ops = {
      {"abs", [](float x) { return std::fabs(x); }},
      {"neg", [](float x) { return -x; }},
      {"exp", [](float x) { return std::exp(x); }},
      {"relu", [](float x) { return x > 0 ? x : 0.0f; }},
      {"sigmoid", [](float x) { return 1.0f / (1.0f + std::exp(-x)); }},
      {"tanh", [](float x) { return std::tanh(x); }},
      {"erf", [](float x) { return std::erf(x); }},
      {"floor", [](float x) { return std::floor(x); }},
      {"ceil", [](float x) { return std::ceil(x); }},
  };
  const Floats x = iota(6, -1.25f, 0.5f);
  for (const auto &op : ops) {
    DYNAMIC_SECTION(op.first) {
      auto b = Builder::create();
      auto in = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}));
      auto o11 = b->aiOnnxOpset11();
      TensorId out;
      if (op.first == "abs") out = o11.abs({in});
      else if (op.first == "neg") out = o11.neg({in});
      else if (op.first == "exp") out = o11.exp({in});
      else if (op.first == "relu") out = o11.relu({in});
      else if (op.first == "sigmoid") out = o11.sigmoid({in});
      else if (op.first == "tanh") out = o11.tanh({in});
      else if (op.first == "erf") out = o11.erf({in});
      else if (op.first == "floor") out = o11.floor({in});
      else out = o11.ceil({in});
      b->addOutputTensor(out);
      Floats want;
      for (float v : x)
        want.push_back(op.second(v));
      requireClose(runFloat(b->getModelProto(), {{in, x}}, out, 6), want);
    }
  }
  SECTION("log, sqrt and reciprocal of positive values") {
    auto b = Builder::create();
    auto in = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
    auto o = b->aiOnnxOpset11();
    auto out = o.add({o.log({in}), o.add({o.sqrt({in}), o.reciprocal({in})})});
    b->addOutputTensor(out);
    const Floats v = {0.5f, 1.0f, 2.0f, 9.0f};
    Floats want;
    for (float e : v)
      want.push_back(std::log(e) + std::sqrt(e) + 1.0f / e);
    requireClose(runFloat(b->getModelProto(), {{in, v}}, out, 4), want);
  }
}

TEST_CASE("Binary ops broadcast as numpy does", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}));
  auto y = b->addInputTensor(TensorInfo("FLOAT", Shape{3}));
  auto o = b->aiOnnxOpset13();
  // ((x + y) * y - x / y) ^ 2, then max/min/mean with x
  auto t = o.sub({o.mul({o.add({x, y}), y}), o.div({x, y})});
  auto p = o.pow({t, b->aiOnnxOpset13().constant(
                         ConstVoidData(std::vector<float>{2.0f}.data(),
                                       TensorInfo("FLOAT", Shape{})))});
  auto out = o.mean({o.max({p, x}), o.min({p, x}), o.sum({x, y})});
  b->addOutputTensor(out);
  const Floats xv = iota(6, -2.0f, 0.75f), yv = {1.5f, -0.5f, 2.0f};
  Floats want(6);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float xe = xv[i * 3 + j], ye = yv[j];
      float pe = std::pow((xe + ye) * ye - xe / ye, 2.0f);
      want[i * 3 + j] = (std::max(pe, xe) + std::min(pe, xe) + (xe + ye)) / 3.0f;
    }
  requireClose(runFloat(b->getModelProto(), {{x, xv}, {y, yv}}, out, 6), want,
               1e-4f);
}

TEST_CASE("Comparisons, logic, Where and Clip", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{6}));
  auto y = b->addInputTensor(TensorInfo("FLOAT", Shape{6}));
  auto o = b->aiOnnxOpset11();
  auto cond = o.logical_or(
      {o.logical_and({o.greater({x, y}), o.logical_not({o.equal({x, y})})}),
       o.less({x, o.neg({y})})});
  // Clip-11 takes min and max as inputs: build it through constants.
  float lo = -1.0f, hi = 3.0f;
  auto minT = o.constant(ConstVoidData(&lo, TensorInfo("FLOAT", Shape{})));
  auto maxT = o.constant(ConstVoidData(&hi, TensorInfo("FLOAT", Shape{})));
  auto clipped = o.clip({o.where({cond, x, y}), minT, maxT});
  b->addOutputTensor(clipped);
  const Floats xv = {5, -4, 1, 2, 0.5f, -3}, yv = {1, 2, 1, 4, -0.25f, 5};
  Floats want;
  for (int i = 0; i < 6; ++i) {
    bool c = (xv[i] > yv[i] && xv[i] != yv[i]) || xv[i] < -yv[i];
    float v = c ? xv[i] : yv[i];
    want.push_back(std::min(std::max(v, lo), hi));
  }
  requireClose(runFloat(b->getModelProto(), {{x, xv}, {y, yv}}, clipped, 6),
               want);
}

TEST_CASE("MatMul with batch broadcasting, and Gemm", "[popart][session]") {
  SECTION("MatMul [2,3,4] x [4,5]") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3, 4}));
    Floats wv = iota(20, -1.0f, 0.1f);
    auto w = b->addInitializedInputTensor(
        ConstVoidData(wv.data(), TensorInfo("FLOAT", Shape{4, 5})));
    auto out = b->aiOnnxOpset13().matmul({x, w});
    b->addOutputTensor(out);
    Floats xv = iota(24, 0.5f, -0.05f), want(30, 0.0f);
    for (int g = 0; g < 2; ++g)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j)
          for (int k = 0; k < 4; ++k)
            want[(g * 3 + i) * 5 + j] += xv[(g * 3 + i) * 4 + k] * wv[k * 5 + j];
    requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 30), want);
  }
  SECTION("Gemm, transB, alpha, beta and a broadcast C") {
    auto b = Builder::create();
    auto a = b->addInputTensor(TensorInfo("FLOAT", Shape{3, 2}));
    Floats bv = iota(8, 1.0f, -0.25f), cv = {0.5f, -1.0f, 2.0f, 0.0f};
    auto bt = b->addInitializedInputTensor(
        ConstVoidData(bv.data(), TensorInfo("FLOAT", Shape{4, 2})));
    auto c = b->addInitializedInputTensor(
        ConstVoidData(cv.data(), TensorInfo("FLOAT", Shape{4})));
    auto out = b->aiOnnxOpset11().gemm({a, bt, c}, 0.5f, 2.0f, 0, 1);
    b->addOutputTensor(out);
    Floats av = iota(6, -1.0f, 0.5f), want(12);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        float s = 0;
        for (int k = 0; k < 2; ++k)
          s += av[i * 2 + k] * bv[j * 2 + k];
        want[i * 4 + j] = 0.5f * s + 2.0f * cv[j];
      }
    requireClose(runFloat(b->getModelProto(), {{a, av}}, out, 12), want);
  }
}

TEST_CASE("Shape ops, with shapes computed by folded constants",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3, 4}));
  auto o = b->aiOnnxOpset13();
  // Reshape x to [2, 12] with a shape computed from Shape/Gather/Concat, as
  // exporters write it.
  int64_t zero = 0, minusOne = -1;
  auto shape = o.shape({x});
  auto batch = o.gather(
      {shape, o.constant(ConstVoidData(&zero, TensorInfo("INT64", Shape{1})))}, 0);
  auto rest = o.constant(ConstVoidData(&minusOne, TensorInfo("INT64", Shape{1})));
  auto flat = o.reshape({x, o.concat({batch, rest}, 0)});      // [2,12]
  auto t = o.transpose({flat}, std::vector<int64_t>{1, 0});    // [12,2]
  int64_t s0 = 2, e0 = 10, ax = 0, st = 3;
  auto sliced = o.slice(
      {t, o.constant(ConstVoidData(&s0, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&e0, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&ax, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&st, TensorInfo("INT64", Shape{1})))}); // rows 2,5,8
  auto both = o.concat({sliced, sliced}, 1);                    // [3,4]
  int64_t idx[2] = {-1, 0};
  auto g = o.gather(
      {both, o.constant(ConstVoidData(idx, TensorInfo("INT64", Shape{2})))}, 0);
  auto out = o.flatten({o.unsqueeze(
      {g, o.constant(ConstVoidData(&zero, TensorInfo("INT64", Shape{1})))})}, 0);
  b->addOutputTensor(out);
  Floats xv = iota(24, 0.0f, 1.0f);
  // t[r][c] = x flat[c*12 + r]; rows 2,5,8; concat twice; rows -1 (8), 0 (2)
  Floats want;
  for (int r : {8, 2})
    for (int rep = 0; rep < 2; ++rep)
      for (int c = 0; c < 2; ++c)
        want.push_back(xv[c * 12 + r]);
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 8), want);
}

TEST_CASE("Inputs with no elements stream nothing", "[popart][session]") {
  // Found by fuzz/OnnxModelFuzzer.cpp: the stream callbacks copied zero
  // bytes from and to null buffers (undefined behaviour).
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{3, 0, 2}));
  auto out = b->aiOnnxOpset13().reducel1({x});
  b->addOutputTensor(out);
  requireClose(runFloat(b->getModelProto(), {{x, {}}}, out, 1), {0.0f});
}

TEST_CASE("Softmax, LogSoftmax and reductions", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}));
  auto o = b->aiOnnxOpset13();
  auto sm = o.softmax({x}, 0);                 // along axis 0
  auto lsm = o.logsoftmax({x}, -1);            // along axis 1
  auto rmean = o.reducemean({x}, std::vector<int64_t>{1}, 1); // [2,1]
  auto rmax = o.reducemax({x}, std::vector<int64_t>{0}, 0);   // [3]
  auto rprod = o.reduceprod({x}, std::vector<int64_t>{1}, 0); // [2]
  int64_t axis1 = 1;
  auto rsum = o.reducesum(
      {x, o.constant(ConstVoidData(&axis1, TensorInfo("INT64", Shape{1})))}, 0); // [2]
  // out = sm + lsm + rmean (broadcast) + rmax (broadcast) + (rprod-rsum)[:,None]
  int64_t one = 1;
  auto col = o.unsqueeze(
      {o.sub({rprod, rsum}),
       o.constant(ConstVoidData(&one, TensorInfo("INT64", Shape{1})))});
  auto out = o.add({o.add({o.add({sm, lsm}), o.add({rmean, rmax})}), col});
  b->addOutputTensor(out);
  const Floats xv = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
  Floats want(6);
  for (int i = 0; i < 2; ++i) {
    float mx = std::max({xv[i * 3], xv[i * 3 + 1], xv[i * 3 + 2]});
    float se = 0, sum = 0, prod = 1;
    for (int j = 0; j < 3; ++j) {
      se += std::exp(xv[i * 3 + j] - mx);
      sum += xv[i * 3 + j];
      prod *= xv[i * 3 + j];
    }
    for (int j = 0; j < 3; ++j) {
      float a = xv[j], c = xv[3 + j];
      float smv = std::exp(xv[i * 3 + j]) / (std::exp(a) + std::exp(c));
      float lsmv = xv[i * 3 + j] - mx - std::log(se);
      want[i * 3 + j] = smv + lsmv + sum / 3 + std::max(a, c) + (prod - sum);
    }
  }
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 6), want, 1e-4f);
}

TEST_CASE("Anchors ALL, EVERYN, FINAL and SUM over batchesPerStep",
          "[popart][session][anchors]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
  auto o = b->aiOnnxOpset11();
  auto all = o.mul({x, x}, "all");
  auto everyn = o.add({all, x}, "everyn");
  auto fin = o.neg({x}, "final");
  auto sum = o.identity({x}, "sum");
  const int bps = 4;
  DataFlow flow(bps, {{all, AnchorReturnType("ALL")},
                      {everyn, AnchorReturnType("EVERYN", 2)},
                      {fin, AnchorReturnType("FINAL")},
                      {sum, AnchorReturnType("SUM")}});
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), flow, popart_test::createTestDevice());
  session->prepareDevice();
  // Input data shape [batchesPerStep, 2]; any shape with 8 elements works.
  Floats xv = iota(8, -1.0f, 0.5f);
  Floats allOut(8), everyOut(4), finalOut(2), sumOut(2);
  NDArrayWrapper<float> xw(xv.data(), {2, 2, 2});
  NDArrayWrapper<float> aw(allOut.data(), {4, 2}), ew(everyOut.data(), {2, 2}),
      fw(finalOut.data(), {2}), sw(sumOut.data(), {2});
  std::map<TensorId, IArray &> ins = {{x, xw}};
  std::map<TensorId, IArray &> outs = {
      {all, aw}, {everyn, ew}, {fin, fw}, {sum, sw}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  for (int i = 0; i < 8; ++i)
    REQUIRE(allOut[i] == Approx(xv[i] * xv[i]));
  // EVERYN 2: batches 2 and 4 (indices 1 and 3).
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) {
      float v = xv[(2 * k + 1) * 2 + j];
      REQUIRE(everyOut[k * 2 + j] == Approx(v * v + v));
    }
  for (int j = 0; j < 2; ++j) {
    REQUIRE(finalOut[j] == Approx(-xv[6 + j]));
    REQUIRE(sumOut[j] ==
            Approx(xv[j] + xv[2 + j] + xv[4 + j] + xv[6 + j]).margin(1e-6));
  }
  SECTION("a second step sees the next data, and SUM starts again") {
    Floats xv2 = iota(8, 2.0f, 1.0f);
    NDArrayWrapper<float> xw2(xv2.data(), {8});
    std::map<TensorId, IArray &> ins2 = {{x, xw2}};
    StepIO stepio2(ins2, outs);
    session->run(stepio2);
    REQUIRE(sumOut[0] == Approx(2 + 4 + 6 + 8));
    REQUIRE(finalOut[1] == Approx(-9));
  }
}

TEST_CASE("StepIO errors: missing input, wrong sizes",
          "[popart][session][stepio]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{3}));
  auto y = b->addInputTensor(TensorInfo("FLOAT", Shape{3}));
  auto out = b->aiOnnxOpset11().add({x, y});
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(2, {{out, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice());
  session->prepareDevice();
  Floats xv(6, 1.0f), yv(6, 2.0f), short4(4, 0.0f), result(6), small(3);
  NDArrayWrapper<float> xw(xv.data(), {2, 3}), yw(yv.data(), {2, 3}),
      sw(short4.data(), {4}), rw(result.data(), {2, 3}), smw(small.data(), {3});
  std::map<TensorId, IArray &> outs = {{out, rw}};

  SECTION("an input missing") {
    std::map<TensorId, IArray &> ins = {{x, xw}};
    StepIO stepio(ins, outs);
    REQUIRE_THROWS_WITH(session->run(stepio),
                        Catch::Contains("no input array") && Catch::Contains(y));
  }
  SECTION("an input of the wrong size") {
    std::map<TensorId, IArray &> ins = {{x, xw}, {y, sw}};
    StepIO stepio(ins, outs);
    REQUIRE_THROWS_WITH(session->run(stepio),
                        Catch::Contains(y) && Catch::Contains("4 elements") &&
                            Catch::Contains("needs 6"));
  }
  SECTION("an anchor array of the wrong size") {
    std::map<TensorId, IArray &> ins = {{x, xw}, {y, yw}};
    std::map<TensorId, IArray &> badOuts = {{out, smw}};
    StepIO stepio(ins, badOuts);
    REQUIRE_THROWS_WITH(session->run(stepio), Catch::Contains(out));
  }
  SECTION("a callback giving the wrong amount of data") {
    StepIOCallback cb(
        [&](TensorId id, bool) {
          return ConstVoidData(xv.data(), TensorInfo("FLOAT", Shape{2}));
        },
        [](TensorId) {},
        [&](TensorId) {
          MutableVoidData d;
          d.data = result.data();
          d.info = TensorInfo("FLOAT", Shape{3});
          return d;
        },
        [](TensorId) {});
    REQUIRE_THROWS_WITH(session->run(cb), Catch::Contains("2 elements"));
  }
  SECTION("the session still runs with good data after errors") {
    std::map<TensorId, IArray &> ins = {{x, xw}, {y, yw}};
    StepIO stepio(ins, outs);
    session->run(stepio);
    for (float v : result)
      REQUIRE(v == 3.0f);
  }
}

TEST_CASE("Unsupported models fail at session creation",
          "[popart][session][errors]") {
  auto device = popart_test::createTestDevice();
  SECTION("an op type without an IR op") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}));
    auto y = b->aiOnnxOpset11().lpnormalization({x}, -1, 2, "myLpNorm");
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}),
            device),
        Catch::Contains("LpNormalization") && Catch::Contains("myLpNorm") &&
            Catch::Contains("version 1"));
  }
  SECTION("a version of an op that is not supported") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
    auto y = b->aiOnnxOpset6().equal({x, x}, nonstd::nullopt, 0, "oldEqual");
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}),
            device),
        Catch::Contains("oldEqual") && Catch::Contains("version 1") &&
            Catch::Contains("Equal") && Catch::Contains("supported versions"));
  }
  SECTION("a shape that allowzero=1 makes ambiguous") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 2}));
    int64_t shape[2] = {0, -1};
    auto s = b->aiOnnxOpset14().constant(
        ConstVoidData(shape, TensorInfo("INT64", Shape{2})));
    auto y = b->aiOnnxOpset14().reshape({x, s}, 1, "zeroReshape");
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}),
            device),
        Catch::Contains("zeroReshape") && Catch::Contains("allowzero"));
  }
  SECTION("an anchor that is not in the model") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
    b->aiOnnxOpset11().relu({x});
    REQUIRE_THROWS_WITH(
        InferenceSession::createFromOnnxModel(
            b->getModelProto(), DataFlow(1, {{"nope", AnchorReturnType("ALL")}}),
            device),
        Catch::Contains("nope"));
  }
  SECTION("a truncated model file, and bytes that are no model") {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{8}));
    Floats w(8, 0.5f);
    auto wt = b->addInitializedInputTensor(
        ConstVoidData(w.data(), TensorInfo("FLOAT", Shape{8})));
    auto y = b->aiOnnxOpset11().add({x, wt});
    const std::string proto = b->getModelProto();
    const std::string file =
        popart_test::processFile("popart_session_test_truncated", ".onnx");
    {
      std::ofstream out(file, std::ios::binary);
      out << proto.substr(0, proto.size() / 2);
    }
    DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
    REQUIRE_THROWS_AS(InferenceSession::createFromOnnxModel(file, flow, device),
                      popart::error);
    REQUIRE_THROWS_WITH(InferenceSession::createFromOnnxModel(file, flow, device),
                        Catch::Contains(file));
    REQUIRE_THROWS_AS(InferenceSession::createFromOnnxModel(
                          proto.substr(0, proto.size() - 7), flow, device),
                      popart::error);
    REQUIRE_THROWS_AS(InferenceSession::createFromOnnxModel(
                          "no-such-model.onnx", flow, device),
                      popart::error);
    std::remove(file.c_str());
  }
}

TEST_CASE("A model file, weights as variables, and the reports",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  Floats w = {1, 2, 3, 4};
  auto wt = b->addInitializedInputTensor(
      ConstVoidData(w.data(), TensorInfo("FLOAT", Shape{4})));
  auto y = b->aiOnnxOpset11().mul({x, wt});
  b->addOutputTensor(y);
  const std::string file =
      popart_test::processFile("popart_session_test_model", ".onnx");
  b->saveModelProto(file);
  SessionOptions opts;
  opts.constantWeights = false; // the weights are streamed by weightsFromHost
  auto session = InferenceSession::createFromOnnxModel(
      file, DataFlow(1, {{y, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice(), InputShapeInfo(), opts);
  session->prepareDevice();
  session->weightsFromHost();
  Floats xv = {2, 2, 2, 2}, out(4);
  NDArrayWrapper<float> xw(xv.data(), {4}), ow(out.data(), {4});
  std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{y, ow}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  requireClose(out, {2, 4, 6, 8});
  REQUIRE(session->getInfo(y) == TensorInfo("FLOAT", Shape{4}));
  if (session->getDevice()->getType() == DeviceType::IpuModel) {
    REQUIRE(session->getSummaryReport().find("Memory Usage") != std::string::npos);
    REQUIRE(session->getGraphReport().find('{') != std::string::npos);
  } else {
    // The CPU target has no profile (poplar says so).
    REQUIRE_THROWS(session->getSummaryReport());
  }
  REQUIRE(session->serializeIr().find("\"Mul\"") != std::string::npos);

  // The weights back from the device, written into a model that gives the
  // same results.
  session->weightsToHost();
  const std::string saved =
      popart_test::processFile("popart_session_test_saved", ".onnx");
  session->modelToHost(saved);
  auto again = InferenceSession::createFromOnnxModel(
      saved, DataFlow(1, {{y, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice());
  again->prepareDevice();
  again->weightsFromHost();
  Floats out2(4);
  NDArrayWrapper<float> ow2(out2.data(), {4});
  std::map<TensorId, IArray &> outs2 = {{y, ow2}};
  StepIO stepio2(ins, outs2);
  again->run(stepio2);
  requireClose(out2, {2, 4, 6, 8});

  // writeWeights changes the first session's weights (variables); the
  // second holds them as constants (constantWeights by default) and says so.
  Floats newWeights = {-1, 0, 1, 2};
  WeightsIO io;
  io.insert(wt, {newWeights.data(), TensorInfo("FLOAT", Shape{4})});
  session->writeWeights(io);
  session->weightsFromHost();
  session->run(stepio);
  requireClose(out, {-2, 0, 2, 4});
  REQUIRE_THROWS_WITH(again->writeWeights(io),
                      Catch::Contains("'" + wt + "' is a constant") &&
                          Catch::Contains("constantWeights"));
  std::remove(file.c_str());
  std::remove(saved.c_str());
}

TEST_CASE("getCycleCount gives the simulated cycles of the last run",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{64}));
  auto y = b->aiOnnxOpset11().exp({x});
  b->addOutputTensor(y);
  const DataFlow flow(2, {{y, AnchorReturnType("ALL")}});
  auto runOnce = [&](const SessionOptions &opts, bool readProfile) {
    auto session = InferenceSession::createFromOnnxModel(
        b->getModelProto(), flow, popart_test::createTestDevice(),
        InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    Floats xv(128, 0.5f), out(128);
    NDArrayWrapper<float> xw(xv.data(), {2, 64}), ow(out.data(), {2, 64});
    std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{y, ow}};
    StepIO stepio(ins, outs);
    if (readProfile) // the cycles from here on are the step's alone
      session->getExecutionReport(false, /*resetProfile=*/true);
    session->run(stepio);
    return session;
  };
  SessionOptions counting;
  counting.instrumentWithHardwareCycleCounter = true;
  const bool ipuModel = popart_test::createTestDevice()->getType() == DeviceType::IpuModel;
  auto session = runOnce(counting, ipuModel);
  if (!ipuModel) {
    REQUIRE_THROWS_WITH(session->getCycleCount(),
                        Catch::Contains("CPU device counts no cycles"));
    return;
  }
  const auto profile = nlohmann::json::parse(session->getExecutionReport());
  const uint64_t cycles = session->getCycleCount();
  REQUIRE(cycles > 0);
  REQUIRE(cycles == profile.at("simulation").at("cycles").get<uint64_t>());
  REQUIRE_THROWS_WITH(session->getCycleCount("inner"),
                      Catch::Contains("'inner'"));
  // Without the option there is no counter, as in the original.
  REQUIRE_THROWS_WITH(runOnce(SessionOptions(), false)->getCycleCount(),
                      Catch::Contains("instrumentWithHardwareCycleCounter"));
}

TEST_CASE("DeviceManager without IPU hardware", "[popart][device]") {
  auto &dm = DeviceManager::createDeviceManager();
  REQUIRE(dm.enumerateDevices().empty());
  REQUIRE(dm.tryAcquireAvailableDevice(1) == nullptr);
  REQUIRE_THROWS_WITH(dm.acquireAvailableDevice(2),
                      Catch::Contains("Failed to acquire device with 2 IPUs"));
  REQUIRE(dm.tryAcquireDeviceById(5) == nullptr);
  REQUIRE_THROWS_AS(dm.acquireDeviceById(5), popart::error);
  REQUIRE_THROWS_WITH(dm.createIpuModelDevice({{"numTiles", "4"}}),
                      Catch::Contains("numTiles"));
  REQUIRE_THROWS_WITH(dm.createIpuModelDevice({{"tilesPerIPU", "x"}}),
                      Catch::Contains("tilesPerIPU"));
  auto model = dm.createIpuModelDevice(
      {{"numIPUs", "1"}, {"tilesPerIPU", "8"}, {"ipuVersion", "ipu1"}});
  REQUIRE(model->getType() == DeviceType::IpuModel);
  REQUIRE(model->getTilesPerIPU() == 8);
  REQUIRE(model->getNumIpus() == 1);
  REQUIRE(model->getIpuVersion() == "ipu1");
  auto cpu = dm.createCpuDevice();
  REQUIRE(cpu->getType() == DeviceType::Cpu);
  REQUIRE(cpu->isAttached());
}

TEST_CASE("ai.graphcore ops: Gelu, GeluErf, Scale, ScaledAdd, Detach",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{5}));
  auto gc = b->aiGraphcoreOpset1();
  auto g = gc.gelu({x});
  auto ge = gc.geluerf({gc.detach({x})});
  auto out = gc.scaledadd({gc.scale({g}, 2.0f), ge}, 0.5f, -3.0f);
  b->addOutputTensor(out);
  REQUIRE(b->getTensorShape(out) == Shape{5});
  const Floats xv = {-2.0f, -0.5f, 0.0f, 0.75f, 3.0f};
  Floats want;
  for (float v : xv) {
    float tanhForm =
        0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    float erfForm = 0.5f * v * (1.0f + std::erf(v / std::sqrt(2.0f)));
    want.push_back(0.5f * 2.0f * tanhForm - 3.0f * erfForm);
  }
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 5), want, 1e-4f);
}

TEST_CASE("More reductions, Pow of integers, Dropout's mask, Shape ranges",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3}));
  auto o = b->aiOnnxOpset15();
  const std::vector<int64_t> axis1{1};
  auto l1 = o.reducel1({x}, axis1, 0);
  auto l2 = o.reducel2({x}, axis1, 0);
  auto lse = o.reducelogsumexp({x}, axis1, 0);
  auto sq = o.reducesumsquare({x}, axis1, 0);
  auto drop = o.dropout({x}, 2, 0);
  auto kept = o.cast({drop.at(1)}, "FLOAT");                 // all ones
  auto shapeTail = o.shape({x}, nonstd::nullopt, -1);          // [3]
  auto le = o.cast({o.lessorequal({x, o.neg({x})})}, "FLOAT"); // x <= -x
  // out[i] = l1 + l2 + lse + sq + sum_j(kept)[i] + shapeTail + sum_j le
  auto perRow = o.sum({l1, l2, lse, sq, o.reducesum({kept, b->aiOnnxOpset15().constant(
                                                          ConstVoidData(axis1.data(), TensorInfo("INT64", Shape{1})))}, 0),
                       o.reducesum({le, b->aiOnnxOpset15().constant(
                                            ConstVoidData(axis1.data(), TensorInfo("INT64", Shape{1})))}, 0)});
  auto out = o.add({perRow, o.cast({shapeTail}, "FLOAT")});
  b->addOutputTensor(out);
  const Floats xv = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f};
  Floats want;
  for (int i = 0; i < 2; ++i) {
    double a1 = 0, a2 = 0, se = 0, lecount = 0;
    for (int j = 0; j < 3; ++j) {
      double v = xv[i * 3 + j];
      a1 += std::fabs(v);
      a2 += v * v;
      se += std::exp(v);
      lecount += v <= -v;
    }
    want.push_back(float(a1 + std::sqrt(a2) + std::log(se) + a2 + 3 + lecount + 3));
  }
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 2), want, 1e-4f);

  SECTION("Pow of INT32 values") {
    auto c = Builder::create();
    auto base = c->addInputTensor(TensorInfo("INT32", Shape{4}));
    int32_t e = 3;
    auto p = c->aiOnnxOpset13().pow(
        {base, c->aiOnnxOpset13().constant(ConstVoidData(&e, TensorInfo("INT32", Shape{})))});
    c->addOutputTensor(p);
    auto session = InferenceSession::createFromOnnxModel(
        c->getModelProto(), DataFlow(1, {{p, AnchorReturnType("ALL")}}),
        popart_test::createTestDevice());
    session->prepareDevice();
    std::vector<int32_t> in = {-2, 0, 3, 5}, res(4);
    NDArrayWrapper<int32_t> iw(in.data(), {4}), rw(res.data(), {4});
    std::map<TensorId, IArray &> ins = {{base, iw}}, outs = {{p, rw}};
    StepIO stepio(ins, outs);
    session->run(stepio);
    REQUIRE(res == std::vector<int32_t>{-8, 0, 27, 125});
  }
}

TEST_CASE("Element-wise ops on 8-bit integers", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("INT8", Shape{5}));
  auto y = b->addInputTensor(TensorInfo("INT8", Shape{5}));
  auto o = b->aiOnnxOpset13();
  int8_t lo = -3, hi = 4;
  auto out = o.clip({o.max({o.add({x, y}), y}),
                     o.constant(ConstVoidData(&lo, TensorInfo("INT8", Shape{}))),
                     o.constant(ConstVoidData(&hi, TensorInfo("INT8", Shape{})))});
  b->addOutputTensor(out);
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{out, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice());
  session->prepareDevice();
  std::vector<int8_t> xv = {-7, -1, 0, 2, 9}, yv = {1, -4, 2, 1, -2}, res(5);
  NDArrayWrapper<int8_t> xw(xv.data(), {5}), yw(yv.data(), {5}), rw(res.data(), {5});
  std::map<TensorId, IArray &> ins = {{x, xw}, {y, yw}}, outs = {{out, rw}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  for (int i = 0; i < 5; ++i) {
    int v = std::max(xv[i] + yv[i], int(yv[i]));
    REQUIRE(int(res[i]) == std::min(std::max(v, int(lo)), int(hi)));
  }
}

TEST_CASE("A graph too big for the IPU Model is a memory_allocation_err",
          "[popart][session][errors]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{512, 1024}));
  auto y = b->aiOnnxOpset11().add({x, x});
  auto device = DeviceManager::createDeviceManager().createIpuModelDevice(
      {{"tilesPerIPU", "1"}});
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}), device);
  try {
    session->prepareDevice();
    FAIL("prepareDevice should have run out of memory");
  } catch (const popart::memory_allocation_err &e) {
    REQUIRE(std::string(e.what()).find("Out of memory") != std::string::npos);
    REQUIRE(e.getSummaryReport().find("Memory Usage") != std::string::npos);
    REQUIRE(e.clone()->getSummaryReport() == e.getSummaryReport());
  }
}

TEST_CASE("Manual virtual graphs must be IPUs of the device",
          "[popart][session][errors]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
  auto y = b->aiOnnxOpset11().relu({x});
  auto z = b->aiOnnxOpset11().neg({y});
  b->virtualGraph(y, 0);
  SessionOptions opts;
  opts.virtualGraphMode = VirtualGraphMode::Manual;
  DataFlow flow(1, {{z, AnchorReturnType("ALL")}});
  auto device = popart_test::createTestDevice();
  REQUIRE_THROWS_WITH(InferenceSession::createFromOnnxModel(
                          b->getModelProto(), flow, device, {}, opts),
                      Catch::Contains("Neg") && Catch::Contains("no virtual graph"));
  b->virtualGraph(z, 1);
  REQUIRE_THROWS_WITH(InferenceSession::createFromOnnxModel(
                          b->getModelProto(), flow, device, {}, opts),
                      Catch::Contains("virtual graph 1") &&
                          Catch::Contains("1 IPUs"));
  b->virtualGraph(z, 0);
  auto session = InferenceSession::createFromOnnxModel(b->getModelProto(), flow,
                                                       device, {}, opts);
  session->prepareDevice();
  Floats xv = {-1.0f, 2.0f}, out(2);
  NDArrayWrapper<float> xw(xv.data(), {2}), ow(out.data(), {2});
  std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{z, ow}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  requireClose(out, {0.0f, -2.0f});
}

TEST_CASE("Expand, Tile, Pad, ConstantOfShape and Range", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 1}));
  auto o = b->aiOnnxOpset13();
  auto i64 = [&](std::vector<int64_t> v) {
    return o.constant(ConstVoidData(v.data(), TensorInfo("INT64", Shape{int64_t(v.size())})));
  };
  auto e = o.expand({x, i64({2, 3})});                      // [2,3]: rows of x[i]
  auto t = o.tile({x, i64({1, 3})});                        // [2,3]: the same
  float one = 1.0f;
  auto pc = o.pad({e, i64({0, 1, 0, 0}),
                   o.constant(ConstVoidData(&one, TensorInfo("FLOAT", Shape{})))},
                  "constant");                              // [2,4]: 1 then row
  auto c = o.constantofshape({i64({2, 4})});                // zeros [2,4]
  float s = 0.5f, l = 4.5f, d = 1.0f;
  auto r = o.range({o.constant(ConstVoidData(&s, TensorInfo("FLOAT", Shape{}))),
                    o.constant(ConstVoidData(&l, TensorInfo("FLOAT", Shape{}))),
                    o.constant(ConstVoidData(&d, TensorInfo("FLOAT", Shape{})))}); // [4]
  auto tt = o.pad({t, i64({0, 0, 0, 1})}, "edge");          // [2,4]
  auto out = o.add({o.add({pc, c}), o.add({tt, r})});
  b->addOutputTensor(out);
  const Floats xv = {2.0f, -3.0f};
  Floats want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      want.push_back((j == 0 ? 1.0f : xv[i]) + 0.0f + xv[i] + (0.5f + j));
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 8), want);
}

TEST_CASE("TopK, ArgMax and ArgMin", "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 5}));
  auto o = b->aiOnnxOpset11();
  int64_t k = 2;
  auto top = o.topk({x, o.constant(ConstVoidData(&k, TensorInfo("INT64", Shape{1})))});
  auto amax = o.argmax({x}, 1, 0);
  auto amin = o.argmin({x}, 1, 1);
  // values + indices (as FLOAT) of the top 2, plus argmax - argmin per row.
  auto idx = o.cast({top.at(1)}, "FLOAT");
  auto diff = o.cast({o.sub({o.unsqueeze({amax}, std::vector<int64_t>{1}), amin})}, "FLOAT");
  auto out = o.add({o.add({top.at(0), idx}), diff});
  b->addOutputTensor(out);
  const Floats xv = {0.5f, 3.0f, -1.0f, 3.0f, 2.0f, -2.0f, -0.5f, 4.0f, 1.0f, -3.0f};
  Floats want;
  for (int i = 0; i < 2; ++i) {
    std::vector<int> order(5);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int c) { return xv[i * 5 + a] > xv[i * 5 + c]; });
    int argmin = int(std::min_element(xv.begin() + i * 5, xv.begin() + i * 5 + 5) -
                     (xv.begin() + i * 5));
    for (int j = 0; j < 2; ++j)
      want.push_back(xv[i * 5 + order[j]] + order[j] + (order[0] - argmin));
  }
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, out, 4), want);
}

TEST_CASE("Parameterised and trigonometric unary ops, Mod, Xor, backward Slice",
          "[popart][session]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{6}));
  auto o = b->aiOnnxOpset13();
  auto o11 = [&]() { return b->aiOnnxOpset13(); };
  auto sum = o.sum({o.elu({x}, 0.5f), o.selu({x}), o.hardsigmoid({x}),
                    o.softplus({x}), o.round({x}), o.sinh({x}), o.atan({x}),
                    o.cast({o.isinf({o.div({x, x})})}, "FLOAT")});
  int64_t start = -1, end = -7, axis = 0, step = -2; // elements 5, 3, 1
  auto back = o11().slice(
      {sum, o.constant(ConstVoidData(&start, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&end, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&axis, TensorInfo("INT64", Shape{1}))),
       o.constant(ConstVoidData(&step, TensorInfo("INT64", Shape{1})))});
  b->addOutputTensor(back);
  const Floats xv = {-1.5f, -0.5f, 0.0f, 0.5f, 2.5f, 3.0f};
  auto f = [](float v) {
    double elu = v > 0 ? v : 0.5 * (std::exp(v) - 1);
    double selu = 1.0507009873554805 * (v > 0 ? v : 1.6732632423543772 * (std::exp(v) - 1));
    double hs = std::min(1.0, std::max(0.0, 0.2 * v + 0.5));
    double sp = std::log1p(std::exp(double(v)));
    double rnd = std::nearbyint(v); // halves to even
    double isinf = v == 0 ? 0 : 0;  // 0/0 is NaN, not inf
    return float(elu + selu + hs + sp + rnd + std::sinh(v) + std::atan(v) + isinf);
  };
  Floats want = {f(xv[5]), f(xv[3]), f(xv[1])};
  requireClose(runFloat(b->getModelProto(), {{x, xv}}, back, 3), want, 1e-4f);

  SECTION("Mod (both sign rules) and Xor of INT32") {
    auto c = Builder::create();
    auto a = c->addInputTensor(TensorInfo("INT32", Shape{4}));
    auto d = c->addInputTensor(TensorInfo("INT32", Shape{4}));
    auto q = c->aiOnnxOpset13();
    auto m = q.add({q.mod({a, d}, 0), q.mul({q.mod({a, d}, 1),
                                            q.cast({q.logical_xor({q.less({a, d}),
                                                                   q.less({d, a})})},
                                                   "INT32")})});
    c->addOutputTensor(m);
    auto session = InferenceSession::createFromOnnxModel(
        c->getModelProto(), DataFlow(1, {{m, AnchorReturnType("ALL")}}),
        popart_test::createTestDevice());
    session->prepareDevice();
    std::vector<int32_t> av = {7, -7, 7, 5}, dv = {3, 3, -3, 5}, res(4);
    NDArrayWrapper<int32_t> aw(av.data(), {4}), dw(dv.data(), {4}), rw(res.data(), {4});
    std::map<TensorId, IArray &> ins = {{a, aw}, {d, dw}}, outs = {{m, rw}};
    StepIO stepio(ins, outs);
    session->run(stepio);
    for (int i = 0; i < 4; ++i) {
      int fm = av[i] % dv[i];
      int pm = (fm != 0 && ((fm < 0) != (dv[i] < 0))) ? fm + dv[i] : fm;
      int xr = (av[i] < dv[i]) != (dv[i] < av[i]);
      REQUIRE(res[i] == pm + fm * xr);
    }
  }
}

TEST_CASE("Matmul options: partialsTypeMatMuls, setPartialsType and "
          "setAvailableMemoryProportion reach poplin",
          "[popart][session]") {
  // A HALF [2, 4096] x [4096, 2] product on 16 tiles, whose k is split:
  // each row of A holds 2048 and 1 in the first k block and -2048 in the
  // last, B is all ones. Float partials sum to 1; HALF partials round the
  // first block's 2049 to 2048 and give 0.
  const int64_t m = 2, k = 4096, n = 2;
  Floats av(m * k, 0.0f);
  for (int64_t i = 0; i < m; ++i) {
    av[i * k] = 2048.0f;
    av[i * k + 1] = 1.0f;
    av[i * k + k - 1] = -2048.0f;
  }
  const std::vector<uint16_t> ones(k * n, 0x3C00); // 1.0 in half
  auto run = [&](const std::string &nodePartials, const SessionOptions &opts,
                 float nodeMemory = 0.0f) {
    auto b = Builder::create();
    auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{m, k}));
    auto w = b->addInitializedInputTensor(
        ConstVoidData(ones.data(), TensorInfo("FLOAT16", Shape{k, n})));
    auto o = b->aiOnnxOpset13();
    auto product = o.matmul({o.cast({x}, "FLOAT16"), w});
    if (!nodePartials.empty())
      b->setPartialsType(product, nodePartials);
    if (nodeMemory > 0)
      b->setAvailableMemoryProportion(product, nodeMemory);
    auto y = o.cast({product}, "FLOAT");
    b->addOutputTensor(y);
    auto device = DeviceManager::createDeviceManager().createIpuModelDevice(
        {{"tilesPerIPU", "16"}});
    auto session = InferenceSession::createFromOnnxModel(
        b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}),
        device, InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    Floats out(m * n);
    NDArrayWrapper<float> xw(av.data(), {m, k}), ow(out.data(), {m, n});
    std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{y, ow}};
    StepIO stepio(ins, outs);
    session->run(stepio);
    return out;
  };
  SessionOptions defaults, halfMatMuls, floatMatMuls;
  halfMatMuls.partialsTypeMatMuls = "half";
  floatMatMuls.partialsTypeMatMuls = "FLOAT";
  requireClose(run("", defaults), Floats(m * n, 1.0f));
  requireClose(run("", halfMatMuls), Floats(m * n, 0.0f));
  requireClose(run("HALF", defaults), Floats(m * n, 0.0f));
  // The node's own type wins over the session's.
  requireClose(run("FLOAT", halfMatMuls), Floats(m * n, 1.0f));
  requireClose(run("HALF", floatMatMuls), Floats(m * n, 0.0f));

  SessionOptions bad;
  bad.partialsTypeMatMuls = "int8";
  REQUIRE_THROWS_WITH(run("", bad),
                      Catch::Contains("partialsTypeMatMuls") &&
                          Catch::Contains("int8"));
  // No plan fits in a thousandth of a tile's memory: poplin says so.
  REQUIRE_THROWS_WITH(run("", defaults, 0.001f),
                      Catch::Contains("availableMemoryProportion 0.001"));
}
