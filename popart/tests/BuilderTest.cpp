// The Builder: ids, opsets generated from the ONNX schemas, attributes,
// annotations, name scopes and the model it makes.
#include <popart/builder.hpp>
#include <popart/error.hpp>

#include <catch2/catch.hpp>

#include <cstdio>

using namespace popart;

TEST_CASE("Inputs, initializers, outputs and their ids", "[popart][builder]") {
  auto b = Builder::create();
  auto i1 = b->addInputTensor(TensorInfo("FLOAT", Shape{1, 2, 32, 32}));
  auto i2 = b->addInputTensor("FLOAT", Shape{1, 2, 32, 32});
  auto i3 = b->addInputTensor(TensorInfo(DataType::INT32, Shape{4}),
                              InputSettings(), "ids");
  REQUIRE(i1 == "input");
  REQUIRE(i2 == "input/1");
  REQUIRE(i3 == "ids");
  std::vector<float> w(6, 0.5f);
  auto init = b->addInitializedInputTensor(
      ConstVoidData(w.data(), TensorInfo("FLOAT", Shape{2, 3})));
  REQUIRE(init == "init_input");
  auto o = b->aiOnnxOpset11().add({i1, i2});
  REQUIRE(o == "Add:0");
  auto o2 = b->aiOnnxOpset11().add({o, i2});
  REQUIRE(o2 == "Add:0/1");
  b->addOutputTensor(o2);
  REQUIRE(b->getInputTensorIds() ==
          std::vector<TensorId>{"input", "input/1", "ids", "init_input"});
  REQUIRE(b->getOutputTensorIds() == std::vector<TensorId>{o2});
  REQUIRE(b->getValueTensorIds() == std::vector<TensorId>{o, o2});
  REQUIRE(b->isInitializer(init));
  REQUIRE_FALSE(b->isInitializer(i1));
  REQUIRE(b->getTrainableTensorIds() == std::vector<TensorId>{init});
  REQUIRE(b->getTensorShape(o2) == Shape{1, 2, 32, 32});
  REQUIRE(b->getTensorDataType(i3) == DataType::INT32);
  REQUIRE(b->getTensorDtypeString(o2) == "float32");
  REQUIRE_THROWS_WITH(b->addOutputTensor("missing"), Catch::Contains("missing"));
}

TEST_CASE("Generated op methods take the ONNX attributes with their defaults",
          "[popart][builder]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 3, 4}));
  auto o = b->aiOnnxOpset13();
  auto t = o.transpose({x}, std::vector<int64_t>{2, 0, 1}); // [4,2,3]
  auto s = o.softmax({t}); // axis defaults to -1
  auto r = o.reducemean({s}, std::vector<int64_t>{0}, 0, "mean"); // [2,3]
  auto c = o.cast({r}, "FLOAT16");
  auto g = o.gather({x, b->addInitializedInputTensor(ConstVoidData(
                            std::vector<int64_t>{1, 0}.data(),
                            TensorInfo("INT64", Shape{2})))},
                    1);
  b->addOutputTensor(c);
  REQUIRE(r == "mean:0");
  REQUIRE(b->getTensorShape(t) == Shape{4, 2, 3});
  REQUIRE(b->getTensorShape(r) == Shape{2, 3});
  REQUIRE(b->getTensorDataType(c) == DataType::FLOAT16);
  REQUIRE(b->getTensorShape(g) == Shape{2, 2, 4});
  REQUIRE(b->getInt64NodeAttribute("keepdims", {r}) == 0);
  REQUIRE(b->getInt64VectorNodeAttribute("perm", {t}) ==
          std::vector<int64_t>{2, 0, 1});
  // Ops with several outputs take their number and return them all.
  auto parts = o.split({x}, 2, 1);
  REQUIRE(parts.size() == 2);
  REQUIRE_THROWS_WITH(o.cast({r}, "NOT_A_TYPE"), Catch::Contains("NOT_A_TYPE"));
  // A model imports one version of ai.onnx.
  REQUIRE_THROWS_WITH(b->aiOnnxOpset9().relu({x}), Catch::Contains("opset"));
}

TEST_CASE("Annotations, node attributes and name scopes", "[popart][builder]") {
  auto b = Builder::create();
  auto a = b->addInputTensor(TensorInfo("FLOAT", Shape{1}));
  b->pushNameScope("layer1");
  auto o = b->aiOnnxOpset11().relu({a});
  b->pushNameScope("inner");
  REQUIRE(b->getNameScope("x") == "layer1/inner/x");
  auto o2 = b->aiOnnxOpset11().sigmoid({o}, "act");
  b->popNameScope();
  b->popNameScope();
  REQUIRE_THROWS_AS(b->popNameScope(), popart::error);
  REQUIRE(o == "layer1/Relu:0");
  REQUIRE(o2 == "layer1/inner/act:0");
  b->virtualGraph(o2, 1);
  REQUIRE(b->getVirtualGraph(o2) == 1);
  REQUIRE(b->nodeHasAttribute("__ipu_number", {o2}));
  b->setAttribute("__ipu_number", int64_t(3));
  auto o3 = b->aiOnnxOpset11().neg({o2});
  b->clearAttribute("__ipu_number");
  REQUIRE(b->getVirtualGraph(o3) == 3);
  b->addNodeAttribute("myFloat", 0.25f, {o3});
  REQUIRE(b->getFloatNodeAttribute("myFloat", {o3}) == 0.25f);
  b->removeNodeAttribute("myFloat", {o3});
  REQUIRE_FALSE(b->nodeHasAttribute("myFloat", {o3}));
  b->setPartialsType(o3, "HALF");
  REQUIRE_THROWS_WITH(b->setPartialsType(o3, "int8"),
                      Catch::Contains("setPartialsType: 'int8' is not a "
                                      "partials type"));
  REQUIRE(b->getPartialsType(o3) == "HALF");
}

TEST_CASE("Model proto out and back in", "[popart][builder]") {
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{2, 2}), "x");
  auto y = b->aiGraphcoreOpset1().scale({x}, 2.0f);
  auto z = b->aiOnnxOpset11().relu({y});
  b->addOutputTensor(z);
  const std::string proto = b->getModelProto();
  REQUIRE(b->getModelProto(true).find("op_type: \"Scale\"") != std::string::npos);
  auto c = Builder::createFromOnnxModel(proto);
  REQUIRE(c->getOutputTensorIds() == std::vector<TensorId>{z});
  REQUIRE(c->getTensorShape(z) == Shape{2, 2});
  const std::string file = "popart_builder_test.onnx";
  b->saveModelProto(file);
  auto d = Builder::createFromOnnxModel(file);
  REQUIRE(d->getInputTensorIds() == std::vector<TensorId>{"x"});
  std::remove(file.c_str());
  REQUIRE_THROWS_AS(Builder::createFromOnnxModel(proto.substr(0, proto.size() / 2)),
                    popart::error);
}
