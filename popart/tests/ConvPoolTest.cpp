// Convolutions, pooling, normalisations and arg max/min built with the
// Builder and run on the device under test (SDK_TEST_DEVICE), against
// plain host loops.
#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace popart;

namespace {

using Floats = std::vector<float>;

Floats randomFloats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  Floats v(n);
  for (auto &x : v)
    x = dist(gen);
  return v;
}

// A model under construction: FLOAT inputs streamed at run time, FLOAT
// constants as initializers.
struct Model {
  std::unique_ptr<Builder> builder = Builder::create();
  std::map<TensorId, Floats> feeds;
  std::vector<std::unique_ptr<Floats>> constants;

  TensorId input(const Shape &shape, unsigned seed) {
    TensorId id = builder->addInputTensor(TensorInfo("FLOAT", shape));
    std::size_t n = 1;
    for (auto d : shape)
      n *= std::size_t(d);
    feeds[id] = randomFloats(n, seed);
    return id;
  }
  TensorId constant(const Floats &values, const Shape &shape) {
    constants.push_back(std::make_unique<Floats>(values));
    return builder->addInitializedInputTensor(
        ConstVoidData(constants.back()->data(), TensorInfo("FLOAT", shape)));
  }
};

// Runs the model once and returns output `out` as doubles (FLOAT or INT64).
std::vector<double> run(Model &m, const TensorId &out) {
  m.builder->addOutputTensor(out);
  auto session = InferenceSession::createFromOnnxModel(
      m.builder->getModelProto(), DataFlow(1, {{out, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice());
  session->prepareDevice();
  session->weightsFromHost();
  const TensorInfo info = session->getInfo(out);
  std::vector<NDArrayWrapper<float>> inputs;
  inputs.reserve(m.feeds.size());
  std::map<TensorId, IArray &> ins, outs;
  for (auto &[id, data] : m.feeds) {
    inputs.emplace_back(data.data(), Shape{int64_t(data.size())});
    ins.emplace(id, inputs.back());
  }
  Floats floats(std::size_t(info.nelms()));
  std::vector<int64_t> ints(std::size_t(info.nelms()));
  NDArrayWrapper<float> floatOut(floats.data(), info.shape());
  NDArrayWrapper<int64_t> intOut(ints.data(), info.shape());
  const bool isInt = info.dataType() == DataType::INT64;
  outs.emplace(out, isInt ? static_cast<IArray &>(intOut) : floatOut);
  StepIO stepio(ins, outs);
  session->run(stepio);
  return isInt ? std::vector<double>(ints.begin(), ints.end())
               : std::vector<double>(floats.begin(), floats.end());
}

void requireClose(const std::vector<double> &got,
                  const std::vector<double> &want, double tol = 1e-5) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).epsilon(tol).margin(tol));
  }
}

// 2-D convolution on the host: x [N, C, H, W], w [M, C / G, KH, KW].
struct Conv2d {
  int64_t N, C, H, W, M, G, KH, KW;
  int64_t padT = 0, padL = 0, padB = 0, padR = 0;
  int64_t strideH = 1, strideW = 1, dilH = 1, dilW = 1;
  int64_t outH() const { return (H + padT + padB - (KH - 1) * dilH - 1) / strideH + 1; }
  int64_t outW() const { return (W + padL + padR - (KW - 1) * dilW - 1) / strideW + 1; }

  std::vector<double> operator()(const Floats &x, const Floats &w,
                                 const Floats &bias) const {
    const int64_t OH = outH(), OW = outW(), cg = C / G, mg = M / G;
    std::vector<double> y(std::size_t(N * M * OH * OW));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            double s = bias.empty() ? 0.0 : bias[std::size_t(m)];
            const int64_t g = m / mg;
            for (int64_t c = 0; c < cg; ++c)
              for (int64_t kh = 0; kh < KH; ++kh)
                for (int64_t kw = 0; kw < KW; ++kw) {
                  const int64_t ih = oh * strideH - padT + kh * dilH;
                  const int64_t iw = ow * strideW - padL + kw * dilW;
                  if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                    continue;
                  s += double(x[std::size_t(((n * C + g * cg + c) * H + ih) * W + iw)]) *
                       w[std::size_t(((m * cg + c) * KH + kh) * KW + kw)];
                }
            y[std::size_t(((n * M + m) * OH + oh) * OW + ow)] = s;
          }
    return y;
  }
};

} // namespace

