// The ai.graphcore operators of AiGraphcoreOpset1 built with the Builder
// and run in a session, compared with values computed here on the host;
// the gradients of those with one (a TrainingSession with the loss
// sum(y * r), so that dL/dy = r), and the errors of bad attributes and
// types, which name the op.
#include "PopartTestDevice.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <memory>
#include <string>
#include <vector>

using namespace popart;

namespace {

// Host inputs and the outputs read back, all as doubles (FLOAT, INT32 and
// UINT32 tensors on the device).
struct Values {
  std::map<TensorId, std::vector<double>> byId;
  const std::vector<double> &operator[](const TensorId &id) const {
    return byId.at(id);
  }
};

struct Buffers {
  std::vector<std::unique_ptr<IArray>> arrays;
  std::vector<std::vector<float>> floats;
  std::vector<std::vector<int32_t>> ints;
  std::vector<std::vector<uint32_t>> uints;
  std::vector<std::vector<int64_t>> longs;
  IArray &make(const TensorInfo &info, const std::vector<double> &v) {
    const Shape shape = info.shape();
    switch (info.dataType()) {
    case DataType::INT32:
      ints.emplace_back(v.begin(), v.end());
      arrays.push_back(
          std::make_unique<NDArrayWrapper<int32_t>>(ints.back().data(), shape));
      break;
    case DataType::INT64:
      longs.emplace_back(v.begin(), v.end());
      arrays.push_back(std::make_unique<NDArrayWrapper<int64_t>>(
          longs.back().data(), shape));
      break;
    case DataType::UINT32:
      uints.emplace_back(v.begin(), v.end());
      arrays.push_back(std::make_unique<NDArrayWrapper<uint32_t>>(
          uints.back().data(), shape));
      break;
    default:
      floats.emplace_back(v.begin(), v.end());
      arrays.push_back(
          std::make_unique<NDArrayWrapper<float>>(floats.back().data(), shape));
    }
    return *arrays.back();
  }
  std::vector<double> read(std::size_t i, DataType type) {
    IArray &a = *arrays[i];
    std::vector<double> out(a.nelms());
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (type == DataType::INT32)
        out[k] = static_cast<const int32_t *>(a.data())[k];
      else if (type == DataType::UINT32)
        out[k] = static_cast<const uint32_t *>(a.data())[k];
      else if (type == DataType::INT64)
        out[k] = static_cast<double>(static_cast<const int64_t *>(a.data())[k]);
      else
        out[k] = static_cast<const float *>(a.data())[k];
    }
    return out;
  }
};

// A model's inputs (id, info, values) and the outputs to read.
struct Model {
  std::unique_ptr<Builder> builder = Builder::create();
  std::vector<std::pair<TensorId, TensorInfo>> inputs;
  AiGraphcoreOpset1 gc() { return builder->aiGraphcoreOpset1(); }
  AiOnnxOpset11 onnx() { return builder->aiOnnxOpset11(); }
  /// A FLOAT constant (not differentiated).
  TensorId constant(const std::vector<float> &v) {
    return onnx().constant(ConstVoidData(
        v.data(), TensorInfo(DataType::FLOAT, Shape{int64_t(v.size())})));
  }
  TensorId input(DataType type, Shape shape) {
    TensorInfo info(type, shape);
    TensorId id = builder->addInputTensor(info);
    inputs.push_back({id, info});
    return id;
  }
};

