// popnn::pooling::pool and poolInputGradient, MAX, AVG and SUM, 1-D to
// 3-D, with strides and padding, against PyTorch's max_pool/avg_pool and
// their autograd gradients, and host loops for asymmetric padding and
// truncation (which PyTorch's pooling does not take); errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/Pooling.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using popnn::PoolingType;
using popnn::pooling::PoolParams;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t batch = 2, channels = 3;

struct Case {
  std::vector<std::size_t> field, kernel;
  std::vector<unsigned> stride;
  std::vector<int> padding; // symmetric
};

const std::vector<Case> torchCases = {
    {{9}, {3}, {2}, {1}},
    {{7, 6}, {3, 2}, {2, 1}, {1, 0}},
    {{4, 5, 3}, {2, 3, 2}, {1, 2, 1}, {0, 1, 1}},
};

std::string list(const std::vector<std::size_t> &v) {
  std::string s = "(";
  for (auto x : v)
    s += std::to_string(x) + ",";
  return s + ")";
}
template <class T> std::string list(const std::vector<T> &v) {
  std::string s = "(";
  for (auto x : v)
    s += std::to_string(x) + ",";
  return s + ")";
}

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (auto x : v)
    n *= x;
  return n;
}

std::vector<std::size_t> fullShape(const std::vector<std::size_t> &field) {
  std::vector<std::size_t> s = {batch, channels};
  s.insert(s.end(), field.begin(), field.end());
  return s;
}

// Host loops: pooling of one [batch][channels][field] tensor and its
// gradient, for any padding and truncation.
struct HostPool {
  const PoolParams &p;
  std::vector<std::size_t> out;
  explicit HostPool(const PoolParams &p) : p(p), out(p.getOutputFieldShape()) {
    while (out.size() < 3)
      out.insert(out.begin(), 1);
  }
  // Field sizes, kernel, stride and lower padding as 3-D.
  std::size_t dim(const std::vector<std::size_t> &v, unsigned d) const {
    const std::size_t n = v.size();
    return d + n >= 3 ? v[d + n - 3] : 1;
  }
  template <class F> void forEach(F fn) const {
    const std::size_t n = p.getNumFieldDims();
    std::size_t in[3], k[3], s[3];
    long pad[3];
    for (unsigned d = 0; d != 3; ++d) {
      in[d] = dim(p.inputFieldShape, d);
      k[d] = dim(p.kernelShape, d);
      s[d] = d + n >= 3 ? p.stride[d + n - 3] : 1;
      pad[d] = d + n >= 3 ? p.inputTruncationOrPaddingLower[d + n - 3] : 0;
    }
    const std::size_t inPlane = in[0] * in[1] * in[2];
    const std::size_t outPlane = out[0] * out[1] * out[2];
    for (std::size_t plane = 0; plane != batch * channels; ++plane)
      for (std::size_t o0 = 0; o0 != out[0]; ++o0)
        for (std::size_t o1 = 0; o1 != out[1]; ++o1)
          for (std::size_t o2 = 0; o2 != out[2]; ++o2) {
            std::vector<std::size_t> window;
            for (std::size_t a = 0; a != k[0]; ++a)
              for (std::size_t b = 0; b != k[1]; ++b)
                for (std::size_t c = 0; c != k[2]; ++c) {
                  const long i0 = long(o0 * s[0] + a) - pad[0];
                  const long i1 = long(o1 * s[1] + b) - pad[1];
                  const long i2 = long(o2 * s[2] + c) - pad[2];
                  if (i0 < 0 || i1 < 0 || i2 < 0 || i0 >= long(in[0]) ||
                      i1 >= long(in[1]) || i2 >= long(in[2]))
                    continue;
                  window.push_back(plane * inPlane +
                                   (std::size_t(i0) * in[1] + i1) * in[2] + i2);
                }
            fn(plane * outPlane + (o0 * out[1] + o1) * out[2] + o2, window);
          }
  }
  std::vector<double> forward(const std::vector<float> &x) const {
    std::vector<double> y(batch * channels * product(p.getOutputFieldShape()));
    forEach([&](std::size_t o, const std::vector<std::size_t> &w) {
      double acc = p.poolingType == PoolingType::MAX ? -INFINITY : 0.0;
      for (auto i : w)
        acc = p.poolingType == PoolingType::MAX ? std::max(acc, double(x[i]))
                                                : acc + x[i];
      if (p.poolingType == PoolingType::AVG)
        acc /= double(w.size());
      y[o] = acc;
    });
    return y;
  }
  std::vector<double> gradient(const std::vector<float> &x,
                               const std::vector<float> &g) const {
    std::vector<double> dx(x.size(), 0.0);
    const auto y = forward(x);
    forEach([&](std::size_t o, const std::vector<std::size_t> &w) {
      for (auto i : w) {
        if (p.poolingType == PoolingType::MAX)
          dx[i] += double(x[i]) == y[o] ? g[o] : 0.0;
        else
          dx[i] += p.poolingType == PoolingType::AVG ? g[o] / double(w.size())
                                                     : g[o];
      }
    });
    return dx;
  }
};

