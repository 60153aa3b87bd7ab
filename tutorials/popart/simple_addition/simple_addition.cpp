// The PopART user guide's simple addition, in C++: a graph adding two
// tensors is built with the Builder, made into an inference session on the
// IPU Model, and run once.
//   g++ --std=c++17 simple_addition.cpp -lpopart -lpoplar -o simple_addition
#include <popart/builder.hpp>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <iostream>
#include <map>
#include <vector>

int main() {
  // Create a builder and construct a graph.
  auto builder = popart::Builder::create();
  popart::TensorInfo dataShape{"FLOAT", std::vector<int64_t>{1}};
  auto a = builder->addInputTensor(dataShape);
  auto b = builder->addInputTensor(dataShape);
  auto o = builder->aiOnnxOpset11().add({a, b});
  builder->addOutputTensor(o);
  auto proto = builder->getModelProto();

  // Describe how to run the model: one batch per step, returning o.
  auto dataFlow = popart::DataFlow(1, {{o, popart::AnchorReturnType("ALL")}});

  // Create a session to compile and execute the graph on the IPU Model.
  auto device = popart::DeviceManager::createDeviceManager().createIpuModelDevice(
      {{"numIPUs", "1"}, {"tilesPerIPU", "4"}});
  auto session =
      popart::InferenceSession::createFromOnnxModel(proto, dataFlow, device);

  // Compile the graph.
  session->prepareDevice();

  // The input data, and a buffer to receive the result.
  std::vector<float> dataA{1.5f}, dataB{2.25f}, result(1);
  popart::NDArrayWrapper<float> inA(dataA.data(), {1});
  popart::NDArrayWrapper<float> inB(dataB.data(), {1});
  popart::NDArrayWrapper<float> out(result.data(), {1});
  std::map<popart::TensorId, popart::IArray &> inputs = {{a, inA}, {b, inB}};
  std::map<popart::TensorId, popart::IArray &> anchors = {{o, out}};
  popart::StepIO stepio(inputs, anchors);

  session->run(stepio);

  std::cout << "Input a is [" << dataA[0] << "]\n";
  std::cout << "Input b is [" << dataB[0] << "]\n";
  std::cout << "Result is [" << result[0] << "]\n";
  return 0;
}