// Runs the model once: in inference, or in training with the loss
// sum(y * r) over outputs[0] when `r` is given (then the gradients of the
// FLOAT inputs are read as getGradId(input)).
Values run(Model &m, const std::vector<TensorId> &outputs,
           const std::map<TensorId, std::vector<double>> &feed,
           const std::vector<double> *r = nullptr) {
  Builder &b = *m.builder;
  std::vector<std::pair<TensorId, DataType>> anchors;
  for (const auto &o : outputs)
    anchors.push_back({o, b.getTensorDataType(o)});
  std::unique_ptr<Session> session;
  TensorId rId;
  if (r) {
    const Shape yShape = b.getTensorShape(outputs[0]);
    rId = m.input(DataType::FLOAT, yShape);
    const TensorId prod = m.onnx().mul({outputs[0], rId});
    const TensorId loss = m.gc().identityloss({prod}, ReductionType::Sum);
    for (const auto &in : m.inputs)
      if (in.second.dataType() == DataType::FLOAT && in.first != rId)
        anchors.push_back({getGradId(in.first), DataType::FLOAT});
    AnchorReturnTypeMap art;
    for (const auto &a : anchors)
      art[a.first] = AnchorReturnType("All");
    session = TrainingSession::createFromOnnxModel(
        b.getModelProto(), DataFlow(1, art), loss, ConstSGD(0.0f),
        popart_test::createTestDevice());
  } else {
    for (const auto &o : outputs)
      b.addOutputTensor(o);
    AnchorReturnTypeMap art;
    for (const auto &a : anchors)
      art[a.first] = AnchorReturnType("All");
    session = InferenceSession::createFromOnnxModel(
        b.getModelProto(), DataFlow(1, art), popart_test::createTestDevice());
  }
  session->prepareDevice();
  session->weightsFromHost();
  Buffers buffers;
  std::map<TensorId, IArray &> ins, outs;
  for (const auto &in : m.inputs) {
    const std::vector<double> &v = in.first == rId ? *r : feed.at(in.first);
    ins.emplace(in.first, buffers.make(in.second, v));
  }
  std::vector<std::size_t> outIndex;
  for (const auto &a : anchors) {
    const TensorInfo info(a.second, session->getInfo(a.first).shape());
    outIndex.push_back(buffers.arrays.size());
    outs.emplace(a.first,
                 buffers.make(info, std::vector<double>(info.nelms(), 0.0)));
  }
  StepIO io(ins, outs);
  session->run(io);
  Values result;
  for (std::size_t i = 0; i < anchors.size(); ++i)
    result.byId[anchors[i].first] =
        buffers.read(outIndex[i], anchors[i].second);
  return result;
}

void requireClose(const std::vector<double> &got,
                  const std::vector<double> &want, double tol = 1e-5) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": " << got[i] << " vs " << want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <= tol * (1.0 + std::abs(want[i])));
  }
}

// The session of a model whose op is bad: the popart::error it gives.
std::string errorOf(Model &m, const TensorId &out) {
  try {
    std::map<TensorId, std::vector<double>> feed;
    for (const auto &in : m.inputs)
      feed[in.first] = std::vector<double>(in.second.nelms(), 1.0);
    run(m, {out}, feed);
  } catch (const popart::error &e) {
    return e.what();
  }
  return "no error";
}

// Row-major index helpers.
int64_t flat(const Shape &s, const std::vector<int64_t> &i) {
  int64_t f = 0;
  for (std::size_t d = 0; d < s.size(); ++d)
    f = f * s[d] + i[d];
  return f;
}
std::vector<int64_t> unflat(const Shape &s, int64_t f) {
  std::vector<int64_t> i(s.size());
  for (std::size_t d = s.size(); d-- > 0;) {
    i[d] = f % s[d];
    f /= s[d];
  }
  return i;
}

std::vector<double> ramp(int64_t n, double start = 0.0, double step = 1.0) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = start + step * static_cast<double>(i);
  return v;
}

} // namespace

TEST_CASE("atan2 of broadcast inputs, and its gradients") {
  Model m;
  const TensorId y = m.input(DataType::FLOAT, {2, 3});
  const TensorId x = m.input(DataType::FLOAT, {3});
  const TensorId out = m.gc().atan2({y, x});
  const std::vector<double> yv = {0.5, -1.0, 2.0, -0.25, 0.0, -3.0};
  const std::vector<double> xv = {-1.5, 0.75, -0.5};
  const std::vector<double> r = {1.0, -2.0, 0.5, 3.0, 1.5, -1.0};
  SECTION("forward") {
    const Values v = run(m, {out}, {{y, yv}, {x, xv}});
    std::vector<double> want;
    for (int i = 0; i < 6; ++i)
      want.push_back(std::atan2(yv[i], xv[i % 3]));
    requireClose(v[out], want);
  }
  SECTION("gradients") {
    const Values v = run(m, {out}, {{y, yv}, {x, xv}}, &r);
    std::vector<double> dy(6), dx(3, 0.0);
    for (int i = 0; i < 6; ++i) {
      const double xi = xv[i % 3], r2 = xi * xi + yv[i] * yv[i];
      dy[i] = r[i] * xi / r2;
      dx[i % 3] += -r[i] * yv[i] / r2;
    }
    requireClose(v[getGradId(y)], dy);
    requireClose(v[getGradId(x)], dx);
  }
}

