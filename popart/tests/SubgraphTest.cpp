// Subgraphs of an IR built op by op (IrBuilder), on each device: a
// subgraph called from two places, a loop carrying its outputs, an input
// passed by reference that a subgraph updates, against host arithmetic.
#include "PopartTestDevice.hpp"

#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/irbuilder.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/onnxoperators.gen.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace popart;
namespace gc = Onnx::CustomOperators;

namespace {

const TensorInfo info4(DataType::FLOAT, Shape{4});

ConstVoidData data(const std::vector<float> &v) {
  return ConstVoidData(v.data(), TensorInfo(DataType::FLOAT, Shape{static_cast<int64_t>(v.size())}));
}

// "affine": a -> a * 2 + 1.
void addAffine(IrBuilder &b) {
  b.createGraph("affine");
  b.addGraphInput("affine", "affine/a", info4);
  const std::vector<float> two(4, 2.0f), one(4, 1.0f);
  b.addConstant("affine", "affine/two", data(two));
  b.addConstant("affine", "affine/one", data(one));
  b.addOp("affine", Onnx::Operators::Mul_7, {"affine/a", "affine/two"},
          {"affine/m"}, {}, "mul");
  b.addOp("affine", Onnx::Operators::Add_7, {"affine/m", "affine/one"},
          {"affine/out"}, {}, "add");
  b.addGraphOutput("affine", "affine/out");
}

// "accumulate": total += x, total passed by reference.
void addAccumulate(IrBuilder &b) {
  b.createGraph("accumulate");
  b.addGraphInput("accumulate", "accumulate/total", info4);
  b.addGraphInput("accumulate", "accumulate/x", info4);
  b.addOp("accumulate", Onnx::Operators::Add_7,
          {"accumulate/total", "accumulate/x"}, {"accumulate/sum"}, {}, "add");
  b.addOp("accumulate", gc::CopyVarUpdate_1, {"accumulate/total", "accumulate/sum"},
          {"accumulate/updated"}, {}, "update");
}

} // namespace

TEST_CASE("Subgraphs called, repeated and updating by reference",
          "[popart][subgraph]") {
  IrBuilder b;
  addAffine(b);
  addAccumulate(b);
  b.addStream("x", info4);
  b.addOp("", gc::HostLoad_1, {"x"}, {"x/loaded"}, {}, "load");
  b.addOp("", gc::Call_1, {"x/loaded"}, {"y"}, {{"callee", std::string("affine")}},
          "call0");
  b.addOp("", gc::Call_1, {"y"}, {"z"}, {{"callee", std::string("affine")}}, "call1");
  b.addOp("", gc::Loop_1, {"x/loaded"}, {"r"},
          {{"callee", std::string("affine")}, {"tripCount", int64_t(3)}}, "loop");
  const std::vector<float> zeros(4, 0.0f);
  b.addVariable("total", data(zeros));
  const int64_t call = b.addOp("", gc::Call_1, {"total", "z"}, {},
                               {{"callee", std::string("accumulate")}}, "acc");
  b.setCallInputModified("", call, 0);
  // Made after the update, this reads the updated variable.
  b.addOp("", Onnx::Operators::Identity_1, {"total"}, {"total/read"}, {}, "read");
  for (const char *out : {"z", "r", "total/read"})
    b.addOp("", gc::HostStore_1, {out}, {std::string(out) + "/stream"}, {},
            std::string("store ") + out);
  b.setDataFlow(DataFlow(1, {{"z/stream", AnchorReturnType("All")},
                             {"r/stream", AnchorReturnType("All")},
                             {"total/read/stream", AnchorReturnType("All")}}));
  b.getSessionOptions().useHostCopyOps = true;
  b.getSessionOptions().enableExplicitMainLoops = true;

  auto session = InferenceSession::createFromIr(b, popart_test::createTestDevice());
  CHECK_THROWS_AS(b.addStream("late", info4), error);
  session->prepareDevice();
  session->weightsFromHost();

  std::vector<float> x = {0.0f, 1.0f, -2.0f, 0.5f}, z(4), r(4), total(4);
  NDArrayWrapper<float> xw(x.data(), info4), zw(z.data(), info4),
      rw(r.data(), info4), tw(total.data(), info4);
  std::map<TensorId, IArray &> ins = {{"x", xw}};
  std::map<TensorId, IArray &> outs = {
      {"z/stream", zw}, {"r/stream", rw}, {"total/read/stream", tw}};
  for (int run = 1; run <= 2; ++run) {
    StepIO io(ins, outs);
    session->run(io);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float y = x[i] * 2 + 1, zi = y * 2 + 1;
      float ri = x[i];
      for (int k = 0; k < 3; ++k)
        ri = ri * 2 + 1;
      CHECK(z[i] == zi);
      CHECK(r[i] == ri);
      CHECK(total[i] == run * zi);
    }
  }
}

TEST_CASE("Subgraph ops check their callee", "[popart][subgraph]") {
  IrBuilder b;
  addAffine(b);
  b.addVariable("v", data({1, 2, 3}));
  CHECK_THROWS_WITH(b.addOp("", gc::Call_1, {"v"}, {"o"},
                            {{"callee", std::string("affine")}}, "call"),
                    Catch::Contains("FLOAT [3]") && Catch::Contains("affine"));
  CHECK_THROWS_WITH(b.addOp("", gc::Call_1, {"v"}, {"o"},
                            {{"callee", std::string("nosuch")}}, "call"),
                    Catch::Contains("no subgraph 'nosuch'"));
  // The failed op left nothing behind.
  CHECK_FALSE(b.hasTensor("", "o"));
  CHECK_THROWS_WITH(b.addOp("affine", gc::HostLoad_1, {"affine/a"}, {"l"}, {}, "load"),
                    Catch::Contains("main graph only"));
}
