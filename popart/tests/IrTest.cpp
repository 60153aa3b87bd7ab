// The IR without a device: import, constant folding, patterns (counting
// ops before and after), the schedule and the dumps.
#include "ir/Ir.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>
#include <popart/graphcoreoperators.hpp>
#include <popart/onnxoperators.gen.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

using namespace popart;

namespace {
int countOps(const Graph &g, const std::string &type) {
  int n = 0;
  for (const auto &p : g.getOps())
    n += p.second->opid.type == type;
  return n;
}

onnx::ModelProto modelOf(Builder &b) {
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(b.getModelProto()));
  return m;
}
void prepare(Ir &ir, const onnx::ModelProto &model,
             const InputShapeInfo &shapes, const DataFlow &dataFlow,
             const SessionOptions &options, const Patterns &patterns) {
  IrBundle bundle;
  bundle.model = model;
  bundle.inputShapeInfo = shapes;
  bundle.dataFlow = dataFlow;
  bundle.options = options;
  bundle.patterns = patterns;
  ir.prepare(bundle);
}
} // namespace

TEST_CASE("Shape computations fold into constants", "[popart][ir]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{3, 4}));
  auto o = b->aiOnnxOpset13();
  int64_t zero = 0, minus = -1;
  auto shape = o.shape({x});
  auto dim0 = o.gather(
      {shape, o.constant(ConstVoidData(&zero, TensorInfo("INT64", Shape{1})))}, 0);
  auto newShape = o.concat(
      {o.constant(ConstVoidData(&minus, TensorInfo("INT64", Shape{1}))), dim0}, 0);
  auto y = o.reshape({x, newShape});
  Ir ir;
  prepare(ir, modelOf(*b), {}, DataFlow(1, {{y, AnchorReturnType("ALL")}}),
             SessionOptions(), Patterns());
  const Graph &g = ir.getMainGraph();
  REQUIRE(g.getOps().size() == 1); // only the Reshape is left
  REQUIRE(countOps(g, "Reshape") == 1);
  REQUIRE(g.getTensor(newShape).type == TensorType::Const);
  REQUIRE(g.getTensor(y).info.shape() == Shape{4, 3});
}

TEST_CASE("OpToIdentity and PreUniRepl remove inference identities",
          "[popart][ir][patterns]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  auto o = b->aiOnnxOpset11();
  auto d = o.dropout({x}, 1, 0.5f).at(0);
  auto i = o.identity({d});
  auto r = o.relu({i});
  auto kept = o.identity({r}, "kept"); // an anchor: stays
  auto run = [&](const Patterns &p) {
    Ir ir;
    prepare(ir, modelOf(*b), {}, DataFlow(1, {{kept, AnchorReturnType("ALL")}}),
               SessionOptions(), p);
    return std::make_pair(countOps(ir.getMainGraph(), "Identity") +
                              countOps(ir.getMainGraph(), "Dropout"),
                          int(ir.getMainGraph().getOps().size()));
  };
  // Without the mandatory patterns, only with runtime asserts off (as the
  // original).
  REQUIRE_THROWS_WITH(run(Patterns(PatternsLevel::NoPatterns)),
                      Catch::Contains("must be enabled"));
  REQUIRE(run(Patterns(PatternsLevel::NoPatterns).enableRuntimeAsserts(false)) ==
          std::make_pair(3, 4));
  REQUIRE(run(Patterns(std::vector<std::string>{"OpToIdentity"})
                  .enableRuntimeAsserts(false)) == std::make_pair(3, 4));
  REQUIRE(run(Patterns()) == std::make_pair(1, 2));
  Patterns p;
  p.enablePattern("PreUniRepl", false);
  REQUIRE_FALSE(p.isPreUniReplEnabled());
  REQUIRE(p.isOpToIdentityEnabled());
  REQUIRE_THROWS_WITH(Patterns(std::vector<std::string>{"NoSuchPattern"}),
                      Catch::Contains("NoSuchPattern"));
}