TEST_CASE("Conv with groups, pads, strides, dilations and bias", "[popart][conv]") {
  Conv2d ref{2, 4, 7, 6, 6, 2, 3, 2};
  ref.padT = 1, ref.padL = 0, ref.padB = 2, ref.padR = 1;
  ref.strideH = 2, ref.dilW = 2;
  Model m;
  auto x = m.input({2, 4, 7, 6}, 1);
  const Floats w = randomFloats(6 * 2 * 3 * 2, 2), b = randomFloats(6, 3);
  auto wId = m.constant(w, {6, 2, 3, 2});
  auto bId = m.constant(b, {6});
  auto y = m.builder->aiOnnxOpset11().conv({x, wId, bId}, {1, 2}, 2, {3, 2},
                                           {1, 0, 2, 1}, {2, 1});
  CHECK(m.builder->getTensorShape(y) == Shape{2, 6, ref.outH(), ref.outW()});
  requireClose(run(m, y), ref(m.feeds[x], w, b));
}

TEST_CASE("Conv with auto_pad SAME_UPPER, depthwise", "[popart][conv]") {
  // auto_pad is deprecated and not a Builder argument: set it on the node.
  Conv2d ref{1, 3, 5, 5, 3, 3, 3, 3};
  ref.strideH = ref.strideW = 2;
  ref.padT = ref.padL = ref.padB = ref.padR = 1; // SAME_UPPER: out 3, total 2
  Model m;
  auto x = m.input({1, 3, 5, 5}, 4);
  const Floats w = randomFloats(3 * 3 * 3, 5);
  auto y = m.builder->aiOnnxOpset11().conv({x, m.constant(w, {3, 1, 3, 3})}, {},
                                           3, {}, {}, {2, 2});
  m.builder->addNodeAttribute("auto_pad", std::string("SAME_UPPER"), {y});
  requireClose(run(m, y), ref(m.feeds[x], w, {}));
}

TEST_CASE("ConvTranspose with groups, strides, pads and output_padding",
          "[popart][conv]") {
  // y[n][g*mg + m][oh][ow] += x[n][g*cg + c][ih][iw] * w[g*cg + c][m][kh][kw]
  // where oh = ih * stride - padT + kh (no dilation here).
  const int64_t N = 1, C = 4, H = 3, W = 4, G = 2, MG = 3, K = 3, S = 2;
  const int64_t padT = 1, padL = 0, padB = 0, padR = 1, opH = 1, opW = 0;
  const int64_t OH = S * (H - 1) + opH + K - padT - padB;
  const int64_t OW = S * (W - 1) + opW + K - padL - padR;
  Model m;
  auto x = m.input({N, C, H, W}, 6);
  const Floats w = randomFloats(std::size_t(C * MG * K * K), 7), b = randomFloats(6, 8);
  auto y = m.builder->aiOnnxOpset11().convtranspose(
      {x, m.constant(w, {C, MG, K, K}), m.constant(b, {G * MG})}, {}, G, {},
      {opH, opW}, {}, {padT, padL, padB, padR}, {S, S});
  REQUIRE(m.builder->getTensorShape(y) == Shape{N, G * MG, OH, OW});
  const Floats &xs = m.feeds[x];
  std::vector<double> want(std::size_t(N * G * MG * OH * OW));
  for (int64_t o = 0; o < G * MG; ++o)
    for (int64_t p = 0; p < OH * OW; ++p)
      want[std::size_t(o * OH * OW + p)] = b[std::size_t(o)];
  const int64_t cg = C / G;
  for (int64_t c = 0; c < C; ++c)
    for (int64_t ih = 0; ih < H; ++ih)
      for (int64_t iw = 0; iw < W; ++iw)
        for (int64_t mo = 0; mo < MG; ++mo)
          for (int64_t kh = 0; kh < K; ++kh)
            for (int64_t kw = 0; kw < K; ++kw) {
              const int64_t oh = ih * S - padT + kh, ow = iw * S - padL + kw;
              if (oh < 0 || oh >= OH || ow < 0 || ow >= OW)
                continue;
              const int64_t out = (c / cg) * MG + mo;
              want[std::size_t((out * OH + oh) * OW + ow)] +=
                  double(xs[std::size_t((c * H + ih) * W + iw)]) *
                  w[std::size_t(((c * MG + mo) * K + kh) * K + kw)];
            }
  requireClose(run(m, y), want);
}

