// popnn::nonLinearity, nonLinearityInPlace and nonLinearityInputGradient
// for every NonLinearityType, FLOAT and HALF, against PyTorch (float64) and
// plain host loops, on every test device; printing; errors.
#include "PythonReference.hpp"
#include "TestRig.hpp"

#include <popnn/LogSoftmax.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using namespace popnntest;
using popnn::NonLinearityType;
using Catch::Matchers::Contains;

namespace {

struct ElementwiseCase {
  NonLinearityType type;
  const char *name;
  // PyTorch's form of the function of a float64 tensor x.
  const char *torchExpr;
  // Whether the gradient takes the output (else the input).
  bool gradFromOutput;
};

const std::vector<ElementwiseCase> elementwiseCases = {
    {NonLinearityType::SIGMOID, "sigmoid", "torch.sigmoid(x)", true},
    {NonLinearityType::HARD_SIGMOID, "hard_sigmoid",
     "torch.clamp(0.2 * x + 0.5, 0.0, 1.0)", false},
    {NonLinearityType::RELU, "relu", "torch.relu(x)", true},
    {NonLinearityType::TANH, "tanh", "torch.tanh(x)", true},
    {NonLinearityType::GELU, "gelu",
     "torch.nn.functional.gelu(x, approximate='tanh')", false},
    {NonLinearityType::GELU_ERF, "gelu_erf", "torch.nn.functional.gelu(x)",
     false},
    {NonLinearityType::SWISH, "swish", "torch.nn.functional.silu(x)", false},
};

// Independent host loops for the same functions (double precision).
double hostForward(NonLinearityType type, double x) {
  const double pi = 3.14159265358979323846;
  switch (type) {
  case NonLinearityType::SIGMOID:
    return 1 / (1 + std::exp(-x));
  case NonLinearityType::HARD_SIGMOID:
    return std::min(1.0, std::max(0.0, 0.2 * x + 0.5));
  case NonLinearityType::RELU:
    return x > 0 ? x : 0;
  case NonLinearityType::TANH:
    return std::tanh(x);
  case NonLinearityType::GELU:
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
  case NonLinearityType::GELU_ERF:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case NonLinearityType::SWISH:
    return x / (1 + std::exp(-x));
  default:
    return 0;
  }
}

// d f / d x by a central difference of hostForward.
double hostDerivative(NonLinearityType type, double x) {
  const double h = 1e-6;
  return (hostForward(type, x + h) - hostForward(type, x - h)) / (2 * h);
}

const std::vector<std::size_t> shape = {3, 5, 7};
const std::size_t numElements = 3 * 5 * 7;

// Values away from RELU's and HARD_SIGMOID's kinks.
std::vector<float> testInputs() {
  auto x = uniformValues(numElements, -4.0f, 4.0f, 11);
  for (auto &v : x)
    if (std::abs(v) < 0.01f || std::abs(std::abs(v) - 2.5f) < 0.01f)
      v += 0.05f;
  return x;
}

std::string elementwiseScript() {
  std::string s = "g = torch.tensor(inp('g'))\n";
  for (const auto &c : elementwiseCases) {
    s += "x = torch.tensor(inp('x'), requires_grad=True)\n";
    s += "y = " + std::string(c.torchExpr) + "\n";
    s += "y.backward(g)\n";
    s += "out['" + std::string(c.name) + "_y'] = y\n";
    s += "out['" + std::string(c.name) + "_dx'] = x.grad\n";
  }
  return s;
}

} // namespace

