// The ai.graphcore operators added after the first set (group norm,
// scatter-reduce, grouped gather, init, abort, image normalisation,
// sequence slices, shaped dropout, tensor remap, copyvarupdate), run as in
// GraphcoreOpsTest.cpp and compared with values computed on the host.
#include "GraphcoreOpsHarness.hpp"

using namespace popart;
using namespace gcops;

namespace {

// Group normalisation on the host in double: groups of consecutive
// channels of x [n, c, hw]; y, and the mean and 1 / sqrt(var + eps) of
// each (sample, group).
struct GroupNormHost {
  std::vector<double> y, mean, invStd;
};
GroupNormHost groupNormHost(const std::vector<double> &x,
                            const std::vector<double> &scale,
                            const std::vector<double> &bias, int64_t n,
                            int64_t c, int64_t hw, int64_t groups, double eps) {
  GroupNormHost h;
  h.y.resize(x.size());
  const int64_t perGroup = c / groups * hw;
  for (int64_t s = 0; s < n; ++s)
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t first = (s * c + g * (c / groups)) * hw;
      double sum = 0.0, sq = 0.0;
      for (int64_t k = 0; k < perGroup; ++k)
        sum += x[first + k];
      const double mean = sum / double(perGroup);
      for (int64_t k = 0; k < perGroup; ++k)
        sq += (x[first + k] - mean) * (x[first + k] - mean);
      const double inv = 1.0 / std::sqrt(sq / double(perGroup) + eps);
      h.mean.push_back(mean);
      h.invStd.push_back(inv);
      for (int64_t k = 0; k < perGroup; ++k) {
        const int64_t ch = g * (c / groups) + k / hw;
        h.y[first + k] = (x[first + k] - mean) * inv * scale[ch] + bias[ch];
      }
    }
  return h;
}

// The central difference of sum(f(v) * r) in v[i].
template <typename F>
std::vector<double> numericGrad(std::vector<double> v,
                                const std::vector<double> &r, F f) {
  std::vector<double> g(v.size());
  const double h = 1e-5;
  auto loss = [&] {
    const auto y = f(v);
    double l = 0.0;
    for (std::size_t k = 0; k < y.size(); ++k)
      l += y[k] * r[k];
    return l;
  };
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double keep = v[i];
    v[i] = keep + h;
    const double up = loss();
    v[i] = keep - h;
    const double down = loss();
    v[i] = keep;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

} // namespace

TEST_CASE("groupnormalization: groups of consecutive channels, gradients") {
  const int64_t n = 2, c = 4, hw = 3, groups = 2;
  const double eps = 1e-5;
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {n, c, hw});
  const TensorId scale = m.input(DataType::FLOAT, {c});
  const TensorId bias = m.input(DataType::FLOAT, {c});
  const auto outs = m.gc().groupnormalization({x, scale, bias}, groups);
  REQUIRE(outs.size() == 3);
  std::vector<double> xv(n * c * hw);
  for (std::size_t i = 0; i < xv.size(); ++i)
    xv[i] = std::sin(0.7 * double(i)) * (1.0 + 0.1 * double(i % 5));
  const std::vector<double> sv = {1.5, -0.5, 0.75, 2.0}, bv = {0.1, -0.2, 0.3, 0.0};
  const GroupNormHost want = groupNormHost(xv, sv, bv, n, c, hw, groups, eps);
  SECTION("forward: y, mean and inverse standard deviation") {
    REQUIRE(m.builder->getTensorShape(outs[1]) == Shape{n * groups});
    const Values v = run(m, outs, {{x, xv}, {scale, sv}, {bias, bv}});
    requireClose(v[outs[0]], want.y, 1e-4);
    requireClose(v[outs[1]], want.mean, 1e-5);
    requireClose(v[outs[2]], want.invStd, 1e-4);
  }
  SECTION("gradients of x, scale and bias") {
    const std::vector<double> r = ramp(n * c * hw, -1.0, 0.09);
    const Values v = run(m, outs, {{x, xv}, {scale, sv}, {bias, bv}}, &r);
    auto yOfX = [&](const std::vector<double> &xx) {
      return groupNormHost(xx, sv, bv, n, c, hw, groups, eps).y;
    };
    auto yOfScale = [&](const std::vector<double> &ss) {
      return groupNormHost(xv, ss, bv, n, c, hw, groups, eps).y;
    };
    auto yOfBias = [&](const std::vector<double> &bb) {
      return groupNormHost(xv, sv, bb, n, c, hw, groups, eps).y;
    };
    requireClose(v[getGradId(x)], numericGrad(xv, r, yOfX), 1e-3);
    requireClose(v[getGradId(scale)], numericGrad(sv, r, yOfScale), 1e-3);
    requireClose(v[getGradId(bias)], numericGrad(bv, r, yOfBias), 1e-3);
  }
}