TEST_CASE("MaxPool and AveragePool with pads, strides and ceil_mode",
          "[popart][pool]") {
  const int64_t N = 2, C = 3, H = 6, W = 5, K = 3, S = 2, P = 1;
  for (const std::string type : {"max", "avg", "avg_include_pad"}) {
    for (const int64_t ceil : {0, 1}) {
      DYNAMIC_SECTION(type << " ceil_mode " << ceil) {
        Model m;
        auto x = m.input({N, C, H, W}, 9);
        auto opset = m.builder->aiOnnxOpset12();
        TensorId y =
            type == "max"
                ? opset.maxpool({x}, 1, {K, K}, ceil, {}, {P, P, P, P}, 0, {S, S})[0]
                : opset.averagepool({x}, {K, K}, ceil, type == "avg_include_pad",
                                    {P, P, P, P}, {S, S});
        // Output sizes as PyTorch: the last window starts inside the input
        // or its lower padding.
        auto outSize = [&](int64_t in) {
          int64_t span = in + 2 * P - K;
          int64_t o = (ceil ? (span + S - 1) / S : span / S) + 1;
          if (ceil && (o - 1) * S >= in + P)
            --o;
          return o;
        };
        const int64_t OH = outSize(H), OW = outSize(W);
        const Floats &xs = m.feeds[x];
        std::vector<double> want;
        for (int64_t nc = 0; nc < N * C; ++nc)
          for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
              const int64_t h0 = oh * S - P, w0 = ow * S - P;
              double best = -std::numeric_limits<double>::infinity(), sum = 0;
              int64_t count = 0;
              for (int64_t ih = h0; ih < h0 + K; ++ih)
                for (int64_t iw = w0; iw < w0 + K; ++iw)
                  if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
                    const double v = xs[std::size_t((nc * H + ih) * W + iw)];
                    best = std::max(best, v);
                    sum += v;
                    ++count;
                  }
              // count_include_pad counts the explicit padding only.
              const int64_t paddedCount =
                  (std::min(h0 + K, H + P) - h0) * (std::min(w0 + K, W + P) - w0);
              want.push_back(type == "max" ? best
                             : type == "avg" ? sum / double(count)
                                             : sum / double(paddedCount));
            }
        REQUIRE(m.builder->getTensorShape(y) == Shape{N, C, OH, OW});
        requireClose(run(m, y), want);
      }
    }
  }
}

TEST_CASE("GlobalAveragePool and GlobalMaxPool", "[popart][pool]") {
  const int64_t N = 2, C = 3, F = 4 * 5;
  for (const bool isMax : {false, true}) {
    Model m;
    auto x = m.input({N, C, 4, 5}, 10);
    auto opset = m.builder->aiOnnxOpset11();
    auto y = isMax ? opset.globalmaxpool({x}) : opset.globalaveragepool({x});
    std::vector<double> want;
    for (int64_t nc = 0; nc < N * C; ++nc) {
      auto first = m.feeds[x].begin() + nc * F;
      want.push_back(isMax ? double(*std::max_element(first, first + F))
                           : std::accumulate(first, first + F, 0.0) / double(F));
    }
    REQUIRE(m.builder->getTensorShape(y) == Shape{N, C, 1, 1});
    requireClose(run(m, y), want);
  }
}