TEST_CASE("element-wise non-linearities and gradients match PyTorch",
          "[popnn][nonlinearity]") {
  const auto x = testInputs();
  const auto g = uniformValues(numElements, -1.0f, 1.0f, 12);
  for (const Type type : {FLOAT, HALF}) {
    const auto xd = type == HALF ? roundToHalf(x) : x;
    const auto gd = type == HALF ? roundToHalf(g) : g;
    const auto ref = runPython(elementwiseScript(),
                               {{"x", toDouble(xd)}, {"g", toDouble(gd)}});
    const double tol = type == HALF ? 4e-3 : 2e-6;
    for (const auto &c : elementwiseCases) {
      INFO(c.name << " " << type.toString().str());
      Rig rig;
      Tensor in = rig.input(type, shape, "x", xd);
      Tensor grad = rig.input(type, shape, "g", gd);
      Tensor out = popnn::nonLinearity(rig.graph, c.type, in, rig.prog, "nl");
      Tensor inPlace = rig.graph.clone(in, "inPlace");
      rig.prog.add(Copy(in, inPlace));
      popnn::nonLinearityInPlace(rig.graph, c.type, inPlace, rig.prog);
      Tensor dx = popnn::nonLinearityInputGradient(
          rig.graph, c.type, c.gradFromOutput ? out : in, grad, rig.prog);
      REQUIRE(out.shape() == in.shape());
      REQUIRE(dx.elementType() == type);
      rig.output(out, "y");
      rig.output(inPlace, "yInPlace");
      rig.output(dx, "dx");
      auto got = rig.run();
      const auto &wantY = ref.at(std::string(c.name) + "_y");
      const auto &wantDx = ref.at(std::string(c.name) + "_dx");
      checkClose(got["y"], wantY, tol, tol);
      checkClose(got["yInPlace"], wantY, tol, tol);
      // HALF gradients also carry the rounding of the HALF output they
      // are computed from.
      checkClose(got["dx"], wantDx, type == HALF ? 1e-2 : 1e-5,
                 type == HALF ? 1e-2 : 1e-5);

      // The host loops agree with PyTorch (an independent second oracle).
      std::vector<double> hostY(numElements), hostDx(numElements);
      for (std::size_t i = 0; i != numElements; ++i) {
        hostY[i] = hostForward(c.type, xd[i]);
        hostDx[i] = gd[i] * hostDerivative(c.type, xd[i]);
      }
      checkClose(got["y"], hostY, tol, tol);
      if (type == FLOAT)
        checkClose(got["dx"], hostDx, 1e-4, 1e-4);
    }
  }
}

TEST_CASE("softmax types and their gradient match PyTorch",
          "[popnn][nonlinearity][softmax]") {
  const std::vector<std::vector<std::size_t>> shapes = {{7}, {4, 10}, {2, 3, 5}};
  for (const auto &s : shapes) {
    std::size_t n = 1;
    for (auto d : s)
      n *= d;
    const std::size_t cols = s.back();
    // Large values: the plain SOFTMAX still fits in FLOAT, and the stable
    // forms must not lose them.
    const auto x = uniformValues(n, -20.0f, 20.0f, 21);
    const auto g = uniformValues(n, -1.0f, 1.0f, 22);
    const auto ref = runPython(
        "x = torch.tensor(inp('x')).reshape(-1, " + std::to_string(cols) +
            ")\n"
            "x.requires_grad_(True)\n"
            "y = torch.softmax(x, -1)\n"
            "y.backward(torch.tensor(inp('g')).reshape(-1, " +
            std::to_string(cols) +
            "))\n"
            "out['y'] = y\nout['dx'] = x.grad\n",
        {{"x", toDouble(x)}, {"g", toDouble(g)}});
    for (const auto type : {NonLinearityType::SOFTMAX,
                            NonLinearityType::SOFTMAX_STABLE,
                            NonLinearityType::SOFTMAX_SCALED}) {
      INFO(popnn::asString(type) << " rank " << s.size());
      Rig rig;
      Tensor in = rig.input(FLOAT, s, "x", x);
      Tensor grad = rig.input(FLOAT, s, "g", g);
      float scaling = 0;
      Tensor out = popnn::nonLinearity(rig.graph, type, in, scaling, rig.prog);
      REQUIRE(scaling == (type == NonLinearityType::SOFTMAX_SCALED ? 62000.0f
                                                                    : 1.0f));
      Tensor inPlace = rig.graph.clone(in, "inPlace");
      rig.prog.add(Copy(in, inPlace));
      float scalingInPlace = 0;
      popnn::nonLinearityInPlace(rig.graph, type, inPlace, scalingInPlace,
                                 rig.prog);
      REQUIRE(scalingInPlace == scaling);
      // The gradient of the (unscaled) softmax, from its output.
      Tensor plain = popnn::softmax(rig.graph, in, rig.prog);
      Tensor dx = popnn::nonLinearityInputGradient(
          rig.graph, NonLinearityType::SOFTMAX, plain, grad, rig.prog);
      rig.output(out, "y");
      rig.output(inPlace, "yInPlace");
      rig.output(dx, "dx");
      auto got = rig.run();
      std::vector<double> wantY = ref.at("y");
      for (auto &v : wantY)
        v *= scaling;
      checkClose(got["y"], wantY, 1e-5, 1e-6 * scaling);
      checkClose(got["yInPlace"], wantY, 1e-5, 1e-6 * scaling);
      checkClose(got["dx"], ref.at("dx"), 1e-4, 1e-6);

      // Host loop: each row sums to the scaling.
      for (std::size_t r = 0; r != n / cols; ++r) {
        double sum = 0;
        for (std::size_t j = 0; j != cols; ++j)
          sum += got["y"][r * cols + j];
        REQUIRE(std::abs(sum - scaling) <= 1e-4 * scaling);
      }
    }
  }
}