namespace {

// Scatter-reduce on the host: src (shape `shape`) with an index of the
// same shape, along axis, into axisSize; initial values when given.
std::vector<double> scatterReduceHost(const std::vector<double> &src,
                                      const std::vector<double> &index,
                                      const Shape &shape, int64_t axis,
                                      int64_t axisSize, ScatterReduction red,
                                      const std::vector<double> *initial) {
  Shape outShape = shape;
  outShape[axis] = axisSize;
  const int64_t n = std::accumulate(outShape.begin(), outShape.end(),
                                    int64_t(1), std::multiplies<int64_t>());
  std::vector<double> out(n), reached(n, 0.0);
  for (int64_t k = 0; k < n; ++k)
    out[k] = initial ? (*initial)[k] : red == ScatterReduction::Mul ? 1.0 : 0.0;
  for (std::size_t e = 0; e < src.size(); ++e) {
    const int64_t at = int64_t(index[e]);
    if (at < 0 || at >= axisSize)
      continue;
    auto pos = unflat(shape, int64_t(e));
    pos[axis] = at;
    const int64_t o = flat(outShape, pos);
    const bool first = !initial && reached[o] == 0.0;
    reached[o] = 1.0;
    switch (red) {
    case ScatterReduction::Sum:
      out[o] += src[e];
      break;
    case ScatterReduction::Mul:
      out[o] *= src[e];
      break;
    case ScatterReduction::Max:
      out[o] = first ? src[e] : std::max(out[o], src[e]);
      break;
    case ScatterReduction::Min:
      out[o] = first ? src[e] : std::min(out[o], src[e]);
      break;
    case ScatterReduction::None:
      out[o] = src[e];
      break;
    }
  }
  return out;
}

} // namespace