TEST_CASE("The schedule puts producers first", "[popart][ir]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  auto o = b->aiOnnxOpset11();
  auto a = o.exp({x});
  auto c = o.add({a, o.neg({x})});
  auto d = o.mul({c, a});
  for (const char *tie : {"greedy", "fifo"}) {
    SessionOptions opts;
    opts.kahnTieBreaker = tie;
    Ir ir;
    prepare(ir, modelOf(*b), {}, DataFlow(1, {{d, AnchorReturnType("ALL")}}),
               opts, Patterns());
    std::set<TensorId> ready = {x};
    for (const Op *op : ir.getSchedule()) {
      for (const Tensor *in : op->inputs)
        REQUIRE(ready.count(in->id));
      for (const Tensor *out : op->outputs)
        ready.insert(out->id);
    }
    REQUIRE(ir.getSchedule().size() == 4);
  }
}

TEST_CASE("DOT checkpoints and the IR dump", "[popart][ir]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{4}));
  auto y = b->aiOnnxOpset11().sigmoid({x});
  SessionOptions opts;
  opts.dotChecks = {"Fwd0", "Final"};
  opts.logDir = ".";
  setenv("POPART_IR_DUMP", "popart_ir_test_dump.json", 1);
  setenv("POPART_DOT_CHECKS", "FWD1", 1); // added to the options' checkpoints
  Ir ir;
  prepare(ir, modelOf(*b), {}, DataFlow(1, {{y, AnchorReturnType("ALL")}}), opts,
             Patterns());
  unsetenv("POPART_IR_DUMP");
  unsetenv("POPART_DOT_CHECKS");
  std::ifstream fwd0("FWD0.dot"), fwd1("FWD1.dot"), final("FINAL.dot"),
      dump("popart_ir_test_dump.json");
  REQUIRE(fwd0.good());
  REQUIRE(fwd1.good());
  std::string dot((std::istreambuf_iterator<char>(fwd0)), {});
  REQUIRE(dot.find("digraph") != std::string::npos);
  REQUIRE(dot.find("Sigmoid") != std::string::npos);
  REQUIRE(final.good());
  std::string dumped((std::istreambuf_iterator<char>(dump)), {});
  REQUIRE(dumped.find("\"Sigmoid\"") != std::string::npos);
  std::remove("FWD0.dot");
  std::remove("FWD1.dot");
  std::remove("FINAL.dot");
  std::remove("popart_ir_test_dump.json");
}

TEST_CASE("Model inputs need shapes", "[popart][ir]") {
  auto b = Builder::create();
  auto x = b->addUntypedInputTensor("noShape");
  b->aiOnnxOpset11().relu({x});
  // A model whose input has a type but no shape: InputShapeInfo supplies it.
  onnx::ModelProto m = modelOf(*b);
  auto *tt = m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_param("batch");
  tt->mutable_shape()->add_dim()->set_dim_param("features");
  const auto y = m.graph().node(0).output(0);
  DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
  {
    Ir ir;
    REQUIRE_THROWS_WITH(prepare(ir, m, {}, flow, SessionOptions(), Patterns()),
                        Catch::Contains("noShape") &&
                            Catch::Contains("InputShapeInfo"));
  }
  InputShapeInfo shapes;
  shapes.add("noShape", TensorInfo("FLOAT", Shape{2, 5}));
  Ir ir;
  prepare(ir, m, shapes, flow, SessionOptions(), Patterns());
  REQUIRE(ir.getMainGraph().getTensor(y).info.shape() == Shape{2, 5});
}

TEST_CASE("enableConstantFoldingOfMultipleConsumers", "[popart][ir]") {
  // A constant read by two ops: both fold by default; with the option off,
  // neither does (each would be a second copy of the constant's size).
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2}));
  auto o = b->aiOnnxOpset13();
  const float values[] = {1.0f, 2.0f};
  auto c = o.constant(ConstVoidData(values, TensorInfo("FLOAT", Shape{2})));
  auto y = o.add({o.add({x, o.neg({c})}), o.sqrt({c})});
  const DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
  Ir folded;
  prepare(folded, modelOf(*b), {}, flow, SessionOptions(), Patterns());
  REQUIRE(countOps(folded.getMainGraph(), "Neg") == 0);
  REQUIRE(countOps(folded.getMainGraph(), "Sqrt") == 0);
  SessionOptions opts;
  opts.enableConstantFoldingOfMultipleConsumers = false;
  Ir kept;
  prepare(kept, modelOf(*b), {}, flow, opts, Patterns());
  REQUIRE(countOps(kept.getMainGraph(), "Neg") == 1);
  REQUIRE(countOps(kept.getMainGraph(), "Sqrt") == 1);
}