TEST_CASE("HALF stable softmax", "[popnn][nonlinearity][softmax]") {
  const auto x = roundToHalf(uniformValues(3 * 16, -30.0f, 30.0f, 31));
  const auto ref =
      runPython("out['y'] = torch.softmax(torch.tensor(inp('x')).reshape(3, 16), -1)\n",
                {{"x", toDouble(x)}});
  Rig rig;
  Tensor in = rig.input(HALF, {3, 16}, "x", x);
  rig.output(popnn::softmaxStable(rig.graph, in, rig.prog), "y");
  auto got = rig.run();
  checkClose(got["y"], ref.at("y"), 4e-3, 1e-4);
}

TEST_CASE("logSoftmax matches PyTorch", "[popnn][nonlinearity][softmax]") {
  const auto x = uniformValues(5 * 9, -40.0f, 40.0f, 51);
  const auto ref = runPython(
      "out['y'] = torch.log_softmax(torch.tensor(inp('x')).reshape(5, 9), -1)\n",
      {{"x", toDouble(x)}});
  const auto refHalf = runPython(
      "out['y'] = torch.log_softmax(torch.tensor(inp('x')).reshape(5, 9), -1)\n",
      {{"x", toDouble(roundToHalf(x))}});
  Rig rig;
  Tensor in = rig.input(FLOAT, {5, 9}, "x", x);
  Tensor inHalf = rig.input(HALF, {5, 9}, "xh", roundToHalf(x));
  rig.output(popnn::logSoftmax(rig.graph, in, rig.prog), "y");
  Tensor inPlace = rig.graph.clone(in, "inPlace");
  rig.prog.add(Copy(in, inPlace));
  popnn::logSoftmaxInPlace(rig.graph, inPlace, rig.prog);
  rig.output(inPlace, "yInPlace");
  rig.output(popnn::logSoftmax(rig.graph, inHalf, rig.prog), "yHalf");
  auto got = rig.run();
  checkClose(got["y"], ref.at("y"), 1e-6, 1e-5);
  checkClose(got["yInPlace"], ref.at("y"), 1e-6, 1e-5);
  checkClose(got["yHalf"], refHalf.at("y"), 2e-3, 2e-2);
}

TEST_CASE("the shorthands and the ComputeSet forms",
          "[popnn][nonlinearity]") {
  const auto x = testInputs();
  Rig rig;
  Tensor in = rig.input(FLOAT, shape, "x", x);
  Tensor a = popnn::relu(rig.graph, in, rig.prog);
  Tensor b = rig.graph.clone(in, "b");
  rig.prog.add(Copy(in, b));
  ComputeSet cs = rig.graph.addComputeSet("tanh");
  popnn::nonLinearityInPlace(rig.graph, NonLinearityType::TANH, b, cs);
  rig.prog.add(Execute(cs));
  ComputeSet gradCs = rig.graph.addComputeSet("grad");
  Tensor db = popnn::nonLinearityInputGradient(rig.graph, NonLinearityType::TANH,
                                               b, in, gradCs);
  rig.prog.add(Execute(gradCs));
  Tensor c = rig.graph.clone(in, "c");
  rig.prog.add(Copy(in, c));
  popnn::swishInPlace(rig.graph, c, rig.prog);
  rig.output(a, "a");
  rig.output(b, "b");
  rig.output(db, "db");
  rig.output(c, "c");
  auto got = rig.run();
  std::vector<double> wa(numElements), wb(numElements), wdb(numElements),
      wc(numElements);
  for (std::size_t i = 0; i != numElements; ++i) {
    wa[i] = std::max(0.0, double(x[i]));
    wb[i] = std::tanh(double(x[i]));
    wdb[i] = x[i] * (1 - wb[i] * wb[i]);
    wc[i] = x[i] / (1 + std::exp(-double(x[i])));
  }
  checkClose(got["a"], wa, 0, 0);
  checkClose(got["b"], wb, 2e-6, 2e-6);
  checkClose(got["db"], wdb, 1e-5, 1e-5);
  checkClose(got["c"], wc, 2e-6, 2e-6);
}