TEST_CASE("scatterreduce: each reduction, skipped indices, gradients") {
  const Shape shape = {2, 6};
  const int64_t axisSize = 4;
  // Bin 3 of row 0 and bin 0 of row 1 get nothing; 4 and -1 are skipped.
  const std::vector<double> index = {0, 2, 0, 1, 4, 2, 1, 3, -1, 2, 3, 1};
  const std::vector<double> src = {0.5, -1.25, 2.0, 1.5, 9.0, 0.75,
                                   -0.5, 3.0, 7.0, 1.25, -2.0, 2.5};
  for (auto red : {ScatterReduction::Sum, ScatterReduction::Max,
                   ScatterReduction::Min, ScatterReduction::Mul}) {
    DYNAMIC_SECTION("forward and gradient of " << int(red)) {
      Model m;
      const TensorId x = m.input(DataType::FLOAT, shape);
      const TensorId i = m.input(DataType::INT32, shape);
      const TensorId out = m.gc().scatterreduce({x, i}, axisSize, -1, red);
      REQUIRE(m.builder->getTensorShape(out) == Shape{2, axisSize});
      const auto want =
          scatterReduceHost(src, index, shape, 1, axisSize, red, nullptr);
      const std::vector<double> r = {1.0, -2.0, 0.5, 3.0, 1.5, -1.0, 2.0, 0.25};
      const Values v = run(m, {out}, {{x, src}, {i, index}}, &r);
      requireClose(v[out], want);
      requireClose(v[getGradId(x)],
                   numericGrad(src, r, [&](const std::vector<double> &s) {
                     return scatterReduceHost(s, index, shape, 1, axisSize, red,
                                              nullptr);
                   }),
                   1e-3);
    }
  }
  SECTION("none: the value written, 0 where nothing is") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {5});
    const TensorId i = m.input(DataType::INT32, {5});
    const std::vector<double> idx = {3, 0, 5, 1, 4}, sv = {1, 2, 3, 4, 5};
    const TensorId out =
        m.gc().scatterreduce({x, i}, 6, 0, ScatterReduction::None);
    const Values v = run(m, {out}, {{x, sv}, {i, idx}});
    requireClose(v[out], {2, 4, 0, 1, 5, 3});
  }
  SECTION("max with initial values, both gradients") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, shape);
    const TensorId i = m.input(DataType::INT32, shape);
    const TensorId init = m.input(DataType::FLOAT, {2, axisSize});
    const std::vector<double> iv = {1.0, 0.0, 5.0, -3.0, 0.1, 0.2, 10.0, -1.0};
    const TensorId out =
        m.gc().scatterreduce({x, i, init}, axisSize, 1, ScatterReduction::Max);
    const std::vector<double> r = {1.0, -2.0, 0.5, 3.0, 1.5, -1.0, 2.0, 0.25};
    const Values v = run(m, {out}, {{x, src}, {i, index}, {init, iv}}, &r);
    requireClose(v[out], scatterReduceHost(src, index, shape, 1, axisSize,
                                           ScatterReduction::Max, &iv));
    requireClose(v[getGradId(init)],
                 numericGrad(iv, r, [&](const std::vector<double> &ii) {
                   return scatterReduceHost(src, index, shape, 1, axisSize,
                                            ScatterReduction::Max, &ii);
                 }),
                 1e-3);
    requireClose(v[getGradId(x)],
                 numericGrad(src, r, [&](const std::vector<double> &s) {
                   return scatterReduceHost(s, index, shape, 1, axisSize,
                                            ScatterReduction::Max, &iv);
                 }),
                 1e-3);
  }
  SECTION("a vector index broadcast along the other dimensions") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {4, 3});
    const TensorId i = m.input(DataType::INT32, {4});
    const TensorId out = m.gc().scatterreduce({x, i}, 2, 0);
    const std::vector<double> xv = ramp(12, 1.0), iv = {1, 0, 1, 1};
    std::vector<double> full;
    for (int row = 0; row < 4; ++row)
      full.insert(full.end(), 3, iv[row]);
    const Values v = run(m, {out}, {{x, xv}, {i, iv}});
    requireClose(v[out], scatterReduceHost(xv, full, {4, 3}, 0, 2,
                                           ScatterReduction::Sum, nullptr));
  }
  SECTION("groupedscatterreduce: groups along dimension 0") {
    Model m;
    const Shape gs = {2, 6, 2};
    const TensorId x = m.input(DataType::FLOAT, gs);
    const TensorId i = m.input(DataType::INT32, gs);
    const TensorId out = m.gc().groupedscatterreduce(
        {x, i}, 3, 1, ScatterReduction::Sum, 2);
    REQUIRE(m.builder->getTensorShape(out) == Shape{2, 3, 2});
    std::vector<double> xv = ramp(24, -3.0, 0.5), iv(24);
    for (std::size_t k = 0; k < iv.size(); ++k)
      iv[k] = double((k * 7 + k / 12) % 3);
    const std::vector<double> r = ramp(12, 1.0, -0.3);
    const Values v = run(m, {out}, {{x, xv}, {i, iv}}, &r);
    requireClose(v[out], scatterReduceHost(xv, iv, gs, 1, 3,
                                           ScatterReduction::Sum, nullptr));
    requireClose(v[getGradId(x)],
                 numericGrad(xv, r, [&](const std::vector<double> &s) {
                   return scatterReduceHost(s, iv, gs, 1, 3,
                                            ScatterReduction::Sum, nullptr);
                 }),
                 1e-3);
  }
}

TEST_CASE("groupedgather: a gather in each group, its gradient") {
  const Shape ds = {2, 5, 3};
  std::vector<double> dv = ramp(30, -2.0, 0.25);
  // Group 0 takes rows 4, 0, 0 and -1 (= 4); group 1 rows 2, 3, 1, 2.
  const std::vector<double> iv = {4, 0, 0, -1, 2, 3, 1, 2};
  auto host = [&](const std::vector<double> &d) {
    std::vector<double> out;
    for (int64_t g = 0; g < 2; ++g)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t row = int64_t(iv[g * 4 + j]);
        row = row < 0 ? row + 5 : row;
        for (int64_t c = 0; c < 3; ++c)
          out.push_back(d[flat(ds, {g, row, c})]);
      }
    return out;
  };
  Model m;
  const TensorId data = m.input(DataType::FLOAT, ds);
  const TensorId idx = m.input(DataType::INT32, {2, 4});
  const TensorId out = m.gc().groupedgather({data, idx}, 1, 2);
  REQUIRE(m.builder->getTensorShape(out) == Shape{2, 4, 3});
  const std::vector<double> r = ramp(24, 1.0, -0.125);
  const Values v = run(m, {out}, {{data, dv}, {idx, iv}}, &r);
  requireClose(v[out], host(dv));
  requireClose(v[getGradId(data)], numericGrad(dv, r, host), 1e-3);
}

