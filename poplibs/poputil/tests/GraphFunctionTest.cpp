// graphfn: functions built once and called with different arguments, out
// of line and inline, checked against the host's results.
#include "TestDevice.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poputil/GraphFunction.hpp>
#include <poputil/exceptions.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace poplar;
using namespace poplar::program;
using namespace poputil;
using Catch::Matchers::Contains;

namespace {

struct Rig {
  Device device = sdktest::createTestDevice(4);
  Graph graph{device.getTarget()};
  Sequence prog;

  Tensor var(const std::string &name, std::size_t n = 4) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, 0);
    return t;
  }
  // Writes each tensor's values, runs, reads them all back.
  std::vector<std::vector<float>>
  run(const std::vector<Tensor> &ts,
      const std::vector<std::vector<float>> &values) {
    for (std::size_t i = 0; i != ts.size(); ++i) {
      graph.createHostWrite("w" + std::to_string(i), ts[i]);
      graph.createHostRead("r" + std::to_string(i), ts[i]);
    }
    Engine engine(graph, prog);
    engine.load(device);
    for (std::size_t i = 0; i != ts.size(); ++i)
      engine.writeTensor("w" + std::to_string(i), values[i].data(),
                         values[i].data() + values[i].size());
    engine.run(0);
    std::vector<std::vector<float>> out;
    for (std::size_t i = 0; i != ts.size(); ++i) {
      out.emplace_back(ts[i].numElements());
      engine.readTensor("r" + std::to_string(i), out.back().data(),
                        out.back().data() + out.back().size());
    }
    return out;
  }
};

// The body: out = reverse(in); io's halves swap.
void body(std::vector<Tensor> &args, Sequence &seq) {
  seq.add(Copy(args[0].reverse(0), args[1]));
  seq.add(Copy(concat(args[2].slice(2, 4), args[2].slice(0, 2)), args[2]));
}

} // namespace

TEST_CASE("graphfn::VoidFunction out of line and inline", "[poputil][graphfn]") {
  for (bool inlined : {false, true}) {
    INFO("inlined " << inlined);
    Rig rig;
    Tensor a = rig.var("a"), b = rig.var("b"), c = rig.var("c");
    Tensor d = rig.var("d"), e = rig.var("e"), f = rig.var("f");
    graphfn::VoidFunction fn(
        rig.graph,
        {graphfn::input(a, "in"), graphfn::output(b, "out"),
         graphfn::inout(c, "io")},
        body, inlined, "reverseAndSwap");
    std::vector<Tensor> first = {a, b, c}, second = {d, e, f};
    fn(first, rig.prog);
    fn(second, rig.prog);
    fn(second, rig.prog); // f's halves swap back
    auto got = rig.run({a, b, c, d, e, f}, {{1, 2, 3, 4},
                                            {0, 0, 0, 0},
                                            {5, 6, 7, 8},
                                            {9, 8, 7, 6},
                                            {0, 0, 0, 0},
                                            {1, 2, 3, 4}});
    CHECK(got[1] == std::vector<float>{4, 3, 2, 1});
    CHECK(got[2] == std::vector<float>{7, 8, 5, 6});
    CHECK(got[4] == std::vector<float>{6, 7, 8, 9});
    CHECK(got[5] == std::vector<float>{1, 2, 3, 4});
  }
}

TEST_CASE("graphfn::TensorFunction and ProgramFunction", "[poputil][graphfn]") {
  for (bool inlined : {false, true}) {
    INFO("inlined " << inlined);
    Rig rig;
    Tensor a = rig.var("a"), b = rig.var("b");
    graphfn::TensorFunction reversed(
        rig.graph, {graphfn::input(a)},
        [&](std::vector<Tensor> &args, Sequence &seq) {
          Tensor out = rig.graph.clone(args[0], "out");
          seq.add(Copy(args[0].reverse(0), out));
          return out;
        },
        inlined);
    std::vector<Tensor> args = {a};
    Tensor ra = reversed(args, rig.prog);
    args = {b};
    Tensor rb = reversed(args, rig.prog);
    graphfn::ProgramFunction copy(
        rig.graph, {graphfn::input(a), graphfn::output(b)},
        [](std::vector<Tensor> &args) { return Copy(args[0], args[1]); },
        inlined);
    std::vector<Tensor> copyArgs = {ra, b};
    rig.prog.add(copy(copyArgs));
    // ra = reverse(a), rb = reverse(b), then b = ra.
    auto got = rig.run({a, b, ra, rb},
                       {{1, 2, 3, 4}, {5, 6, 7, 8}, {0, 0, 0, 0}, {0, 0, 0, 0}});
    CHECK(got[2] == std::vector<float>{4, 3, 2, 1});
    CHECK(got[3] == std::vector<float>{8, 7, 6, 5});
    CHECK(got[1] == std::vector<float>{4, 3, 2, 1});
  }
}

TEST_CASE("graphfn arguments that do not match the signature",
          "[poputil][graphfn]") {
  Rig rig;
  Tensor a = rig.var("a"), b = rig.var("b"), c = rig.var("c");
  graphfn::VoidFunction fn(rig.graph,
                           {graphfn::input(a, "in"), graphfn::output(b, "out"),
                            graphfn::inout(c, "io")},
                           body);
  std::vector<Tensor> wrongShape = {rig.var("x", 5), b, c};
  CHECK_THROWS_WITH(fn(wrongShape, rig.prog),
                    Contains("argument 0 ('in')") && Contains("[5]"));
  std::vector<Tensor> tooFew = {a, b};
  CHECK_THROWS_AS(fn(tooFew, rig.prog), poplibs_error);
  CHECK_THROWS_WITH(
      graphfn::VoidFunction(rig.graph, {graphfn::created("made")},
                            [](std::vector<Tensor> &, Sequence &) {}),
      Contains("did not create") && Contains("'made'"));
}