namespace {
// A model of one ConvTranspose of X {1, 1, 3, 3} by W of `wShape`.
onnx::ModelProto convTransposeModel(const std::vector<int64_t> &wShape,
                                    const std::vector<int64_t> &dilations) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(11);
  auto *g = m.mutable_graph();
  g->set_name("g");
  auto addInput = [&](const std::string &name, const std::vector<int64_t> &shape) {
    auto *tt = g->add_input()->mutable_type()->mutable_tensor_type();
    g->mutable_input(g->input_size() - 1)->set_name(name);
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (auto d : shape)
      tt->mutable_shape()->add_dim()->set_dim_value(d);
  };
  addInput("X", {1, 1, 3, 3});
  addInput("W", wShape);
  auto *node = g->add_node();
  node->set_op_type("ConvTranspose");
  node->add_input("X");
  node->add_input("W");
  node->add_output("Y");
  auto *attr = node->add_attribute();
  attr->set_name("dilations");
  attr->set_type(onnx::AttributeProto::INTS);
  for (auto d : dilations)
    attr->add_ints(d);
  g->add_output()->set_name("Y");
  return m;
}
} // namespace

TEST_CASE("INT64 shape values past the double range are read exactly, "
          "without undefined behaviour",
          "[popart][ir]") {
  // Found by fuzz/OnnxModelFuzzer.cpp in an hour-long run: Reshape's shape
  // [0, 0, INT64_MAX] was read through a double (2^63, outside int64_t:
  // undefined behaviour under UBSan). Now read as integers: Reshape names
  // the shape it cannot take.
  auto model = [](std::int64_t last) {
    onnx::ModelProto m;
    m.set_ir_version(7);
    m.add_opset_import()->set_version(13);
    auto *g = m.mutable_graph();
    g->set_name("g");
    auto *in = g->add_input();
    in->set_name("x");
    auto *tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {3, 5})
      tt->mutable_shape()->add_dim()->set_dim_value(d);
    auto *shape = g->add_initializer();
    shape->set_name("shape");
    shape->set_data_type(onnx::TensorProto::INT64);
    shape->add_dims(3);
    for (std::int64_t v : {std::int64_t(0), std::int64_t(0), last})
      shape->add_int64_data(v);
    auto *node = g->add_node();
    node->set_op_type("Reshape");
    node->set_name("r");
    node->add_input("x");
    node->add_input("shape");
    node->add_output("y");
    g->add_output()->set_name("y");
    return m;
  };
  DataFlow flow(1, {{"y", AnchorReturnType("ALL")}});
  {
    Ir ir;
    REQUIRE_THROWS_WITH(
        prepare(ir, model(std::numeric_limits<std::int64_t>::max()), {}, flow,
                SessionOptions(), Patterns()),
        Catch::Contains("Reshape") &&
            Catch::Contains("9223372036854775807"));
  }
  Ir ir;
  prepare(ir, model(1), {}, flow, SessionOptions(), Patterns());
  REQUIRE(ir.getMainGraph().getTensor("y").info.shape() == Shape{3, 5, 1});
}

