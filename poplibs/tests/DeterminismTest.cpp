// Each PopLibs library gives the same bits whatever the number of host
// threads (oneTBB): its operations are run with 1, 2 and 8 threads on
// inputs large enough for the work the runtime and the codelets share out
// over threads (matmul panels, convolution weight-gradient chunks,
// reductions, casts, random numbers), and the results compared bit for bit.
#include <catch2/catch.hpp>

#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <tbb/global_control.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using poplar::Tensor;
using poplar::program::Sequence;

// Builds the operation under test: its inputs are variables it returns by
// name (filled with random values), its results tensors read back.
struct Operation {
  std::vector<std::pair<std::string, Tensor>> inputs;
  std::vector<Tensor> results;
};
using Build = std::function<Operation(poplar::Graph &, Sequence &)>;

// The bytes of every result after one run with `threads` host threads.
std::vector<std::vector<char>> runWith(unsigned threads, const Build &build) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads);
  poplar::Device device = sdktest::createTestDevice(4);
  poplar::Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poprand::addCodelets(graph);
  Sequence prog;
  Operation op = build(graph, prog);
  for (const auto &[name, t] : op.inputs)
    graph.createHostWrite(name, t);
  for (std::size_t i = 0; i < op.results.size(); ++i)
    graph.createHostRead("result" + std::to_string(i), op.results[i]);
  // The inputs are larger than four tiles of the IPU Model hold.
  poplar::Engine engine(graph, prog, {{"debug.allowOutOfMemory", "true"}});
  engine.load(device);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (const auto &[name, t] : op.inputs) {
    std::vector<float> values(t.numElements());
    for (auto &v : values)
      v = dist(rng);
    engine.writeTensor(name, values.data(), values.data() + values.size());
  }
  engine.run();
  std::vector<std::vector<char>> out;
  for (std::size_t i = 0; i < op.results.size(); ++i) {
    const Tensor &t = op.results[i];
    std::vector<char> bytes(t.numElements() *
                            graph.getTarget().getTypeSize(t.elementType()));
    engine.readTensor("result" + std::to_string(i), bytes.data(),
                      bytes.data() + bytes.size());
    out.push_back(std::move(bytes));
  }
  return out;
}

void requireSameBitsForAnyThreadCount(const Build &build) {
  const auto one = runWith(1, build);
  REQUIRE(!one.empty());
  CHECK(runWith(2, build) == one);
  CHECK(runWith(8, build) == one);
}

Tensor linearVariable(poplar::Graph &graph, const poplar::Type &type,
                      const std::vector<std::size_t> &shape,
                      const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

} // namespace

// popops' maps (whose expressions become codelets compiled at run time),
// casts and reductions.
Operation popopsOperations(poplar::Graph &graph, Sequence &prog) {
  namespace pe = popops::expr;
  Tensor a = linearVariable(graph, poplar::FLOAT, {256, 1024}, "a");
  Tensor b = linearVariable(graph, poplar::FLOAT, {256, 1024}, "b");
  Tensor mapped = popops::map(
      graph, pe::Tanh(pe::_1) * pe::_2 + pe::Exp(pe::_1 * pe::Const(0.5f)),
      {a, b}, prog, "map");
  Tensor half = popops::cast(graph, mapped, poplar::HALF, prog, "cast");
  Tensor columns = popops::reduce(graph, mapped, {0}, {popops::Operation::ADD},
                                  prog, "columns");
  Tensor rows = popops::reduce(graph, half, poplar::FLOAT, {1},
                               {popops::Operation::SQUARE_ADD}, prog, "rows");
  Tensor all = popops::reduce(graph, mapped, {0, 1}, {popops::Operation::MAX},
                              prog, "all");
  return Operation{{{"a", a}, {"b", b}}, {mapped, half, columns, rows, all}};
}

TEST_CASE("popops: maps, casts and reductions give the same bits for any "
          "thread count",
          "[poplibs][determinism]") {
  requireSameBitsForAnyThreadCount(popopsOperations);
}

