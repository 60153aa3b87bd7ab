// A PopART program written for IPU hardware: it acquires an IPU, then runs
// a model on it. Without IPUs (and without POPLAR_IPU_MODEL_AS_HARDWARE)
// acquireAvailableDevice throws, as the original's does.
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
  auto device = popart::DeviceManager::createDeviceManager()
                    .acquireAvailableDevice(1);
  std::cout << "Acquired IPU " << device->getId() << std::endl;

  auto builder = popart::Builder::create();
  auto x = builder->addInputTensor(popart::TensorInfo("FLOAT", popart::Shape{3}));
  auto y = builder->aiOnnxOpset9().mul({x, x});
  builder->addOutputTensor(y);
  auto session = popart::InferenceSession::createFromOnnxModel(
      builder->getModelProto(),
      popart::DataFlow(1, {{y, popart::AnchorReturnType("All")}}), device);
  session->prepareDevice();
  std::vector<float> in = {1, -2, 3}, out(3);
  popart::NDArrayWrapper<float> inArray(in.data(), {3}), outArray(out.data(), {3});
  std::map<popart::TensorId, popart::IArray &> inputs = {{x, inArray}};
  std::map<popart::TensorId, popart::IArray &> outputs = {{y, outArray}};
  popart::StepIO stepio(inputs, outputs);
  session->run(stepio);
  std::cout << "x * x = " << out[0] << " " << out[1] << " " << out[2]
            << std::endl;
  return 0;
}