TEST_CASE("fmod and remainder: the signs of the dividend and the divisor") {
  const std::vector<double> a = {5.5, -5.5, 5.5, -5.5, 3.0, -7.0, 0.0, 6.0};
  const std::vector<double> b = {2.0, 2.0, -2.0, -2.0, 1.5, 2.5, 3.0, -4.0};
  auto python = [](double x, double y) { return x - y * std::floor(x / y); };
  for (const DataType type : {DataType::FLOAT, DataType::INT32}) {
    DYNAMIC_SECTION("type " << getDataTypeInfo(type).name()) {
      std::vector<double> av = a, bv = b;
      if (type == DataType::INT32)
        for (std::size_t i = 0; i < av.size(); ++i) {
          av[i] = std::trunc(av[i]);
          bv[i] = std::trunc(bv[i]) == 0 ? 1.0 : std::trunc(bv[i]);
        }
      Model m;
      const TensorId x = m.input(type, {8});
      const TensorId y = m.input(type, {8});
      const TensorId f = m.gc().fmod({x, y});
      const TensorId rem = m.gc().remainder({x, y});
      const Values v = run(m, {f, rem}, {{x, av}, {y, bv}});
      std::vector<double> wantF, wantR;
      for (std::size_t i = 0; i < av.size(); ++i) {
        wantF.push_back(std::fmod(av[i], bv[i]));
        wantR.push_back(python(av[i], bv[i]));
      }
      requireClose(v[f], wantF);
      requireClose(v[rem], wantR);
    }
  }
  SECTION("the dividend's gradient passes through") {
    for (const bool isFmod : {true, false}) {
      Model m;
      const TensorId x = m.input(DataType::FLOAT, {2, 4});
      const TensorId y = m.constant({2.0f, -2.0f, 1.5f, 2.5f});
      const TensorId out =
          isFmod ? m.gc().fmod({x, y}) : m.gc().remainder({x, y});
      const std::vector<double> r = ramp(8, -2.0, 0.5);
      const Values v = run(m, {out}, {{x, a}}, &r);
      requireClose(v[getGradId(x)], r);
    }
  }
}

TEST_CASE("round and nearbyint: ties to even") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {8});
  const TensorId rounded = m.gc().round({x});
  const TensorId nearby = m.gc().nearbyint({x});
  const std::vector<double> xv = {0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6, 7.0};
  const Values v = run(m, {rounded, nearby}, {{x, xv}});
  std::vector<double> want;
  for (double d : xv)
    want.push_back(std::nearbyint(d));
  requireClose(v[rounded], want);
  requireClose(v[nearby], want);
}

