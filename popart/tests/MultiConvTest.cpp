// ai.graphcore multiconv from C++ (test_multiconv.py compares 1-D and 2-D
// sets, all their gradients and the options with PyTorch): two 1-D
// convolutions, one grouped with a bias, one with input dilation and
// output padding, against a host loop; the gradients of the first
// convolution's inputs against central differences of that loop; the
// builder's errors naming the op.
#include "GraphcoreOpsHarness.hpp"

using namespace popart;
using namespace gcops;

namespace {

struct Conv1d {
  int64_t n, c, l, m, k, groups, stride, dilation, inDilation, padLower,
      padUpper, outPadLower, outPadUpper;

  int64_t paddedLength() const {
    return inDilation * (l - 1) + 1 + padLower + padUpper;
  }
  int64_t computed() const {
    return (paddedLength() - (dilation * (k - 1) + 1)) / stride + 1;
  }
  int64_t outLength() const { return computed() + outPadLower + outPadUpper; }

  // The input element at position p of the dilated, padded input, or 0.
  double input(const std::vector<double> &x, int64_t b, int64_t ch,
               int64_t p) const {
    const int64_t q = p - padLower;
    if (q < 0 || q % inDilation != 0 || q / inDilation >= l)
      return 0.0;
    return x[(b * c + ch) * l + q / inDilation];
  }

  std::vector<double> run(const std::vector<double> &x,
                          const std::vector<double> &w,
                          const std::vector<double> *bias) const {
    const int64_t cg = c / groups, mg = m / groups, out = outLength();
    std::vector<double> y(std::size_t(n * m * out), 0.0);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t o = 0; o < m; ++o) {
        const int64_t g = o / mg;
        for (int64_t i = 0; i < out; ++i) {
          double sum = 0.0;
          const int64_t j = i - outPadLower;
          if (j >= 0 && j < computed())
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t kk = 0; kk < k; ++kk)
                sum += input(x, b, g * cg + ci, j * stride + kk * dilation) *
                       w[(o * cg + ci) * k + kk];
          if (bias)
            sum += (*bias)[std::size_t(o)];
          y[std::size_t((b * m + o) * out + i)] = sum;
        }
      }
    return y;
  }
};

std::vector<double> ramp(std::size_t n, double scale, double offset) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = std::sin(double(i) * scale + offset);
  return v;
}

} // namespace