TEST_CASE("popops: the same bits with the codelet cache cold or warm",
          "[poplibs][determinism]") {
  const auto usual = runWith(2, popopsOperations);
  char dir[] = "/tmp/poplibs-determinism-cache-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const char *before = std::getenv("POPLAR_CODELET_CACHE_DIR");
  const std::string saved = before ? before : "";
  ::setenv("POPLAR_CODELET_CACHE_DIR", dir, 1);
  const auto cold = runWith(2, popopsOperations);
  const auto warm = runWith(2, popopsOperations);
  if (before)
    ::setenv("POPLAR_CODELET_CACHE_DIR", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_CODELET_CACHE_DIR");
  // The cold run filled the new cache.
  CHECK(!std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
  CHECK(cold == usual);
  CHECK(warm == usual);
}

TEST_CASE("poplin: matMul and a convolution's passes give the same bits for "
          "any thread count",
          "[poplibs][determinism]") {
  requireSameBitsForAnyThreadCount([](poplar::Graph &graph, Sequence &prog) {
    Tensor a = poplin::createMatMulInputLHS(graph, poplar::FLOAT, {256, 256},
                                            {256, 256}, "a");
    Tensor b = poplin::createMatMulInputRHS(graph, poplar::FLOAT, {256, 256},
                                            {256, 256}, "b");
    Tensor product = poplin::matMul(graph, a, b, prog, poplar::FLOAT, "matMul");
    const poplin::ConvParams params(poplar::FLOAT, 4, {28, 28}, {3, 3}, 32, 32,
                                    1);
    Tensor in = poplin::createInput(graph, params, "in");
    Tensor weights = poplin::createWeights(graph, params, "weights");
    Tensor out =
        poplin::convolution(graph, in, weights, params, false, prog, "conv");
    Tensor outGrad = graph.clone(out, "outGrad");
    Tensor weightDeltas = poplin::calculateWeightDeltas(graph, outGrad, in,
                                                        params, prog, "wu");
    return Operation{
        {{"a", a}, {"b", b}, {"in", in}, {"weights", weights}, {"outGrad", outGrad}},
        {product, out, weightDeltas}};
  });
}

TEST_CASE("popnn: pooling, batch norm and non-linearities give the same bits "
          "for any thread count",
          "[poplibs][determinism]") {
  requireSameBitsForAnyThreadCount([](poplar::Graph &graph, Sequence &prog) {
    Tensor acts = linearVariable(graph, poplar::FLOAT, {8, 32, 32, 32}, "acts");
    const popnn::pooling::PoolParams pool(popnn::PoolingType::MAX, {32, 32},
                                          {3, 3}, {2, 2}, {1, 1}, {0, 0}, 32, 8,
                                          poplar::FLOAT);
    Tensor pooled = popnn::pooling::pool(graph, pool, acts, prog, "pool");
    auto [mean, invStd] = popnn::bn::batchNormStatistics(
        graph, acts, 1e-5f, prog, false, true, poplar::FLOAT, "bn");
    Tensor gelu = popnn::nonLinearity(
        graph, popnn::NonLinearityType::GELU, acts, prog, "gelu");
    Tensor softmax = popnn::nonLinearity(
        graph, popnn::NonLinearityType::SOFTMAX,
        acts.reshape({8 * 32 * 32, 32}), prog, "softmax");
    return Operation{{{"acts", acts}}, {pooled, mean, invStd, gelu, softmax}};
  });
}

TEST_CASE("poprand: random numbers and dropout give the same bits for any "
          "thread count",
          "[poplibs][determinism]") {
  requireSameBitsForAnyThreadCount([](poplar::Graph &graph, Sequence &prog) {
    const unsigned seedValues[2] = {17, 5};
    Tensor seed = graph.addConstant<unsigned>(poplar::UNSIGNED_INT, {2},
                                              seedValues, "seed");
    graph.setTileMapping(seed, 0);
    Tensor x = linearVariable(graph, poplar::FLOAT, {512, 1024}, "x");
    Tensor uniform = poprand::uniform(graph, &seed, 1, x, poplar::FLOAT, -2.0,
                                      3.0, prog, "uniform");
    Tensor normal = poprand::normal(graph, &seed, 2, x, poplar::HALF, 0.0, 1.0,
                                    prog, "normal");
    Tensor dropped =
        poprand::dropout(graph, &seed, 3, x, x, 0.75, 1.0 / 0.75, prog, "dropout");
    return Operation{{{"x", x}}, {uniform, normal, dropped}};
  });
}
