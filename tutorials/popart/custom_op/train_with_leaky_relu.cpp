// Trains a one-layer model through the custom leaky ReLU: the library made
// from leaky_relu_custom_op.cpp is loaded (its static creators register
// the op and its lowerings), the model uses it with Builder::customOp, and
// a TrainingSession runs its forward and its gradient.
//
//   ./train_with_leaky_relu build/custom_op.so
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/sgd.hpp>
#include <popart/stepio.hpp>
#include <popart/tensornames.hpp>

#include <dlfcn.h>

#include <iomanip>
#include <iostream>
#include <map>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <custom op library>\n";
    return 1;
  }
  if (!dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
    std::cerr << "Cannot load " << argv[1] << ": " << dlerror() << "\n";
    return 1;
  }

  auto builder = popart::Builder::create();
  const popart::TensorInfo info("FLOAT", std::vector<int64_t>{6});
  auto x = builder->addInputTensor(info, "x");
  std::vector<float> w0 = {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
  auto w = builder->addInitializedInputTensor({w0.data(), info}, "w");
  auto xw = builder->aiOnnxOpset11().mul({x, w});
  auto y = builder
               ->customOp({"custom.ops", "LeakyRelu", 1}, 1, {xw}, 1,
                          {{"alpha", 0.1f}}, "leakyRelu")
               .at(0);
  auto loss = builder->aiGraphcoreOpset1().identityloss(
      {y}, popart::ReductionType::Sum);

  popart::DataFlow dataFlow(1, {{y, popart::AnchorReturnType("All")},
                                {popart::getGradId(w),
                                 popart::AnchorReturnType("All")}});
  auto device = popart::DeviceManager::createDeviceManager().createIpuModelDevice(
      {{"numIPUs", "1"}, {"tilesPerIPU", "4"}});
  auto session = popart::TrainingSession::createFromOnnxModel(
      builder->getModelProto(), dataFlow, loss, popart::ConstSGD(0.5f), device);
  session->prepareDevice();
  session->weightsFromHost();

  std::vector<float> xs = {-2.0f, -1.0f, -0.5f, 0.5f, 1.0f, 2.0f};
  std::vector<float> ys(6), grads(6);
  popart::NDArrayWrapper<float> xArray(xs.data(), info), yArray(ys.data(), info),
      gArray(grads.data(), info);
  std::map<popart::TensorId, popart::IArray &> inputs = {{x, xArray}};
  std::map<popart::TensorId, popart::IArray &> anchors = {
      {y, yArray}, {popart::getGradId(w), gArray}};
  popart::StepIO stepio(inputs, anchors);
  session->run(stepio);

  std::vector<float> trained(6);
  popart::WeightsIO weights;
  weights.insert(w, {trained.data(), info});
  session->weightsToHost();
  session->readWeights(weights);

  std::cout << std::fixed << std::setprecision(2);
  auto print = [](const char *name, const std::vector<float> &v) {
    std::cout << name;
    for (float f : v)
      std::cout << " " << f;
    std::cout << "\n";
  };
  print("x          ", xs);
  print("leaky relu ", ys);
  print("dloss/dw   ", grads);
  print("w trained  ", trained);
  return 0;
}