TEST_CASE("BatchNormalization in inference, 4-D and 2-D", "[popart][norm]") {
  for (const Shape &shape : {Shape{2, 3, 4, 2}, Shape{5, 3}}) {
    Model m;
    auto x = m.input(shape, 11);
    const Floats scale = randomFloats(3, 12), bias = randomFloats(3, 13),
                 mean = randomFloats(3, 14), var = {0.5f, 1.0f, 2.0f};
    const float eps = 1e-3f;
    auto y = m.builder->aiOnnxOpset14().batchnormalization(
        {x, m.constant(scale, {3}), m.constant(bias, {3}), m.constant(mean, {3}),
         m.constant(var, {3})},
        1, eps)[0];
    const std::size_t inner = shape.size() == 4 ? 8 : 1;
    const Floats &xs = m.feeds[x];
    std::vector<double> want(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::size_t c = (i / inner) % 3;
      want[i] = (xs[i] - mean[c]) / std::sqrt(double(var[c]) + eps) * scale[c] + bias[c];
    }
    requireClose(run(m, y), want);
  }
}

TEST_CASE("BatchNormalization training_mode 1 in inference: the batch's statistics, "
          "the running ones moved as outputs",
          "[popart][norm]") {
  const std::size_t N = 4, C = 3;
  const Floats scale = randomFloats(C, 21), bias = randomFloats(C, 22),
               mean = randomFloats(C, 23), var = {0.5f, 1.0f, 2.0f};
  const float eps = 1e-3f, momentum = 0.8f;
  for (int output = 0; output < 3; ++output) {
    Model m;
    auto x = m.input({int64_t(N), int64_t(C)}, 24);
    auto outs = m.builder->aiOnnxOpset14().batchnormalization(
        {x, m.constant(scale, {3}), m.constant(bias, {3}), m.constant(mean, {3}),
         m.constant(var, {3})},
        3, eps, momentum, 1, "trainingBn");
    const Floats &xs = m.feeds[x];
    std::vector<double> batchMean(C, 0.0), batchVar(C, 0.0), want;
    for (std::size_t i = 0; i < N * C; ++i)
      batchMean[i % C] += xs[i] / double(N);
    for (std::size_t i = 0; i < N * C; ++i)
      batchVar[i % C] += std::pow(xs[i] - batchMean[i % C], 2) / double(N);
    for (std::size_t i = 0; output == 0 && i < N * C; ++i) {
      const std::size_t c = i % C;
      want.push_back((xs[i] - batchMean[c]) / std::sqrt(batchVar[c] + eps) * scale[c] +
                     bias[c]);
    }
    for (std::size_t c = 0; output > 0 && c < C; ++c)
      want.push_back(momentum * (output == 1 ? mean[c] : var[c]) +
                     (1 - momentum) * (output == 1 ? batchMean[c] : batchVar[c]));
    requireClose(run(m, outs[std::size_t(output)]), want, 1e-4);
  }
}