TEST_CASE("incrementmod and bucketize") {
  SECTION("incrementmod of FLOAT and INT32") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {6});
    const TensorId i = m.input(DataType::INT32, {6});
    const TensorId fx = m.gc().incrementmod({x}, 1.5f, 4.0f);
    const TensorId fi = m.gc().incrementmod({i}, 3.0f, 5.0f);
    const std::vector<double> xv = {0.0, 1.0, 2.5, 3.0, -7.25, 10.0};
    const std::vector<double> iv = {0, 1, 2, 4, 7, -9};
    const Values v = run(m, {fx, fi}, {{x, xv}, {i, iv}});
    std::vector<double> wx, wi;
    for (std::size_t k = 0; k < xv.size(); ++k) {
      wx.push_back(std::fmod(xv[k] + 1.5, 4.0));
      wi.push_back(std::fmod(iv[k] + 3.0, 5.0));
    }
    requireClose(v[fx], wx);
    requireClose(v[fi], wi, 0.0);
  }
  SECTION("bucketize with the left and the right boundary closed") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {2, 4});
    const TensorId b = m.input(DataType::FLOAT, {4});
    const TensorId left = m.gc().bucketize({x, b}, 0);
    const TensorId right = m.gc().bucketize({x, b}, 1);
    REQUIRE(m.builder->getTensorDataType(left) == DataType::INT32);
    const std::vector<double> xv = {0.5, 1.0, 2.0, 3.0, 5.5, 7.0, 8.0, -1.0};
    const std::vector<double> bv = {1.0, 3.0, 5.0, 7.0};
    const Values v = run(m, {left, right}, {{x, xv}, {b, bv}});
    std::vector<double> wl, wr;
    for (double d : xv) {
      int l = 0, r = 0;
      for (double e : bv) {
        l += e < d;
        r += e <= d;
      }
      wl.push_back(l);
      wr.push_back(r);
    }
    requireClose(v[left], wl, 0.0);
    requireClose(v[right], wr, 0.0);
  }
}

TEST_CASE("sort: values, indices and the gradient") {
  for (const int descending : {0, 1}) {
    DYNAMIC_SECTION("descending " << descending) {
      Model m;
      const TensorId x = m.input(DataType::FLOAT, {2, 5});
      const auto outs = m.gc().sort({x}, 1, descending, 1);
      REQUIRE(outs.size() == 2);
      const std::vector<double> xv = {3.0, -1.0, 2.0, -1.0, 0.5,
                                      4.0, 4.0,  1.0, -2.0, 0.0};
      const std::vector<double> r = ramp(10, -1.0, 0.3);
      const Values v = run(m, {outs[0], outs[1]}, {{x, xv}}, &r);
      std::vector<double> values, indices, grad(10, 0.0);
      for (int row = 0; row < 2; ++row) {
        std::vector<int> order = {0, 1, 2, 3, 4};
        std::stable_sort(order.begin(), order.end(), [&](int p, int q) {
          const double a = xv[row * 5 + p], b = xv[row * 5 + q];
          return descending ? a > b : a < b;
        });
        for (int j = 0; j < 5; ++j) {
          values.push_back(xv[row * 5 + order[j]]);
          indices.push_back(order[j]);
          grad[row * 5 + order[j]] = r[row * 5 + j];
        }
      }
      requireClose(v[outs[0]], values);
      requireClose(v[outs[1]], indices, 0.0);
      requireClose(v[getGradId(x)], grad);
    }
  }
}

TEST_CASE("reducemedian: the lower median, its index, its gradient") {
  const std::vector<double> xv = {4.0, -1.0, 2.5, 7.0,  //
                                  0.5, 3.0,  -2.0, 1.0, //
                                  9.0, 8.0,  6.5, -3.0};
  SECTION("over axis 1 without keepdims") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {3, 4});
    const auto outs = m.gc().reducemedian({x}, std::vector<int64_t>{1}, 0);
    REQUIRE(m.builder->getTensorShape(outs[0]) == Shape{3});
    const std::vector<double> r = {1.5, -2.0, 0.5};
    const Values v = run(m, {outs[0], outs[1]}, {{x, xv}}, &r);
    std::vector<double> med, idx, grad(12, 0.0);
    for (int row = 0; row < 3; ++row) {
      std::vector<int> order = {0, 1, 2, 3};
      std::sort(order.begin(), order.end(), [&](int p, int q) {
        return xv[row * 4 + p] < xv[row * 4 + q];
      });
      const int at = order[1]; // the lower of the two middle ones
      med.push_back(xv[row * 4 + at]);
      idx.push_back(at);
      grad[row * 4 + at] = r[row];
    }
    requireClose(v[outs[0]], med);
    requireClose(v[outs[1]], idx, 0.0);
    requireClose(v[getGradId(x)], grad);
  }
  SECTION("over every axis, kept as 1") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {3, 4});
    const auto outs = m.gc().reducemedian({x});
    REQUIRE(m.builder->getTensorShape(outs[0]) == Shape{1, 1});
    const Values v = run(m, {outs[0], outs[1]}, {{x, xv}});
    std::vector<int> order(12);
    for (int i = 0; i < 12; ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](int p, int q) { return xv[p] < xv[q]; });
    requireClose(v[outs[0]], {xv[order[5]]});
    requireClose(v[outs[1]], {double(order[5])}, 0.0);
  }
}