TEST_CASE("groupedgather with group_size 1 is a plain gather") {
  Model m;
  const TensorId data = m.input(DataType::FLOAT, {4, 2});
  const TensorId idx = m.input(DataType::INT32, {3});
  const TensorId out = m.gc().groupedgather({data, idx}, 0, 1);
  const Values v = run(m, {out}, {{data, ramp(8)}, {idx, {3, 1, 3}}});
  requireClose(v[out], {6, 7, 2, 3, 6, 7});
}

TEST_CASE("init: a new tensor of the attributes' shape and type") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {2, 3});
  const TensorId zeros = m.gc().init({2, 3}, int64_t(DataType::FLOAT),
                                     int64_t(InitType::Zero), 0);
  const TensorId counts =
      m.gc().init({4}, int64_t(DataType::INT32), int64_t(InitType::Zero));
  const TensorId undefined =
      m.gc().init({5, 1}, int64_t(DataType::UINT32), int64_t(InitType::NoInit));
  REQUIRE(m.builder->getTensorShape(zeros) == Shape{2, 3});
  REQUIRE(m.builder->getTensorDataType(counts) == DataType::INT32);
  REQUIRE(m.builder->getTensorShape(undefined) == Shape{5, 1});
  REQUIRE(m.builder->getTensorDataType(undefined) == DataType::UINT32);
  const TensorId sum = m.onnx().add({x, zeros});
  const std::vector<double> xv = {1.5, -2.0, 3.25, 0.0, 7.0, -0.5};
  const Values v = run(m, {sum, counts}, {{x, xv}});
  requireClose(v[sum], xv);
  requireClose(v[counts], {0, 0, 0, 0});
}

TEST_CASE("abort: on a true condition, or always") {
  SECTION("conditional") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {1});
    const TensorId cond = m.onnx().greater({x, m.constant({0.0f})});
    m.gc().abort({cond});
    const TensorId y = m.onnx().add({x, x});
    requireClose(run(m, {y}, {{x, {-1.5}}})[y], {-3.0});
    Model m2;
    const TensorId x2 = m2.input(DataType::FLOAT, {1});
    m2.gc().abort({m2.onnx().greater({x2, m2.constant({0.0f})})});
    const TensorId y2 = m2.onnx().add({x2, x2});
    REQUIRE_THROWS_WITH(run(m2, {y2}, {{x2, {2.0}}}),
                        Catch::Matchers::Contains("AbortOnCondition"));
  }
  SECTION("unconditional") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {1});
    m.gc().abort({});
    const TensorId y = m.onnx().add({x, x});
    REQUIRE_THROWS_WITH(run(m, {y}, {{x, {1.0}}}),
                        Catch::Matchers::Contains("Abort"));
  }
  SECTION("a condition that is not a scalar") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {2});
    m.gc().abort({x});
    const TensorId y = m.onnx().add({x, x});
    REQUIRE_THROWS_WITH(run(m, {y}, {{x, {1.0, 2.0}}}),
                        Catch::Matchers::Contains("Abort") &&
                            Catch::Matchers::Contains("scalar"));
  }
}

TEST_CASE("normalize_image: 3 channels normalised, a fourth of zeros") {
  Model m;
  const TensorId img = m.input(DataType::FLOAT, {2, 2, 3});
  const TensorId off = m.input(DataType::FLOAT, {3});
  const TensorId sc = m.input(DataType::FLOAT, {3});
  const TensorId out = m.gc().normalize_image({img, off, sc}, 0.5f);
  REQUIRE(m.builder->getTensorShape(out) == Shape{2, 2, 4});
  const std::vector<double> iv = ramp(12, 0.0, 10.0), ov = {1.0, 2.0, -3.0},
                            sv = {0.5, 2.0, 0.25};
  std::vector<double> want;
  for (int p = 0; p < 4; ++p) {
    for (int c = 0; c < 3; ++c)
      want.push_back((iv[p * 3 + c] * 0.5 - ov[c]) * sv[c]);
    want.push_back(0.0);
  }
  const Values v = run(m, {out}, {{img, iv}, {off, ov}, {sc, sv}});
  requireClose(v[out], want);
}