TEST_CASE("multiconv runs each convolution with its own parameters, and "
          "differentiates them") {
  // groups 2, stride 2, kernel dilation 2, a bias; and input dilation 3,
  // output padding, no bias.
  const Conv1d a{2, 4, 9, 6, 3, 2, 2, 2, 1, 1, 2, 0, 0};
  const Conv1d b{1, 3, 4, 2, 2, 1, 1, 1, 3, 1, 0, 2, 1};
  Model m;
  const TensorId xa = m.input(DataType::FLOAT, {a.n, a.c, a.l});
  const TensorId wa = m.input(DataType::FLOAT, {a.m, a.c / a.groups, a.k});
  const TensorId ba = m.input(DataType::FLOAT, {a.m});
  const TensorId xb = m.input(DataType::FLOAT, {b.n, b.c, b.l});
  const TensorId wb = m.input(DataType::FLOAT, {b.m, b.c, b.k});
  const auto outs = m.gc().multiconv(
      {{xa, wa, ba}, {xb, wb}}, {{a.dilation}, {b.dilation}},
      {{a.inDilation}, {b.inDilation}},
      {{a.padLower, a.padUpper}, {b.padLower, b.padUpper}},
      {{a.outPadLower, a.outPadUpper}, {b.outPadLower, b.outPadUpper}},
      {{a.stride}, {b.stride}});
  REQUIRE(outs.size() == 2);
  CHECK(m.builder->getTensorShape(outs[0]) == Shape{a.n, a.m, a.outLength()});
  CHECK(m.builder->getTensorShape(outs[1]) == Shape{b.n, b.m, b.outLength()});

  const std::map<TensorId, std::vector<double>> feed{
      {xa, ramp(std::size_t(a.n * a.c * a.l), 0.7, 0.1)},
      {wa, ramp(std::size_t(a.m * a.c / a.groups * a.k), 1.3, 0.5)},
      {ba, ramp(std::size_t(a.m), 2.1, 0.2)},
      {xb, ramp(std::size_t(b.n * b.c * b.l), 0.9, 0.3)},
      {wb, ramp(std::size_t(b.m * b.c * b.k), 1.1, 0.7)}};
  const Values v = run(m, outs, feed);
  requireClose(v[outs[0]], a.run(feed.at(xa), feed.at(wa), &feed.at(ba)));
  requireClose(v[outs[1]], b.run(feed.at(xb), feed.at(wb), nullptr));

  // The gradients of sum(out0 * r): central differences of the host loop
  // (the loop is linear in each input, so they are exact up to rounding).
  Model t;
  const TensorId txa = t.input(DataType::FLOAT, {a.n, a.c, a.l});
  const TensorId twa = t.input(DataType::FLOAT, {a.m, a.c / a.groups, a.k});
  const TensorId tba = t.input(DataType::FLOAT, {a.m});
  const TensorId txb = t.input(DataType::FLOAT, {b.n, b.c, b.l});
  const TensorId twb = t.input(DataType::FLOAT, {b.m, b.c, b.k});
  const auto touts = t.gc().multiconv(
      {{txa, twa, tba}, {txb, twb}}, {{a.dilation}, {b.dilation}},
      {{a.inDilation}, {b.inDilation}},
      {{a.padLower, a.padUpper}, {b.padLower, b.padUpper}},
      {{a.outPadLower, a.outPadUpper}, {b.outPadLower, b.outPadUpper}},
      {{a.stride}, {b.stride}});
  const std::vector<double> r =
      ramp(std::size_t(a.n * a.m * a.outLength()), 0.37, 0.9);
  const std::map<TensorId, std::vector<double>> tfeed{
      {txa, feed.at(xa)}, {twa, feed.at(wa)}, {tba, feed.at(ba)},
      {txb, feed.at(xb)}, {twb, feed.at(wb)}};
  const Values g = run(t, touts, tfeed, &r);
  const auto loss = [&](const std::vector<double> &x,
                        const std::vector<double> &w,
                        const std::vector<double> &bias) {
    const auto y = a.run(x, w, &bias);
    double s = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i)
      s += y[i] * r[i];
    return s;
  };
  for (int which = 0; which < 3; ++which) {
    std::vector<double> x = tfeed.at(txa), w = tfeed.at(twa),
                        bias = tfeed.at(tba);
    std::vector<double> &p = which == 0 ? x : which == 1 ? w : bias;
    std::vector<double> want(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double saved = p[i];
      p[i] = saved + 0.5;
      const double up = loss(x, w, bias);
      p[i] = saved - 0.5;
      want[i] = up - loss(x, w, bias);
      p[i] = saved;
    }
    const TensorId id = which == 0 ? txa : which == 1 ? twa : tba;
    INFO("gradient of " << id);
    requireClose(g[getGradId(id)], want, 1e-4);
  }
  // Nothing reaches the second convolution's inputs but zeros.
  for (double e : g[getGradId(twb)])
    CHECK(e == 0.0);
}

TEST_CASE("multiconv's argument errors name the op") {
  Model m;
  const TensorId x = m.input(DataType::FLOAT, {1, 2, 5});
  const TensorId w = m.input(DataType::FLOAT, {3, 2, 2});
  CHECK_THROWS_WITH(m.gc().multiconv({}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                                     {}, {}, {"mc"}),
                    Catch::Contains("MultiConv 'mc' has no input tensors"));
  CHECK_THROWS_WITH(m.gc().multiconv({{x}}, {}, {}, {}, {}, {}, {}, {}, {},
                                     {}, {}, {}, {"mc"}),
                    Catch::Contains("Convolution 0 of MultiConv 'mc' has 1 inputs"));
  CHECK_THROWS_WITH(
      m.gc().multiconv({{x, w}, {x, w}}, {}, {}, {}, {}, {{1}}, {}, {}, {},
                       {}, {}, {}, {"mc"}),
      Catch::Contains("MultiConv 'mc': 1 parameter sets of strides for 2 input sets"));
  CHECK_THROWS_WITH(
      m.gc().multiconv({{x, w}}, {}, {}, {}, {}, {}, {}, {"float", "half"},
                       {}, {}, {}, {}, {"mc"}),
      Catch::Contains("2 parameter sets of partialsTypes for 1 input sets"));
}
