// PopART's hardware device requests: none without IPUs, and the IPU Models
// of POPLAR_IPU_MODEL_AS_HARDWARE with it, acquired by one user at a time.
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>

#include <poplar/Target.hpp>

#include "ModelAsHardware.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace popart;
using Catch::Matchers::Contains;


TEST_CASE("without the switch hardware requests find nothing",
          "[popart][device]") {
  sdktest::ModelAsHardware s(nullptr);
  auto &dm = DeviceManager::createDeviceManager();
  CHECK(dm.enumerateDevices().empty());
  CHECK(dm.tryAcquireAvailableDevice(1) == nullptr);
  CHECK_THROWS_WITH(dm.acquireAvailableDevice(1),
                    Contains("no IPU hardware is available"));
  CHECK(dm.tryAcquireDeviceById(0) == nullptr);
  CHECK_THROWS_AS(dm.acquireDeviceById(0), popart::error);
}

TEST_CASE("with the switch IPU Models are enumerated and acquired as IPUs",
          "[popart][device]") {
  sdktest::ModelAsHardware s("ipu2");
  auto &dm = DeviceManager::createDeviceManager();
  auto all = dm.enumerateDevices(SyncPattern::Full, 1, DeviceType::Ipu,
                                 DeviceConnectionType::Never);
  REQUIRE(all.size() == 4);
  for (int i = 0; i != 4; ++i) {
    CHECK(all[i]->getId() == i);
    CHECK(all[i]->getType() == DeviceType::Ipu);
    CHECK_FALSE(all[i]->isAttached());
    CHECK(all[i]->getTarget().getTargetType() == poplar::TargetType::IPU_MODEL);
    CHECK(all[i]->getIpuVersion() == "ipu2");
  }
  auto first = dm.acquireAvailableDevice(1, 0, SyncPattern::SinglePipeline,
                                         DeviceConnectionType::Always);
  REQUIRE(first);
  CHECK(first->getId() == 0);
  CHECK(first->isAttached());
  // The next acquisition gets the next free IPU.
  auto second = dm.acquireAvailableDevice(1);
  CHECK(second->getId() == 1);
  // One already acquired is not handed out again.
  CHECK(dm.tryAcquireDeviceById(0) == nullptr);
  CHECK_THROWS_WITH(dm.acquireDeviceById(1),
                    Contains("attached to another user"));
  first->detach();
  auto again = dm.acquireDeviceById(0, SyncPattern::Full,
                                    DeviceConnectionType::Always);
  CHECK(again->getId() == 0);
  // A device of fewer tiles, as tilesPerIPU asks.
  auto small = dm.acquireAvailableDevice(1, 4);
  CHECK(small->getTilesPerIPU() == 4);
  CHECK(small->getId() == 2);
}

TEST_CASE("connection types: Always attaches, OnDemand when used, Never not",
          "[popart][device]") {
  sdktest::ModelAsHardware s("ipu2");
  auto &dm = DeviceManager::createDeviceManager();
  auto onDemand = dm.acquireDeviceById(3, SyncPattern::Full,
                                       DeviceConnectionType::OnDemand);
  CHECK_FALSE(onDemand->isAttached());
  onDemand->getDevice(); // what a session loads onto
  CHECK(onDemand->isAttached());
  CHECK(dm.tryAcquireDeviceById(3) == nullptr);
  onDemand->detach();
  auto never = dm.getDevice(SyncPattern::Full, 3, DeviceConnectionType::Never);
  CHECK_FALSE(never->attach());
  CHECK_THROWS_WITH(never->getDevice(), Contains("Never"));
}

TEST_CASE("two processes acquiring the same id do not both get it",
          "[popart][device]") {
  sdktest::ModelAsHardware s("ipu2");
  auto &dm = DeviceManager::createDeviceManager();
  auto held = dm.acquireDeviceById(2);
  auto childAcquires = [] {
    const pid_t pid = fork();
    if (pid == 0)
      _exit(DeviceManager::createDeviceManager().tryAcquireDeviceById(2) ? 1
                                                                         : 0);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 1;
  };
  CHECK_FALSE(childAcquires());
  held->detach();
  CHECK(childAcquires());
}

TEST_CASE("requests the stand-in IPUs cannot meet are errors naming them",
          "[popart][device]") {
  sdktest::ModelAsHardware s("ipu2");
  auto &dm = DeviceManager::createDeviceManager();
  CHECK_THROWS_WITH(dm.acquireAvailableDevice(2),
                    Contains("2 IPUs") && Contains("single IPUs"));
  CHECK_THROWS_WITH(dm.acquireAvailableDevice(1, 5000),
                    Contains("5000 tiles per IPU"));
  CHECK_THROWS_WITH(dm.getDevice(SyncPattern::Full, 9), Contains("id 9"));
}

TEST_CASE("a session runs on an acquired stand-in IPU", "[popart][device]") {
  sdktest::ModelAsHardware s("ipu2");
  auto device = DeviceManager::createDeviceManager().acquireAvailableDevice(1);
  auto b = Builder::create();
  auto x = b->addInputTensor(TensorInfo("FLOAT", Shape{3}));
  auto y = b->aiOnnxOpset11().add({x, x});
  auto session = InferenceSession::createFromOnnxModel(
      b->getModelProto(), DataFlow(1, {{y, AnchorReturnType("ALL")}}), device);
  session->prepareDevice();
  std::vector<float> in = {1, 2.5f, -4}, out(3);
  NDArrayWrapper<float> inW(in.data(), {3}), outW(out.data(), {3});
  std::map<TensorId, IArray &> ins = {{x, inW}}, outs = {{y, outW}};
  StepIO stepio(ins, outs);
  session->run(stepio);
  CHECK(out == std::vector<float>{2, 5, -8});
}