TEST_CASE("InstanceNormalization and LRN", "[popart][norm]") {
  const int64_t N = 2, C = 5, F = 6;
  {
    Model m;
    auto x = m.input({N, C, 2, 3}, 15);
    const Floats scale = randomFloats(C, 16), bias = randomFloats(C, 17);
    auto y = m.builder->aiOnnxOpset11().instancenormalization(
        {x, m.constant(scale, {C}), m.constant(bias, {C})}, 1e-4f);
    const Floats &xs = m.feeds[x];
    std::vector<double> want(xs.size());
    for (int64_t nc = 0; nc < N * C; ++nc) {
      double mean = 0, var = 0;
      for (int64_t f = 0; f < F; ++f)
        mean += xs[std::size_t(nc * F + f)] / double(F);
      for (int64_t f = 0; f < F; ++f)
        var += std::pow(xs[std::size_t(nc * F + f)] - mean, 2) / double(F);
      for (int64_t f = 0; f < F; ++f)
        want[std::size_t(nc * F + f)] = (xs[std::size_t(nc * F + f)] - mean) /
                                            std::sqrt(var + 1e-4) * scale[std::size_t(nc % C)] +
                                        bias[std::size_t(nc % C)];
    }
    requireClose(run(m, y), want, 1e-4);
  }
  {
    Model m;
    auto x = m.input({N, C, 2, 3}, 18);
    const int64_t size = 4;
    const float alpha = 0.5f, beta = 0.75f, bias = 2.0f;
    auto y = m.builder->aiOnnxOpset11().lrn({x}, size, alpha, beta, bias);
    const Floats &xs = m.feeds[x];
    std::vector<double> want(xs.size());
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t f = 0; f < F; ++f) {
          double sum = 0;
          for (int64_t j = std::max<int64_t>(0, c - 1); j <= std::min(C - 1, c + 2); ++j)
            sum += std::pow(xs[std::size_t((n * C + j) * F + f)], 2);
          const std::size_t i = std::size_t((n * C + c) * F + f);
          want[i] = xs[i] / std::pow(bias + alpha / size * sum, beta);
        }
    requireClose(run(m, y), want);
  }
}

TEST_CASE("LayerNormalization over the last two dimensions", "[popart][norm]") {
  // X [2, 3, 4] normalised over [3, 4] (axis -2); Mean as a third output.
  const int64_t outer = 2, inner = 12;
  Model m;
  auto x = m.input({2, 3, 4}, 19);
  const Floats scale = randomFloats(inner, 20), bias = randomFloats(inner, 21);
  const float eps = 1e-3f;
  auto outs = m.builder->aiOnnxOpset17().layernormalization(
      {x, m.constant(scale, {3, 4}), m.constant(bias, {3, 4})}, 2, -2, eps);
  const Floats &xs = m.feeds[x];
  std::vector<double> want(xs.size()), wantMean;
  for (int64_t r = 0; r < outer; ++r) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < inner; ++i)
      mean += xs[std::size_t(r * inner + i)] / double(inner);
    for (int64_t i = 0; i < inner; ++i)
      var += std::pow(xs[std::size_t(r * inner + i)] - mean, 2) / double(inner);
    for (int64_t i = 0; i < inner; ++i) {
      const std::size_t k = std::size_t(r * inner + i);
      want[k] = (xs[k] - mean) / std::sqrt(var + eps) * scale[std::size_t(i)] +
                bias[std::size_t(i)];
    }
    wantMean.push_back(mean);
  }
  REQUIRE(m.builder->getTensorShape(outs[1]) == Shape{2, 1, 1});
  requireClose(run(m, outs[0]), want);
  Model again; // the Mean output from a model of its own
  auto x2 = again.input({2, 3, 4}, 19);
  auto outs2 = again.builder->aiOnnxOpset17().layernormalization(
      {x2, again.constant(scale, {3, 4}), again.constant(bias, {3, 4})}, 2, -2, eps);
  requireClose(run(again, outs2[1]), wantMean);
}

TEST_CASE("ArgMax and ArgMin, first or last of equal extremes", "[popart][arg]") {
  // Rows with repeated extremes along axis 1 of [2, 4, 3].
  const Floats data = {1, 5, 2, 5, 0, 2, 3, 5, -1, 0, 5, -1,
                       7, 7, 7, -2, 7, 1, 7, -2, 1, 0, 0, 1};
  for (const bool isMax : {true, false})
    for (const int64_t last : {0, 1}) {
      Model m;
      m.builder = Builder::create();
      auto x = m.builder->addInputTensor(TensorInfo("FLOAT", Shape{2, 4, 3}));
      m.feeds[x] = data;
      auto opset = m.builder->aiOnnxOpset12();
      auto y = isMax ? opset.argmax({x}, 1, 0, last) : opset.argmin({x}, 1, 0, last);
      std::vector<double> want;
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t k = 0; k < 3; ++k) {
          int64_t best = 0;
          for (int64_t i = 1; i < 4; ++i) {
            const float v = data[std::size_t((b * 4 + i) * 3 + k)];
            const float e = data[std::size_t((b * 4 + best) * 3 + k)];
            const bool better = isMax ? v > e : v < e;
            if (better || (last && v == e))
              best = i;
          }
          want.push_back(double(best));
        }
      REQUIRE(m.builder->getTensorShape(y) == Shape{2, 3});
      REQUIRE(run(m, y) == want);
    }
}