TEST_CASE("sequenceslice: runs of rows copied, the unused ones zeroed") {
  for (int zeroUnused : {0, 1}) {
    DYNAMIC_SECTION("zeroUnused " << zeroUnused) {
      Model m;
      const TensorId src = m.input(DataType::FLOAT, {5, 2});
      const TensorId dst = m.input(DataType::FLOAT, {4, 2});
      const TensorId n = m.input(DataType::UINT32, {3});
      const TensorId so = m.input(DataType::UINT32, {3});
      const TensorId dO = m.input(DataType::UINT32, {3});
      const TensorId out = m.gc().sequenceslice({src, dst, n, so, dO}, zeroUnused);
      const std::vector<double> sv = ramp(10, 1.0), dv = ramp(8, -1.0, -1.0);
      // Rows 1-2 from source rows 0-1, row 3 from source row 3; the third
      // entry is after an N of 0, so not used.
      const Values v = run(m, {out},
                           {{src, sv}, {dst, dv}, {n, {2, 1, 0}},
                            {so, {0, 3, 4}}, {dO, {1, 3, 0}}});
      const double r0 = zeroUnused ? 0.0 : dv[0], r1 = zeroUnused ? 0.0 : dv[1];
      requireClose(v[out], {r0, r1, sv[0], sv[1], sv[2], sv[3], sv[6], sv[7]});
    }
  }
}

TEST_CASE("shapeddropout: whole rows dropped together, the same in the "
          "gradient") {
  const int64_t rows = 40, cols = 3;
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {rows, cols});
  const TensorId y = m.gc().shapeddropout({x}, {rows, 1}, 0.5f);
  const std::vector<double> xv = ramp(rows * cols, 0.5, 0.25);
  const std::vector<double> r = ramp(rows * cols, -3.0, 0.125);
  const Values v = run(m, {y}, {{x, xv}}, &r);
  int kept = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const bool keep = v[y][row * cols] != 0.0;
    kept += keep;
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = row * cols + c;
      INFO("row " << row << " column " << c);
      // Kept: x / (1 - ratio); dropped: 0, the gradient with the same mask.
      REQUIRE(v[y][i] == Approx(keep ? xv[i] * 2.0 : 0.0));
      REQUIRE(v[getGradId(x)][i] == Approx(keep ? r[i] * 2.0 : 0.0));
    }
  }
  // 40 draws with p = 0.5: both outcomes occur (all one way: 2^-39).
  REQUIRE(kept > 0);
  REQUIRE(kept < rows);
}

TEST_CASE("shapeddropout is the identity in inference") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {4, 3});
  const TensorId y = m.gc().shapeddropout({x}, {1, 3}, 0.5f);
  const std::vector<double> xv = ramp(12, 1.0);
  requireClose(run(m, {y}, {{x, xv}})[y], xv);
}

TEST_CASE("tensorremap: the values unchanged, the gradient too") {
  for (auto type : {TensorRemapType::FwdBwdReverse, TensorRemapType::FwdBwd,
                    TensorRemapType::Fwd}) {
    DYNAMIC_SECTION("remap type " << int(type)) {
      Model m;
      const TensorId x = m.input(DataType::FLOAT, {3, 4});
      const TensorId y = m.gc().tensorremap({x}, int64_t(type));
      const std::vector<double> xv = ramp(12, -2.0, 0.5), r = ramp(12, 3.0, -1.0);
      const Values v = run(m, {y}, {{x, xv}}, &r);
      requireClose(v[y], xv);
      requireClose(v[getGradId(x)], r);
    }
  }
}

TEST_CASE("copyvarupdate: the variable takes the updater's values") {
  auto builder = Builder::create();
  std::vector<float> w0 = {1.0f, 2.0f, 3.0f};
  const TensorId w = builder->addInitializedInputTensor(
      ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{3})));
  const TensorId x = builder->addInputTensor(TensorInfo(DataType::FLOAT, Shape{3}));
  const TensorId y = builder->aiGraphcoreOpset1().copyvarupdate({w, x});
  builder->addOutputTensor(y);
  // Initializers are constants in inference unless constantWeights is off.
  SessionOptions options;
  options.constantWeights = false;
  auto session = InferenceSession::createFromOnnxModel(
      builder->getModelProto(), DataFlow(1, {{y, AnchorReturnType("All")}}),
      popart_test::createTestDevice(), InputShapeInfo(), options);
  session->prepareDevice();
  session->weightsFromHost();
  std::vector<float> xv = {-4.0f, 0.5f, 8.0f}, yv(3), wv(3);
  NDArrayWrapper<float> xa(xv.data(), {3}), ya(yv.data(), {3});
  std::map<TensorId, IArray &> ins = {{x, xa}}, outs = {{y, ya}};
  StepIO io(ins, outs);
  session->run(io);
  REQUIRE(yv == xv);
  session->weightsToHost();
  WeightsIO weights;
  weights.insert(w, MutableVoidData{wv.data(), TensorInfo(DataType::FLOAT, Shape{3})});
  session->readWeights(weights);
  REQUIRE(wv == xv);
}
