// Every program class, run on the device variant under test.
#include <catch2/catch.hpp>

#include "../runtime/EngineTestUtil.hpp"

#include <poplar/exceptions.hpp>

#include <numeric>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using sdktest::readBack;
using sdktest::writeTo;
using Catch::Matchers::Contains;

TEST_CASE("Copy moves elements between views, reading before writing",
          "[poplar][program][copy]") {
  sdktest::TestGraph g;
  Tensor a = g.variable(FLOAT, {3, 4}, "a");
  Tensor b = g.variable(FLOAT, {4, 3}, "b");
  Sequence prog;
  prog.add(Copy(a.transpose(), b));                       // transpose
  prog.add(Copy(a.slice(0, 3, 1), a.slice(1, 4, 1)));     // overlapping shift
  Engine engine(g.graph, prog);
  engine.load(g.device);
  std::vector<float> in(12);
  std::iota(in.begin(), in.end(), 0.0f);
  writeTo(engine, "a", in);
  engine.run(0);

  // Host reference: b = a^T; then each row of a shifts right by one.
  std::vector<float> expectB(12), expectA = in;
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned c = 0; c != 4; ++c)
      expectB[c * 3 + r] = in[r * 4 + c];
  for (unsigned r = 0; r != 3; ++r)
    for (unsigned c = 3; c != 0; --c)
      expectA[r * 4 + c] = in[r * 4 + c - 1];
  CHECK(readBack<float>(engine, "b", 12) == expectB);
  CHECK(readBack<float>(engine, "a", 12) == expectA);
}

namespace {

// [positions][channels] copied to [channels][positions] by one Copy, whose
// segments (one per channel, consecutive starts, one stride) are moved 16
// at a time; 35 channels leave a block of 3 that is copied one by one.
template <class T> void checkChannelTranspose(const Type &type) {
  constexpr std::size_t positions = 37, channels = 35;
  sdktest::TestGraph g;
  Tensor a = g.variable(type, {positions, channels}, "a");
  Tensor b = g.variable(type, {channels, positions}, "b");
  Sequence prog;
  prog.add(Copy(a.transpose(), b));
  Engine engine(g.graph, prog);
  engine.load(g.device);
  std::vector<T> in(positions * channels);
  for (std::size_t i = 0; i != in.size(); ++i)
    in[i] = static_cast<T>(i * 7 + 1);
  writeTo(engine, "a", in);
  engine.run(0);
  std::vector<T> expect(in.size());
  for (std::size_t p = 0; p != positions; ++p)
    for (std::size_t c = 0; c != channels; ++c)
      expect[c * positions + p] = in[p * channels + c];
  CHECK(readBack<T>(engine, "b", in.size()) == expect);
}

} // namespace

TEST_CASE("Copy of channel-innermost data to channels-outermost order",
          "[poplar][program][copy]") {
  checkChannelTranspose<float>(FLOAT);
  checkChannelTranspose<unsigned short>(UNSIGNED_SHORT);
  checkChannelTranspose<long long>(LONGLONG);
  checkChannelTranspose<unsigned char>(UNSIGNED_CHAR);
}