std::string torchScript() {
  std::string s = "import torch.nn.functional as F\n";
  for (std::size_t c = 0; c != torchCases.size(); ++c) {
    const auto &tc = torchCases[c];
    const std::string n = std::to_string(tc.field.size());
    const std::string id = std::to_string(c);
    const std::string args = list(tc.kernel) + ", " + list(tc.stride) + ", " +
                             list(tc.padding);
    s += "shape = " + list(fullShape(tc.field)) + "\n";
    s += "g = torch.tensor(inp('g" + id + "'))\n";
    s += "for kind in ['max', 'avg', 'sum']:\n"
         "    x = torch.tensor(inp('x" + id + "')).reshape(shape).requires_grad_(True)\n"
         "    if kind == 'max':\n"
         "        y = F.max_pool" + n + "d(x, " + args + ")\n"
         "    elif kind == 'avg':\n"
         "        y = F.avg_pool" + n + "d(x, " + args + ", count_include_pad=False)\n"
         "    else:\n"
         "        y = F.avg_pool" + n + "d(x, " + args + ", count_include_pad=True) * " +
         std::to_string(product(tc.kernel)) + "\n"
         "    y.backward(g.reshape(y.shape))\n"
         "    out[kind + '" + id + "'] = y\n"
         "    out[kind + '" + id + "_dx'] = x.grad\n";
  }
  return s;
}

} // namespace

TEST_CASE("pooling and its gradients match PyTorch", "[popnn][pooling]") {
  Arrays inputs;
  std::vector<std::vector<float>> xs, gs;
  for (std::size_t c = 0; c != torchCases.size(); ++c) {
    const auto &tc = torchCases[c];
    PoolParams p(PoolingType::MAX, tc.field, tc.kernel, tc.stride, tc.padding,
                 tc.padding, channels, batch, FLOAT);
    // Distinct values (so the max of each window is unique), rounded to
    // HALF so that both types see the same.
    auto x = roundToHalf(uniformValues(batch * channels * product(tc.field),
                                       -4.0f, 4.0f, unsigned(60 + c)));
    auto g = roundToHalf(uniformValues(
        batch * channels * product(p.getOutputFieldShape()), -1.0f, 1.0f,
        unsigned(70 + c)));
    inputs["x" + std::to_string(c)] = toDouble(x);
    inputs["g" + std::to_string(c)] = toDouble(g);
    xs.push_back(x);
    gs.push_back(g);
  }
  const auto ref = runPython(torchScript(), inputs);
  for (const Type type : {FLOAT, HALF}) {
    for (std::size_t c = 0; c != torchCases.size(); ++c) {
      const auto &tc = torchCases[c];
      for (const auto &[kind, name] :
           {std::pair{PoolingType::MAX, "max"}, std::pair{PoolingType::AVG, "avg"},
            std::pair{PoolingType::SUM, "sum"}}) {
        INFO(name << " " << tc.field.size() << "-D " << type.toString().str());
        PoolParams p(kind, tc.field, tc.kernel, tc.stride, tc.padding,
                     tc.padding, channels, batch, type);
        Rig rig(5);
        Tensor in = rig.input(type, fullShape(tc.field), "x", xs[c]);
        Tensor g = rig.input(type, fullShape(p.getOutputFieldShape()), "g", gs[c]);
        Tensor pooled = popnn::pooling::pool(rig.graph, p, in, rig.prog);
        REQUIRE(pooled.shape() == fullShape(p.getOutputFieldShape()));
        Tensor dx = popnn::pooling::poolInputGradient(rig.graph, p, in, pooled,
                                                      g, false, rig.prog);
        rig.output(pooled, "y");
        rig.output(dx, "dx");
        if (kind != PoolingType::MAX)
          rig.output(popnn::pooling::poolInputGradient(rig.graph, p, 8, g,
                                                       rig.prog),
                     "dx2");
        auto got = rig.run();
        const double tol = type == HALF ? 4e-3 : 1e-6;
        const std::string id = std::to_string(c);
        checkClose(got["y"], ref.at(name + id), tol, tol);
        checkClose(got["dx"], ref.at(name + id + "_dx"), tol, tol);
        if (kind != PoolingType::MAX)
          checkClose(got["dx2"], ref.at(name + id + "_dx"), tol, tol);
        // And the host loops.
        const HostPool host(p);
        checkClose(got["y"], host.forward(xs[c]), tol, tol);
        checkClose(got["dx"], host.gradient(xs[c], gs[c]), tol, tol);
      }
    }
  }
}

