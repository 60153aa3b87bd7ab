// ONNX sequence and optional values inside a model (ir/SequenceImport.hpp)
// through the plain session API: a sequence built, edited, concatenated
// and read, its elements anchored by the sequence's name, on the device
// under test and against the inputs themselves; and the errors of a
// sequence graph input and of a position computed at run time.
#include "PopartTestDevice.hpp"

#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

using namespace popart;

namespace {

using Floats = std::vector<float>;

onnx::ValueInfoProto floatInput(const std::string &name, Shape shape) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto *t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : shape)
    t->mutable_shape()->add_dim()->set_dim_value(d);
  return v;
}

onnx::NodeProto node(const std::string &type, std::vector<std::string> ins,
                     std::vector<std::string> outs, int64_t axis = -100) {
  onnx::NodeProto n;
  n.set_op_type(type);
  for (auto &i : ins)
    n.add_input(i);
  for (auto &o : outs)
    n.add_output(o);
  if (axis != -100) {
    auto *a = n.add_attribute();
    a->set_name("axis");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(axis);
  }
  return n;
}

void int64Constant(onnx::GraphProto &g, const std::string &name, int64_t v) {
  auto *t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_int64_data(v);
}

std::string serialise(onnx::ModelProto &model) {
  model.set_ir_version(7);
  auto *opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(13);
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}

Floats iota(std::size_t n, float from) {
  Floats v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = from + float(i);
  return v;
}

} // namespace

TEST_CASE("A sequence built, edited and read inside a model, its elements "
          "anchored by its name",
          "[popart][sequence]") {
  onnx::ModelProto model;
  auto &g = *model.mutable_graph();
  g.set_name("sequences");
  *g.add_input() = floatInput("a", {2, 3});
  *g.add_input() = floatInput("b", {1, 3});
  *g.add_input() = floatInput("c", {2, 3});
  int64Constant(g, "front", 0);
  int64Constant(g, "last", -1);
  *g.add_node() = node("SequenceConstruct", {"a", "b"}, {"s"});
  *g.add_node() = node("SequenceInsert", {"s", "c", "front"}, {"s2"});
  *g.add_node() = node("ConcatFromSequence", {"s2"}, {"cat"}, 0);
  *g.add_node() = node("SequenceAt", {"s2", "last"}, {"tail"});
  *g.add_node() = node("Relu", {"tail"}, {"relu"});
  for (const char *out : {"cat", "relu"})
    g.add_output()->set_name(out);
  auto *seqOut = g.add_output();
  seqOut->set_name("s2");
  seqOut->mutable_type()->mutable_sequence_type()->mutable_elem_type()
      ->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);

  auto session = InferenceSession::createFromOnnxModel(
      serialise(model), DataFlow(1, {"cat", "relu", "s2"}),
      popart_test::createTestDevice());
  // The sequence output stands for its elements: c, a, b.
  REQUIRE(session->getInfo("s2[0]").shape() == Shape{2, 3});
  REQUIRE(session->getInfo("s2[2]").shape() == Shape{1, 3});
  REQUIRE_FALSE(session->hasInfo("s2[3]"));
  REQUIRE(session->getInfo("cat").shape() == Shape{5, 3});
  session->prepareDevice();

  Floats a = iota(6, -3), b = iota(3, -1.5f), c = iota(6, 10);
  NDArrayWrapper<float> aIn(a.data(), {2, 3}), bIn(b.data(), {1, 3}),
      cIn(c.data(), {2, 3});
  Floats cat(15), relu(3), e0(6), e1(6), e2(3);
  NDArrayWrapper<float> catOut(cat.data(), {5, 3}), reluOut(relu.data(), {1, 3}),
      e0Out(e0.data(), {2, 3}), e1Out(e1.data(), {2, 3}), e2Out(e2.data(), {1, 3});
  std::map<TensorId, IArray &> ins = {{"a", aIn}, {"b", bIn}, {"c", cIn}};
  std::map<TensorId, IArray &> outs = {{"cat", catOut}, {"relu", reluOut},
                                       {"s2[0]", e0Out}, {"s2[1]", e1Out},
                                       {"s2[2]", e2Out}};
  StepIO stepio(ins, outs);
  session->run(stepio);

  Floats expectedCat = c;
  expectedCat.insert(expectedCat.end(), a.begin(), a.end());
  expectedCat.insert(expectedCat.end(), b.begin(), b.end());
  CHECK(cat == expectedCat);
  Floats expectedRelu;
  for (float x : b)
    expectedRelu.push_back(std::max(x, 0.0f));
  CHECK(relu == expectedRelu);
  CHECK(e0 == c);
  CHECK(e1 == a);
  CHECK(e2 == b);
}

TEST_CASE("A sequence graph input is refused, naming it", "[popart][sequence]") {
  onnx::ModelProto model;
  auto &g = *model.mutable_graph();
  g.set_name("sequence_input");
  auto *in = g.add_input();
  in->set_name("s");
  in->mutable_type()->mutable_sequence_type()->mutable_elem_type()
      ->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  int64Constant(g, "zero", 0);
  *g.add_node() = node("SequenceAt", {"s", "zero"}, {"y"});
  g.add_output()->set_name("y");
  CHECK_THROWS_WITH(InferenceSession::createFromOnnxModel(
                        serialise(model), DataFlow(1, {"y"}),
                        popart_test::createTestDevice()),
                    Catch::Contains("Model input 's' is a sequence") &&
                        Catch::Contains("SequenceConstruct"));
}

TEST_CASE("A position streamed at run time is refused, naming the op",
          "[popart][sequence]") {
  onnx::ModelProto model;
  auto &g = *model.mutable_graph();
  g.set_name("streamed_position");
  *g.add_input() = floatInput("a", {2});
  auto *pos = g.add_input();
  pos->set_name("p");
  pos->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT64);
  pos->mutable_type()->mutable_tensor_type()->mutable_shape();
  *g.add_node() = node("SequenceConstruct", {"a", "a"}, {"s"});
  *g.add_node() = node("SequenceAt", {"s", "p"}, {"y"});
  g.add_output()->set_name("y");
  CHECK_THROWS_WITH(InferenceSession::createFromOnnxModel(
                        serialise(model), DataFlow(1, {"y"}),
                        popart_test::createTestDevice()),
                    Catch::Contains("SequenceAt") &&
                        Catch::Contains("position (input 1, 'p') must be a "
                                        "constant"));
}