TEST_CASE("a non-linearity on many tiles and a non-contiguous view",
          "[popnn][nonlinearity]") {
  const auto x = uniformValues(64 * 33, -3.0f, 3.0f, 41);
  Rig rig(16);
  Tensor in = rig.input(FLOAT, {64, 33}, "x", x);
  // In place on a transpose: the elements are reached out of order.
  popnn::sigmoidInPlace(rig.graph, in.transpose(), rig.prog);
  rig.output(in, "y");
  auto got = rig.run();
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i != x.size(); ++i)
    want[i] = 1 / (1 + std::exp(-double(x[i])));
  checkClose(got["y"], want, 2e-6, 2e-6);
}

TEST_CASE("NonLinearityType prints and parses", "[popnn][nonlinearity]") {
  std::ostringstream os;
  os << NonLinearityType::RELU << "," << NonLinearityType::SOFTMAX_STABLE << ","
     << NonLinearityType::SOFTMAX_SCALED << "," << NonLinearityType::GELU;
  REQUIRE(os.str() == "relu,softmax (stable),softmax (scaled, stable),gelu");
  std::istringstream is("hard_sigmoid swish softmax_scaled");
  NonLinearityType a, b, c;
  is >> a >> b >> c;
  REQUIRE(a == NonLinearityType::HARD_SIGMOID);
  REQUIRE(b == NonLinearityType::SWISH);
  REQUIRE(c == NonLinearityType::SOFTMAX_SCALED);
  std::istringstream bad("sigmoidal");
  REQUIRE_THROWS_WITH(bad >> a, Contains("sigmoidal"));
}

TEST_CASE("non-linearity errors name the tensor", "[popnn][nonlinearity]") {
  Rig rig;
  Tensor ints = rig.graph.addVariable(INT, {4}, "labels");
  rig.graph.setTileMapping(ints, 0);
  REQUIRE_THROWS_AS(popnn::relu(rig.graph, ints, rig.prog),
                    poputil::poplibs_error);
  REQUIRE_THROWS_WITH(popnn::relu(rig.graph, ints, rig.prog),
                      Contains("labels") && Contains("FLOAT or HALF"));
  REQUIRE_THROWS_WITH(popnn::softmax(rig.graph, ints, rig.prog),
                      Contains("labels"));
  Tensor a = rig.graph.addVariable(FLOAT, {4, 3}, "acts");
  Tensor g = rig.graph.addVariable(FLOAT, {3, 4}, "grads");
  rig.graph.setTileMapping(a, 0);
  rig.graph.setTileMapping(g, 0);
  REQUIRE_THROWS_WITH(popnn::nonLinearityInputGradient(
                          rig.graph, NonLinearityType::SIGMOID, a, g, rig.prog),
                      Contains("acts") && Contains("grads"));
  REQUIRE_THROWS_WITH(popnn::nonLinearityInputGradient(
                          rig.graph, NonLinearityType::SOFTMAX, a, g, rig.prog),
                      Contains("acts") && Contains("grads"));
  // Writing a broadcast element more than once is refused.
  Tensor s = rig.graph.addVariable(FLOAT, {1}, "scalar");
  rig.graph.setTileMapping(s, 0);
  REQUIRE_THROWS_WITH(
      popnn::tanhInPlace(rig.graph, s.broadcast(4, 0), rig.prog),
      Contains("scalar") && Contains("parallel"));
  ComputeSet cs = rig.graph.addComputeSet("cs");
  REQUIRE_THROWS_AS(popnn::nonLinearityInPlace(
                        rig.graph, NonLinearityType::SOFTMAX, a, cs),
                    poputil::poplibs_error);
}
