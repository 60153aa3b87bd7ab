// Bad input to PopLibs' public functions (popops element-wise operations,
// reductions, casts and dynamic slices; poplin's matrix products and their
// options): the original's exception class (poputil::poplibs_error, or
// poplar::invalid_option for an option) with a message naming what is at
// fault, and a graph still usable afterwards: a product and a sum built on
// it after every error compile, run and agree with a host loop.
#include "ExpectError.hpp"
#include "MappedVariable.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

using sdktest::expectError;
using sdktest::mapped;

TEST_CASE("Bad shapes, types, dimensions and options are refused naming "
          "them, and the graph stays usable",
          "[poplibs][errors]") {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;
  Tensor a23 = mapped(graph, FLOAT, {2, 3}, "a23");
  Tensor b4 = mapped(graph, FLOAT, {4}, "b4");
  Tensor b45 = mapped(graph, FLOAT, {4, 5}, "b45");
  Tensor i23 = mapped(graph, INT, {2, 3}, "i23");

  expectError<poputil::poplibs_error>(
      "operands that do not broadcast",
      [&] { popops::add(graph, a23, b4, prog, "badAdd"); }, {"{2,3}", "{4}"});
  expectError<poputil::poplibs_error>(
      "operands of different types",
      [&] { popops::add(graph, a23, i23, prog, "mixedAdd"); },
      {"float", "int"});
  expectError<poputil::poplibs_error>(
      "a reduction over a dimension the tensor lacks",
      [&] {
        popops::reduce(graph, a23, FLOAT, {5}, popops::Operation::ADD, prog);
      },
      {"5"});
  expectError<poputil::poplibs_error>(
      "a dynamic slice of a dimension the tensor lacks",
      [&] {
        Tensor offset = mapped(graph, UNSIGNED_INT, {1}, "offset");
        popops::dynamicSlice(graph, a23, offset, {4}, {1}, prog);
      },
      {"4"});
  expectError<poputil::poplibs_error>(
      "a product of mismatched inner dimensions",
      [&] { poplin::matMul(graph, a23, b45, prog, "badMatMul"); },
      {"[2, 3]", "[4, 5]"});
  expectError<poputil::poplibs_error>(
      "a product of a vector",
      [&] { poplin::matMul(graph, b4, b45, prog); }, {"rank 2"});
  expectError<invalid_option>(
      "a product option that does not exist",
      [&] {
        poplin::matMul(graph, a23, mapped(graph, FLOAT, {3, 2}, "b32"), prog,
                       "opts", {{"no.such.option", "1"}});
      },
      {"no.such.option"});
  expectError<invalid_option>(
      "a product option of a bad value",
      [&] {
        poplin::matMul(graph, a23, mapped(graph, FLOAT, {3, 2}, "b32b"), prog,
                       "opts", {{"availableMemoryProportion", "lots"}});
      },
      {"availableMemoryProportion", "lots"});

  // The graph as it is now: x [2,3] . w [3,2] + 1, and the sum of x.
  Tensor x = mapped(graph, FLOAT, {2, 3}, "x");
  Tensor w = mapped(graph, FLOAT, {3, 2}, "w");
  Sequence good;
  Tensor one = graph.addConstant(FLOAT, {}, 1.0f, "one");
  graph.setTileMapping(one, 0);
  Tensor y = popops::add(graph, poplin::matMul(graph, x, w, good, "mm"), one,
                         good);
  Tensor total = popops::reduce(graph, x, FLOAT, {0, 1},
                                popops::Operation::ADD, good);
  graph.createHostWrite("x", x);
  graph.createHostWrite("w", w);
  graph.createHostRead("y", y);
  graph.createHostRead("total", total);
  Engine engine(graph, good);
  engine.load(device);
  const std::vector<float> xs{1, 2, 3, 4, 5, 6}, ws{0.5f, -1, 2, 0, -3, 1};
  engine.writeTensor("x", xs.data(), xs.data() + 6);
  engine.writeTensor("w", ws.data(), ws.data() + 6);
  engine.run();
  std::vector<float> ys(4);
  float sum = 0;
  engine.readTensor("y", ys.data(), ys.data() + 4);
  engine.readTensor("total", &sum, &sum + 1);
  for (int r = 0; r != 2; ++r)
    for (int c = 0; c != 2; ++c) {
      float want = 1;
      for (int k = 0; k != 3; ++k)
        want += xs[r * 3 + k] * ws[k * 2 + c];
      CHECK(ys[r * 2 + c] == Approx(want));
    }
  CHECK(sum == 21);
}
