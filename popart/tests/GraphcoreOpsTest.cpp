// The ai.graphcore operators of AiGraphcoreOpset1 built with the Builder
// and run in a session, compared with values computed here on the host;
// the gradients of those with one (a TrainingSession with the loss
// sum(y * r), so that dL/dy = r), and the errors of bad attributes and
// types, which name the op.
#include "GraphcoreOpsHarness.hpp"

using namespace popart;
using namespace gcops;

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