TEST_CASE("Unsupported conv and pool attributes fail at session creation",
          "[popart][conv]") {
  auto create = [](Builder &b, const TensorId &out) {
    b.addOutputTensor(out);
    try {
      InferenceSession::createFromOnnxModel(
          b.getModelProto(), DataFlow(1, {{out, AnchorReturnType("ALL")}}),
          popart_test::createTestDevice());
    } catch (const popart::error &) {
      throw; // the class the original throws
    } catch (...) {
      FAIL("not a popart::error");
    }
  };
  {
    // Weights whose channels do not match the input's.
    Model m;
    auto x = m.input({1, 4, 5, 5}, 1);
    auto w = m.constant(Floats(2 * 3 * 3 * 3), {2, 3, 3, 3});
    auto y = m.builder->aiOnnxOpset11().conv({x, w}, {}, 1, {}, {}, {}, "badConv");
    REQUIRE_THROWS_WITH(create(*m.builder, y),
                        Catch::Contains("badConv") && Catch::Contains("groups"));
  }
  {
    Model m;
    auto x = m.input({1, 1, 5, 5}, 1);
    // storage_order is 0 (row-major) or 1 (column-major).
    auto y = m.builder->aiOnnxOpset12().maxpool({x}, 1, {2, 2}, 0, {}, {}, 2,
                                                {}, "badPool")[0];
    REQUIRE_THROWS_WITH(create(*m.builder, y),
                        Catch::Contains("badPool") && Catch::Contains("storage_order 2"));
  }
}

TEST_CASE("Conv weights streamed as variables, written and read back",
          "[popart][conv]") {
  // Weights as variables (constantWeights false) that only the convolution
  // reads are stored in the order the convolution reads them: the streams
  // to and from the host still carry them in ONNX order.
  Conv2d ref{1, 5, 6, 6, 20, 1, 3, 3};
  ref.padT = ref.padL = ref.padB = ref.padR = 1;
  auto b = Builder::create();
  const TensorId x = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 5, 6, 6}));
  Floats w = randomFloats(20 * 5 * 3 * 3, 7);
  const TensorInfo wInfo("FLOAT", Shape{20, 5, 3, 3});
  const TensorId wId =
      b->addInitializedInputTensor(ConstVoidData(w.data(), wInfo));
  const TensorId y =
      b->aiOnnxOpset11().conv({x, wId}, {1, 1}, 1, {3, 3}, {1, 1, 1, 1}, {1, 1});
  b->addOutputTensor(y);
  SessionOptions opts;
  opts.constantWeights = false;
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}),
      popart_test::createTestDevice(), InputShapeInfo(), opts);
  session->prepareDevice();
  session->weightsFromHost();
  Floats xv = randomFloats(5 * 6 * 6, 8), out(20 * 6 * 6);
  NDArrayWrapper<float> xw(xv.data(), {1, 5, 6, 6}), ow(out.data(), {1, 20, 6, 6});
  std::map<TensorId, IArray &> ins = {{x, xw}}, outs = {{y, ow}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  requireClose(std::vector<double>(out.begin(), out.end()), ref(xv, w, {}));

  Floats written = randomFloats(w.size(), 9);
  WeightsIO io;
  io.insert(wId, {written.data(), wInfo});
  session->writeWeights(io);
  session->weightsFromHost();
  session->run(stepio);
  requireClose(std::vector<double>(out.begin(), out.end()),
               ref(xv, written, {}));

  Floats back(w.size(), 0.0f);
  WeightsIO readIo;
  readIo.insert(wId, {back.data(), wInfo});
  session->weightsToHost();
  session->readWeights(readIo);
  REQUIRE(back == written);
}