TEST_CASE("pooling with asymmetric padding and truncation",
          "[popnn][pooling]") {
  const std::vector<std::size_t> field = {8, 7};
  for (const auto kind : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
    INFO(popnn::pooling::asString(kind));
    PoolParams p(kind, field, {3, 3}, {2, 2}, {2, -1}, {0, 1}, channels, batch,
                 FLOAT);
    REQUIRE(p.getOutputFieldShape() == std::vector<std::size_t>{4, 3});
    const auto x = uniformValues(batch * channels * product(field), -2, 2, 81);
    const auto g = uniformValues(batch * channels * 12, -1, 1, 82);
    Rig rig(3);
    Tensor in = rig.input(FLOAT, fullShape(field), "x", x);
    Tensor gt = rig.input(FLOAT, fullShape({4, 3}), "g", g);
    Tensor pooled = popnn::pooling::pool(rig.graph, p, in, rig.prog);
    rig.output(pooled, "y");
    rig.output(popnn::pooling::poolInputGradient(rig.graph, p, in, pooled, gt,
                                                 false, rig.prog),
               "dx");
    auto got = rig.run();
    const HostPool host(p);
    checkClose(got["y"], host.forward(x), 1e-6, 1e-6);
    checkClose(got["dx"], host.gradient(x, g), 1e-6, 1e-6);
  }
}

TEST_CASE("max pooling gradient with equal values", "[popnn][pooling]") {
  // One plane, a 2x2 window over [[1, 3], [3, 2]]: two inputs hold the max.
  PoolParams p(PoolingType::MAX, {2, 2}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, 1, 1,
               FLOAT);
  for (const bool scaled : {false, true}) {
    Rig rig;
    Tensor in = rig.input(FLOAT, {1, 1, 2, 2}, "x", {1, 3, 3, 2});
    Tensor g = rig.input(FLOAT, {1, 1, 1, 1}, "g", {4});
    Tensor pooled = popnn::pooling::pool(rig.graph, p, in, rig.prog);
    rig.output(popnn::pooling::poolInputGradient(rig.graph, p, in, pooled, g,
                                                 scaled, rig.prog),
               "dx");
    auto got = rig.run();
    const float share = scaled ? 2.0f : 4.0f;
    REQUIRE(got["dx"] == std::vector<float>{0, share, share, 0});
  }
}