TEST_CASE("bitwise operations of INT32 tensors") {
  Model m;
  const TensorId a = m.input(DataType::INT32, {2, 3});
  const TensorId b = m.input(DataType::INT32, {3});
  auto gc = m.gc();
  const TensorId andId = gc.bitwiseand({a, b});
  const TensorId orId = gc.bitwiseor({a, b});
  const TensorId xorId = gc.bitwisexor({a, b});
  const TensorId xnorId = gc.bitwisexnor({a, b});
  const TensorId notId = gc.bitwisenot({a});
  const std::vector<int32_t> av = {12, -7, 255, 0, 1 << 20, -1};
  const std::vector<int32_t> bv = {10, 0x0f0f, -256};
  const Values v =
      run(m, {andId, orId, xorId, xnorId, notId},
          {{a, {av.begin(), av.end()}}, {b, {bv.begin(), bv.end()}}});
  std::vector<double> wAnd, wOr, wXor, wXnor, wNot;
  for (int i = 0; i < 6; ++i) {
    const int32_t x = av[i], y = bv[i % 3];
    wAnd.push_back(x & y);
    wOr.push_back(x | y);
    wXor.push_back(x ^ y);
    wXnor.push_back(~(x ^ y));
    wNot.push_back(~x);
  }
  requireClose(v[andId], wAnd, 0.0);
  requireClose(v[orId], wOr, 0.0);
  requireClose(v[xorId], wXor, 0.0);
  requireClose(v[xnorId], wXnor, 0.0);
  requireClose(v[notId], wNot, 0.0);
}

TEST_CASE("reverse, slice, subsample and depthtospace, with gradients") {
  const Shape s = {2, 3, 4};
  const std::vector<double> xv = ramp(24, -3.0, 0.25);
  SECTION("reverse along dimensions 0 and 2 (negative: from the end)") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, s);
    const TensorId out = m.gc().reverse({x}, {0, -1});
    const std::vector<double> r = ramp(24, 1.0, -0.125);
    const Values v = run(m, {out}, {{x, xv}}, &r);
    std::vector<double> want(24), grad(24);
    for (int64_t o = 0; o < 24; ++o) {
      auto i = unflat(s, o);
      i[0] = 1 - i[0];
      i[2] = 3 - i[2];
      want[o] = xv[flat(s, i)];
      grad[flat(s, i)] = r[o];
    }
    requireClose(v[out], want);
    requireClose(v[getGradId(x)], grad);
  }
  SECTION("slice with attributes (ends before starts), and its gradient") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, s);
    const TensorId out = m.gc().slice({x}, {3, -1}, {1, 1}, {1, 2});
    REQUIRE(m.builder->getTensorShape(out) == Shape{2, 2, 2});
    const std::vector<double> r = ramp(8, 0.5, 1.0);
    const Values v = run(m, {out}, {{x, xv}}, &r);
    std::vector<double> grad(24, 0.0);
    for (int64_t o = 0; o < 8; ++o) {
      const auto i = unflat({2, 2, 2}, o);
      grad[flat(s, {i[0], i[1] + 1, i[2] + 1})] = r[o];
    }
    requireClose(v[getGradId(x)], grad);
  }
  SECTION("subsample every 2nd and 3rd element") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {5, 7});
    const TensorId out = m.gc().subsample({x}, {2, 3});
    REQUIRE(m.builder->getTensorShape(out) == Shape{3, 3});
    const std::vector<double> in = ramp(35, 1.0, 1.5);
    const std::vector<double> r = ramp(9, -1.0, 0.5);
    const Values v = run(m, {out}, {{x, in}}, &r);
    std::vector<double> want, grad(35, 0.0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        want.push_back(in[2 * i * 7 + 3 * j]);
        grad[2 * i * 7 + 3 * j] = r[i * 3 + j];
      }
    requireClose(v[out], want);
    requireClose(v[getGradId(x)], grad);
  }
  SECTION("depthtospace in CRD mode") {
    Model m;
    const Shape in = {1, 8, 2, 3};
    const TensorId x = m.input(DataType::FLOAT, in);
    const TensorId out = m.gc().depthtospace({x}, 2, "CRD");
    const std::vector<double> xin = ramp(48);
    const Values v = run(m, {out}, {{x, xin}});
    // y[n, c, h*b + i, w*b + j] = x[n, c*b*b + i*b + j, h, w].
    const Shape os = {1, 2, 4, 6};
    std::vector<double> want(48);
    for (int64_t o = 0; o < 48; ++o) {
      const auto i = unflat(os, o);
      const int64_t c = i[1], h = i[2] / 2, bi = i[2] % 2, w = i[3] / 2,
                    bj = i[3] % 2;
      want[o] = xin[flat(in, {0, c * 4 + bi * 2 + bj, h, w})];
    }
    requireClose(v[out], want);
  }
}