TEST_CASE("Sequence, Repeat and Call run their parts in order",
          "[poplar][program]") {
  sdktest::TestGraph g;
  Tensor x = g.variable(INT, {4}, "x");
  Tensor acc = g.variable(INT, {8}, "acc");
  // Each step appends: the "rotate" copy shifts acc right, then x[0] goes in.
  Sequence step;
  step.add(Copy(acc.slice(0, 7), acc.slice(1, 8)));
  step.add(Copy(x.slice(0, 1), acc.slice(0, 1)));
  Function f = g.graph.addFunction(step);
  Sequence prog{Repeat(3, step), Call(f), Call(f)};
  Engine engine(g.graph, prog);
  engine.load(g.device);
  writeTo(engine, "x", std::vector<int>{9, 0, 0, 0});
  writeTo(engine, "acc", std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  engine.run();
  CHECK(readBack<int>(engine, "acc", 8) ==
        std::vector<int>{9, 9, 9, 9, 9, 1, 2, 3});
}

TEST_CASE("If and Switch choose by a device scalar", "[poplar][program]") {
  sdktest::TestGraph g;
  Tensor pred = g.variable(BOOL, {}, "pred");
  Tensor control = g.variable(INT, {}, "control");
  Tensor out = g.variable(INT, {}, "out");
  auto constant = [&](int v) {
    Tensor c = g.graph.addConstant(INT, {}, v);
    g.graph.setTileMapping(c, 0);
    return c;
  };
  Sequence prog;
  prog.add(If(pred, Copy(constant(1), out), Copy(constant(2), out)));
  Sequence switchProg;
  switchProg.add(Switch(control, {{5, Copy(constant(50), out)},
                                  {-3, Copy(constant(-30), out)}},
                        Copy(constant(99), out)));
  Engine engine(g.graph, {prog, switchProg});
  engine.load(g.device);

  writeTo(engine, "pred", std::vector<char>{1});
  engine.run(0);
  CHECK(readBack<int>(engine, "out", 1)[0] == 1);
  writeTo(engine, "pred", std::vector<char>{0});
  engine.run(0);
  CHECK(readBack<int>(engine, "out", 1)[0] == 2);

  for (auto [value, expected] : {std::pair{5, 50}, {-3, -30}, {0, 99}}) {
    writeTo(engine, "control", std::vector<int>{value});
    engine.run(1);
    CHECK(readBack<int>(engine, "out", 1)[0] == expected);
  }
  CHECK_THROWS_AS(Switch(control).add(1, Sequence()).add(1, Sequence()),
                  control_program_error);
}

TEST_CASE("RepeatWhileTrue and RepeatWhileFalse test after the condition",
          "[poplar][program]") {
  sdktest::TestGraph g;
  Tensor pred = g.variable(INT, {}, "pred");
  Tensor count = g.variable(INT, {1}, "count");
  DataStream conditions = g.graph.addHostToDeviceFIFO("cond", INT, 1);
  DataStream ticks = g.graph.addDeviceToHostFIFO("ticks", INT, 1);
  // Each body run sends `count` to the host.
  Sequence whileTrue{RepeatWhileTrue(Copy(conditions, pred), pred,
                                     Copy(count, ticks))};
  Sequence whileFalse{RepeatWhileFalse(Copy(conditions, pred), pred,
                                       Copy(count, ticks))};
  Engine engine(g.graph, {whileTrue, whileFalse});
  engine.load(g.device);

  std::vector<int> conds = {1, 1, 1, 0, 0, 0, 7};
  std::size_t next = 0;
  engine.connectStreamToCallback("cond", [&](void *p) {
    *static_cast<int *>(p) = conds[next++];
  });
  int ticksSeen = 0;
  engine.connectStreamToCallback("ticks", [&](void *) { ++ticksSeen; });
  engine.run(0); // conditions 1,1,1,0: body three times
  CHECK(ticksSeen == 3);
  CHECK(next == 4);
  engine.run(1); // conditions 0,0,7: body twice
  CHECK(ticksSeen == 5);
  CHECK(next == 7);
}

TEST_CASE("WriteUndef and Sync leave values alone; Abort stops the program",
          "[poplar][program]") {
  sdktest::TestGraph g;
  Tensor x = g.variable(FLOAT, {2}, "x");
  Tensor flag = g.variable(INT, {}, "flag");
  Sequence prog{WriteUndef(x), Sync(SyncType::INTERNAL), Sync(SyncType::GLOBAL)};
  Sequence aborting{AbortOnCondition(flag, "flag was set")};
  Sequence alwaysAbort{Abort("stop here")};
  Engine engine(g.graph, {prog, aborting, alwaysAbort});
  engine.load(g.device);
  writeTo(engine, "x", std::vector<float>{1.5f, -2.0f});
  engine.run(0);
  CHECK(readBack<float>(engine, "x", 2) == std::vector<float>{1.5f, -2.0f});
  writeTo(engine, "flag", std::vector<int>{0});
  engine.run(1);
  writeTo(engine, "flag", std::vector<int>{3});
  CHECK_THROWS_WITH(engine.run(1), Contains("flag was set"));
  CHECK_THROWS_AS(engine.run(2), application_runtime_error);
}

TEST_CASE("PrintTensor prints in the guide's format", "[poplar][program][print]") {
  sdktest::TestGraph g;
  Tensor f = g.graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  Tensor m = g.graph.addConstant<int>(INT, {2, 2}, {5, 4, -4, 3});
  Tensor c = g.graph.addConstant<int>(INT, {2, 1, 2}, {1, 2, 3, 4});
  Tensor s = g.graph.addConstant(HALF, {}, 0.5f);
  Tensor b = g.graph.addConstant<bool>(BOOL, {3}, {true, false, true});
  Tensor e = g.graph.addConstant<float>(FLOAT, {0}, {});
  for (const Tensor &t : {f, m, c, s, b, e})
    g.graph.setTileMapping(t, 0);
  Sequence prog{PrintTensor("f", f),          PrintTensor("m", m),
                PrintTensor("c", c),          PrintTensor("s", s),
                PrintTensor("b", b),          PrintTensor("e", e),
                PrintTensor("ft", m.transpose())};
  Engine engine(g.graph, prog);
  engine.load(g.device);
  std::ostringstream out;
  engine.setPrintStream(out);
  engine.run();
  CHECK(out.str() == "f: {1,1.5,2,2.5}\n"
                     "m: {\n {5,4},\n {-4,3}\n}\n"
                     "c: {\n {\n  {1,2}\n },\n {\n  {3,4}\n }\n}\n"
                     "s: 0.5\n"
                     "b: {1,0,1}\n"
                     "e: {}\n"
                     "ft: {\n {5,-4},\n {4,3}\n}\n");
}

TEST_CASE("PrintTensor with a PrintTensorFmt prints numpy's layout",
          "[poplar][program][print]") {
  sdktest::TestGraph g;
  std::vector<int> ramp(40);
  for (int i = 0; i < 40; ++i)
    ramp[i] = i;
  Tensor r = g.graph.addConstant<int>(INT, {4, 10}, ramp);
  Tensor f = g.graph.addConstant<float>(FLOAT, {3}, {1.5f, -20.25f, 0.125f});
  Tensor h = g.graph.addConstant(HALF, {}, 0.5f);
  Tensor e = g.graph.addConstant<float>(FLOAT, {2, 0}, {});
  for (const Tensor &t : {r, f, h, e})
    g.graph.setTileMapping(t, 0);
  using Fmt = PrintTensorFmt;
  Sequence prog{
      PrintTensor("r", r, Fmt(20, 2)),
      PrintTensor("f", f, Fmt()),
      PrintTensor("g", f, Fmt(1000, 3, 75, 3, Fmt::FloatFormat::Scientific, ',',
                              '(', ')')),
      PrintTensor("w", r[0], Fmt(1000, 3, 12)),
      PrintTensor("h", h, Fmt()),
      PrintTensor("e", e, Fmt())};
  Engine engine(g.graph, prog);
  engine.load(g.device);
  std::ostringstream out;
  engine.setPrintStream(out);
  engine.run();
  // As numpy.array2string(..., threshold=20, edgeitems=2) and
  // (..., max_line_width=12).
  CHECK(out.str() == "r: [[ 0  1 ...  8  9]\n [10 11 ... 18 19]\n"
                     " [20 21 ... 28 29]\n [30 31 ... 38 39]]\n"
                     "f: [  1.500000 -20.250000   0.125000]\n"
                     "g: ( 1.50e+00,-2.02e+01, 1.25e-01)\n"
                     "w: [0 1 2 3 4\n 5 6 7 8 9]\n"
                     "h: 0.5000000\n"
                     "e: []\n");
}