TEST_CASE("PoolParams prints, flops and errors", "[popnn][pooling]") {
  PoolParams p(PoolingType::AVG, {5, 5}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, 4, 2,
               FLOAT);
  std::ostringstream os;
  os << p;
  REQUIRE_THAT(os.str(), Contains("type: avg") && Contains("kernelShape: {3, 3}"));
  REQUIRE(popnn::pooling::getOutputFieldShape(p) == std::vector<std::size_t>{3, 3});
  REQUIRE(popnn::pooling::getFwdFlops(p) == 2u * 4 * 9 * (9 + 1));

  Rig rig;
  Tensor in = rig.graph.addVariable(FLOAT, {2, 4, 5, 6}, "acts");
  rig.graph.setTileMapping(in, 0);
  REQUIRE_THROWS_AS(popnn::pooling::pool(rig.graph, p, in, rig.prog),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(popnn::pooling::pool(rig.graph, p, in, rig.prog),
                      Contains("acts") && Contains("[2,4,5,5]"));
  PoolParams big(PoolingType::MAX, {2}, {5}, {1}, {0}, {0}, 1, 1, FLOAT);
  Tensor small = rig.graph.addVariable(FLOAT, {1, 1, 2}, "small");
  rig.graph.setTileMapping(small, 0);
  REQUIRE_THROWS_WITH(popnn::pooling::pool(rig.graph, big, small, rig.prog),
                      Contains("kernel is larger"));
  PoolParams four(PoolingType::MAX, {2, 2, 2, 2}, {1, 1, 1, 1}, {1, 1, 1, 1},
                  {0, 0, 0, 0}, {0, 0, 0, 0}, 1, 1, FLOAT);
  REQUIRE_THROWS_WITH(popnn::pooling::pool(rig.graph, four, small, rig.prog),
                      Contains("1, 2 or 3 field dimensions"));
  PoolParams max(PoolingType::MAX, {2}, {1}, {1}, {0}, {0}, 1, 1, FLOAT);
  REQUIRE_THROWS_WITH(
      popnn::pooling::poolInputGradient(rig.graph, max, 1, small, rig.prog),
      Contains("MAX"));
}

TEST_CASE("activations stored channels innermost pool to the bits of planes",
          "[popnn][pooling]") {
  // On the CPU device a FLOAT input stored [batch][field...][channels] is
  // pooled in place by PoolingChannelsLast; its outputs are those of the
  // planes' vertices bit for bit, NaNs, infinities and signed zeros
  // included (elsewhere both are pooled by planes).
  struct LastCase {
    std::vector<std::size_t> field, kernel;
    std::vector<unsigned> stride;
    std::vector<int> lower, upper;
    std::size_t channels;
  };
  const LastCase cases[] = {
      {{9, 8}, {3, 3}, {2, 2}, {1, -1}, {1, 2}, 35},
      {{11}, {4}, {3}, {2}, {1}, 16},
      {{3, 4, 5}, {2, 2, 3}, {1, 2, 1}, {0, 1, 1}, {1, 0, 1}, 5},
      {{6, 6}, {2, 2}, {1, 1}, {3, 0}, {0, 0}, 20}, // windows only padding
  };
  unsigned seed = 91;
  for (const auto &c : cases)
    for (const auto kind :
         {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
      INFO(popnn::pooling::asString(kind) << " over " << list(c.field));
      PoolParams p(kind, c.field, c.kernel, c.stride, c.lower, c.upper,
                   c.channels, batch, FLOAT);
      const std::size_t plane = product(c.field);
      auto x = uniformValues(batch * c.channels * plane, -2, 2, seed++);
      const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f,
                                0.0f, INFINITY, -INFINITY};
      for (std::size_t i = 0; i < x.size(); i += 7)
        x[i] = specials[(i / 7) % 5];
      // The same values stored [batch][field][channels].
      std::vector<float> xl(x.size());
      for (std::size_t b = 0; b != batch; ++b)
        for (std::size_t ch = 0; ch != c.channels; ++ch)
          for (std::size_t e = 0; e != plane; ++e)
            xl[(b * plane + e) * c.channels + ch] =
                x[(b * c.channels + ch) * plane + e];
      Rig rig(1);
      std::vector<std::size_t> planar{batch, c.channels}, last{batch};
      planar.insert(planar.end(), c.field.begin(), c.field.end());
      last.insert(last.end(), c.field.begin(), c.field.end());
      last.push_back(c.channels);
      std::vector<unsigned> toPlanar{0, unsigned(last.size() - 1)};
      for (unsigned d = 1; d + 1 != last.size(); ++d)
        toPlanar.push_back(d);
      Tensor in = rig.input(FLOAT, planar, "x", x);
      Tensor inLast = rig.input(FLOAT, last, "xl", xl).dimShuffle(toPlanar);
      rig.output(popnn::pooling::pool(rig.graph, p, in, rig.prog), "y");
      rig.output(popnn::pooling::pool(rig.graph, p, inLast, rig.prog), "yl");
      auto got = rig.run();
      REQUIRE(got["y"].size() == got["yl"].size());
      CHECK(std::memcmp(got["y"].data(), got["yl"].data(),
                        got["y"].size() * sizeof(float)) == 0);
    }
}