TEST_CASE("dynamic slice, update, zero and add at offsets read at run time") {
  const Shape s = {4, 5};
  const std::vector<double> tv = ramp(20, -5.0, 0.5);
  const std::vector<double> sv = ramp(6, 10.0, 1.0);
  const std::vector<double> offset = {1, 2};
  // The positions of the slice (2 rows from 1, 3 columns from 2).
  auto inSlice = [](int64_t row, int64_t col) {
    return row >= 1 && row < 3 && col >= 2 && col < 5;
  };
  auto sliceIndex = [](int64_t row, int64_t col) {
    return (row - 1) * 3 + (col - 2);
  };
  for (const std::string kind : {"slice", "update", "zero", "add"}) {
    DYNAMIC_SECTION(kind) {
      Model m;
      const TensorId t = m.input(DataType::FLOAT, s);
      const TensorId o = m.input(DataType::INT32, {2});
      const bool usesSlice = kind == "update" || kind == "add";
      const TensorId sl = usesSlice ? m.input(DataType::FLOAT, {2, 3}) : "";
      auto gc = m.gc();
      TensorId out;
      if (kind == "slice")
        out = gc.dynamicslice({t, o}, {0, 1}, {2, 3}, 1);
      else if (kind == "update")
        out = gc.dynamicupdate({t, o, sl}, {0, 1}, {2, 3}, 0);
      else if (kind == "zero")
        out = gc.dynamiczero({t, o}, {0, 1}, {2, 3});
      else
        out = gc.dynamicadd({t, o, sl}, {0, 1}, {2, 3});
      const int64_t n = kind == "slice" ? 6 : 20;
      const std::vector<double> r = ramp(n, 0.25, 0.5);
      std::map<TensorId, std::vector<double>> feed = {{t, tv}, {o, offset}};
      if (usesSlice)
        feed[sl] = sv;
      const Values v = run(m, {out}, feed, &r);
      std::vector<double> gradT(20, 0.0), gradS(6, 0.0);
      for (int64_t row = 0; row < 4; ++row)
        for (int64_t col = 0; col < 5; ++col) {
          const int64_t i = row * 5 + col;
          const bool in = inSlice(row, col);
          if (kind == "slice") {
            if (in)
              gradT[i] = r[sliceIndex(row, col)];
          } else if (kind == "add") {
            gradT[i] = r[i];
            if (in)
              gradS[sliceIndex(row, col)] = r[i];
          } else {
            gradT[i] = in ? 0.0 : r[i];
            if (in)
              gradS[sliceIndex(row, col)] = r[i];
          }
        }
      requireClose(v[getGradId(t)], gradT);
      if (usesSlice)
        requireClose(v[getGradId(sl)], gradS);
    }
  }
  SECTION("forward values, at two offsets in turn") {
    for (const std::vector<double> &off :
         {std::vector<double>{1, 2}, std::vector<double>{2, 0}}) {
      Model m;
      const TensorId t = m.input(DataType::FLOAT, s);
      const TensorId o = m.input(DataType::INT32, {2});
      const TensorId sl = m.input(DataType::FLOAT, {2, 3});
      auto gc = m.gc();
      const TensorId slice = gc.dynamicslice({t, o}, {0, 1}, {2, 3}, 0);
      const TensorId update = gc.dynamicupdate({t, o, sl}, {0, 1}, {2, 3}, 0);
      const TensorId zero = gc.dynamiczero({t, o}, {0, 1}, {2, 3});
      const TensorId add = gc.dynamicadd({t, o, sl}, {0, 1}, {2, 3});
      const Values v = run(m, {slice, update, zero, add},
                           {{t, tv}, {o, off}, {sl, sv}});
      std::vector<double> wSlice, wUpdate = tv, wZero = tv, wAdd = tv;
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) {
          const int64_t at = (i + int64_t(off[0])) * 5 + j + int64_t(off[1]);
          wSlice.push_back(tv[at]);
          wUpdate[at] = sv[i * 3 + j];
          wZero[at] = 0.0;
          wAdd[at] += sv[i * 3 + j];
        }
      requireClose(v[slice], wSlice);
      requireClose(v[update], wUpdate);
      requireClose(v[zero], wZero);
      requireClose(v[add], wAdd);
    }
  }
}

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