TEST_CASE("A LayerNormalization axis outside the input's rank is an error, "
          "not a crash in ONNX shape inference",
          "[popart][ir]") {
  // Found by fuzz/OnnxModelFuzzer.cpp in an hour-long run: libonnx's
  // inference of LayerNormalization indexes the input's dimensions with the
  // axis unchecked (a SEGV). The guard refuses the node; popart's own op
  // then names the axis.
  auto model = [](std::int64_t axis) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(17);
    auto *g = m.mutable_graph();
    g->set_name("g");
    auto addInput = [&](const std::string &name,
                        const std::vector<int64_t> &shape) {
      auto *in = g->add_input();
      in->set_name(name);
      auto *tt = in->mutable_type()->mutable_tensor_type();
      tt->set_elem_type(onnx::TensorProto::FLOAT);
      for (auto d : shape)
        tt->mutable_shape()->add_dim()->set_dim_value(d);
    };
    addInput("X", {2, 3, 4, 5});
    addInput("W", {5});
    addInput("B", {5});
    auto *node = g->add_node();
    node->set_op_type("LayerNormalization");
    node->set_name("ln");
    for (const char *in : {"X", "W", "B"})
      node->add_input(in);
    // The crash is in the inference of the mean and inverse standard
    // deviation outputs.
    for (const char *out : {"Y", "Mean", "InvStdDev"}) {
      node->add_output(out);
      g->add_output()->set_name(out);
    }
    auto *attr = node->add_attribute();
    attr->set_name("axis");
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(axis);
    return m;
  };
  DataFlow flow(1, {{"Y", AnchorReturnType("ALL")}});
  for (std::int64_t axis : {std::int64_t(-536870913), std::int64_t(4),
                            std::int64_t(-5)}) {
    Ir ir;
    REQUIRE_THROWS_WITH(
        prepare(ir, model(axis), {}, flow, SessionOptions(), Patterns()),
        Catch::Contains("axis") && Catch::Contains(std::to_string(axis)));
  }
  Ir ir;
  prepare(ir, model(-1), {}, flow, SessionOptions(), Patterns());
  REQUIRE(ir.getMainGraph().getTensor("Y").info.shape() == Shape{2, 3, 4, 5});
}

TEST_CASE("Convolutions whose weights or attributes do not fit the input are "
          "errors, not crashes in ONNX shape inference",
          "[popart][ir]") {
  // Found by fuzz/OnnxModelFuzzer.cpp: libonnx's inference of ConvTranspose
  // reads past the weights' shape (a crash under AddressSanitizer). The
  // check in front of it refuses the node, which ONNX's inference records
  // without stopping; popart's own ConvTranspose then names the mismatch.
  DataFlow flow(1, {{"Y", AnchorReturnType("ALL")}});
  {
    Ir ir;
    REQUIRE_THROWS_WITH(
        prepare(ir, convTransposeModel({1, 1}, {2, 2}), {}, flow, SessionOptions(),
                Patterns()),
        Catch::Contains("ConvTranspose") && Catch::Contains("weights 'W' of shape [1 1]"));
  }
  {
    Ir ir;
    REQUIRE_THROWS_WITH(prepare(ir, convTransposeModel({1, 1, 2, 2}, {2, 2, 2}), {},
                                flow, SessionOptions(), Patterns()),
                        Catch::Contains("ConvTranspose") && Catch::Contains("dilations"));
  }
  Ir ir;
  prepare(ir, convTransposeModel({1, 1, 2, 2}, {2, 2}), {}, flow, SessionOptions(),
          Patterns());
  REQUIRE(ir.getMainGraph().getTensor("Y").info.shape() == Shape{1, 1, 5, 5});
}

TEST_CASE("Operator identifiers from literals and from strings are the same",
          "[popart][ir]") {
  const OperatorIdentifier fromLiterals(Domain::ai_graphcore, "Gelu", 1, 1, 1);
  const OperatorIdentifier fromStrings(std::string("ai.graphcore"),
                                       std::string("Gelu"), 1, 1, 1);
  CHECK(fromLiterals == fromStrings);
  CHECK(fromLiterals == Onnx::CustomOperators::Gelu_1);
  CHECK(fromLiterals.numInputs.max == 1);
  CHECK(fromLiterals.numOutputs == 1);
  // An empty domain (or none) is ai.onnx, as with strings.
  CHECK(OperatorIdentifier("", "Add", 7) == Onnx::Operators::Add_7);
  CHECK(OperatorIdentifier(nullptr, "Add", 7) == Onnx::Operators::Add_7);
  std::ostringstream os;
  os << Onnx::Operators::Add_7;
  CHECK(os.str() == "ai.onnx.Add:7");
}