TEST_CASE("bad attributes and types give errors naming the op") {
  using Catch::Matchers::Contains;
  SECTION("bitwise of FLOAT") {
    Model m;
    const TensorId a = m.input(DataType::FLOAT, {3});
    std::string e;
    try {
      e = errorOf(m, m.gc().bitwiseand({a, a}));
    } catch (const popart::error &err) {
      e = err.what();
    }
    REQUIRE_THAT(e, Contains("BitwiseAnd"));
  }
  SECTION("atan2 of INT32") {
    Model m;
    const TensorId a = m.input(DataType::INT32, {3});
    std::string e;
    try {
      e = errorOf(m, m.gc().atan2({a, a}));
    } catch (const popart::error &err) {
      e = err.what();
    }
    REQUIRE_THAT(e, Contains("Atan2"));
  }
  SECTION("a dynamic slice larger than its dimension") {
    Model m;
    const TensorId t = m.input(DataType::FLOAT, {4, 5});
    const TensorId o = m.input(DataType::INT32, {1});
    REQUIRE_THAT(errorOf(m, m.gc().dynamicslice({t, o}, {1}, {6}, 0)),
                 Contains("DynamicSlice") && Contains("size 6"));
  }
  SECTION("a dynamic update without its slice") {
    Model m;
    const TensorId t = m.input(DataType::FLOAT, {4, 5});
    const TensorId o = m.input(DataType::INT32, {1});
    REQUIRE_THROWS_WITH(m.gc().dynamicupdate({t, o}, {0}, {1}, 0),
                        Contains("DynamicUpdate"));
  }
  SECTION("an offset with the wrong number of elements") {
    Model m;
    const TensorId t = m.input(DataType::FLOAT, {4, 5});
    const TensorId o = m.input(DataType::INT32, {2});
    REQUIRE_THAT(errorOf(m, m.gc().dynamiczero({t, o}, {0}, {1})),
                 Contains("DynamicZero") && Contains("offset"));
  }
  SECTION("a subsample stride of 0, and too few strides") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {4, 5});
    REQUIRE_THROWS_WITH(m.gc().subsample({x}, {1, 0}),
                        Contains("Subsample") && Contains("index 1"));
    REQUIRE_THAT(errorOf(m, m.gc().subsample({x}, {2})),
                 Contains("Subsample") && Contains("1 strides"));
  }
  SECTION("group norm groups that do not divide the channels") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {2, 6, 3});
    const TensorId s = m.input(DataType::FLOAT, {6});
    REQUIRE_THAT(errorOf(m, m.gc().groupnormalization({x, s, s}, 4).at(0)),
                 Contains("GroupNormalization") && Contains("num_groups 4"));
    REQUIRE_THROWS_WITH(m.gc().groupnormalization({x, s}, 2),
                        Contains("GroupNormalization"));
  }
  SECTION("scatterreduce: a zero axis_size, a partially broadcast index") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {4, 3});
    const TensorId i = m.input(DataType::INT32, {4, 3});
    REQUIRE_THAT(errorOf(m, m.gc().scatterreduce({x, i}, 0)),
                 Contains("ScatterReduce") && Contains("axis_size"));
    Model m2;
    const TensorId x2 = m2.input(DataType::FLOAT, {4, 3});
    const TensorId partial = m2.input(DataType::INT32, {2, 3});
    REQUIRE_THAT(errorOf(m2, m2.gc().scatterreduce({x2, partial}, 2, 0)),
                 Contains("ScatterReduce") && Contains("partial broadcast"));
  }
  SECTION("groupedgather: groups that are not dimension 0's size") {
    Model m;
    const TensorId d = m.input(DataType::FLOAT, {3, 4});
    const TensorId i = m.input(DataType::INT32, {2, 2});
    REQUIRE_THAT(errorOf(m, m.gc().groupedgather({d, i}, 1, 2)),
                 Contains("GroupedGather") && Contains("groups"));
  }
  SECTION("init: an unknown init_type, a batch_axis out of range") {
    Model m;
    REQUIRE_THAT(errorOf(m, m.gc().init({2}, int64_t(DataType::FLOAT), 2)),
                 Contains("Init") && Contains("init_type 2"));
    Model m2;
    REQUIRE_THAT(errorOf(m2, m2.gc().init({2}, int64_t(DataType::FLOAT), 1, 1)),
                 Contains("Init") && Contains("batch_axis 1"));
  }
  SECTION("normalize_image of 4 channels, sequenceslice of INT32 offsets") {
    Model m;
    const TensorId img = m.input(DataType::FLOAT, {2, 4});
    const TensorId c = m.input(DataType::FLOAT, {3});
    REQUIRE_THAT(errorOf(m, m.gc().normalize_image({img, c, c}, 1.0f)),
                 Contains("NormalizeImage") && Contains("inner dimension"));
    Model m2;
    const TensorId t = m2.input(DataType::FLOAT, {4, 2});
    const TensorId i = m2.input(DataType::INT32, {2});
    REQUIRE_THAT(errorOf(m2, m2.gc().sequenceslice({t, t, i, i, i}, 0)),
                 Contains("SequenceSlice") && Contains("UINT32"));
  }
  SECTION("shapeddropout with a shape that does not broadcast") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {4, 3});
    REQUIRE_THAT(errorOf(m, m.gc().shapeddropout({x}, {2, 1}, 0.5f)),
                 Contains("ShapedDropout") && Contains("broadcastable"));
  }
  SECTION("tensorremap of an unknown remap type") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {3});
    REQUIRE_THAT(errorOf(m, m.gc().tensorremap({x}, 3)),
                 Contains("TensorRemap") && Contains("remap_type 3"));
  }
  SECTION("copyvarupdate of a constant (inference, constantWeights)") {
    Model m;
    std::vector<float> w0 = {1.0f, 2.0f};
    const TensorId w = m.builder->addInitializedInputTensor(
        ConstVoidData(w0.data(), TensorInfo(DataType::FLOAT, Shape{2})));
    const TensorId x = m.input(DataType::FLOAT, {2});
    REQUIRE_THAT(errorOf(m, m.gc().copyvarupdate({w, x})),
                 Contains("CopyVarUpdate") && Contains("Const"));
  }
  SECTION("a reverse dimension out of range") {
    Model m;
    const TensorId x = m.input(DataType::FLOAT, {4, 5});
    REQUIRE_THAT(errorOf(m, m.gc().reverse({x}, {2})),
                 Contains("Reverse") && Contains("dimension 2"));
  }
}
