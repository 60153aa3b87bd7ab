// POPLAR_IPU_MODEL_AS_HARDWARE: IPU Models listed in place of IPUs, each
// attached by one user at a time across threads and processes.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "ModelAsHardware.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace poplar;
using Catch::Matchers::Contains;


TEST_CASE("without the switch no IPU is found, as on a host without IPUs",
          "[poplar][device]") {
  sdktest::ModelAsHardware s(nullptr);
  DeviceManager manager = DeviceManager::createDeviceManager();
  CHECK(manager.getNumDevices() == 0);
  CHECK(manager.getDevices(TargetType::IPU, 1).empty());
  CHECK(manager.getDevices(TargetType::IPU, 4).empty());
  CHECK_THROWS_AS(manager.getDevice(0), poplar_error);
}

TEST_CASE("the switch lists IPU Models with ids that attach like IPUs",
          "[poplar][device]") {
  sdktest::ModelAsHardware s("ipu2");
  DeviceManager manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 1);
  REQUIRE(devices.size() == 4);
  CHECK(manager.getNumDevices() == 4);
  for (unsigned i = 0; i != devices.size(); ++i) {
    CHECK(devices[i].getId() == i);
    // The target is the IPU Model's, so reports say where it ran.
    CHECK(devices[i].getTarget().getTargetType() == TargetType::IPU_MODEL);
    CHECK(devices[i].getTarget().getTargetArchString() == "ipu2");
    CHECK(devices[i].getTarget().getTilesPerIPU() == 1472);
  }
  CHECK(manager.getDevices(TargetType::IPU_MODEL, 1).empty());
  CHECK(manager.getChildDeviceIds(2) == std::vector<unsigned>{2});

  REQUIRE(devices[0].attach());
  CHECK(devices[0].isAttached());
  // The same id, from another listing, is not handed out twice.
  Device again = manager.getDevice(0);
  CHECK_FALSE(again.attach());
  CHECK_FALSE(manager.getDevices(TargetType::IPU, 1)[0].attach());
  // Another id is free.
  Device other = manager.getDevice(1);
  CHECK(other.attach());
  other.detach();
  devices[0].detach();
  CHECK_FALSE(devices[0].isAttached());
  CHECK(again.attach());
  again.detach();

  sdktest::ModelAsHardware ipu1("ipu1");
  CHECK(DeviceManager::createDeviceManager()
            .getDevice(3)
            .getTarget()
            .getTilesPerIPU() == 1216);
}

TEST_CASE("a program runs on an attached stand-in IPU, not on a detached one",
          "[poplar][device]") {
  sdktest::ModelAsHardware s("ipu2");
  Device device = DeviceManager::createDeviceManager().getDevice(2);
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  graph.setTileMapping(v, 0);
  graph.setInitialValue(v, ArrayRef<float>({1, 2, 3, 4}));
  graph.createHostRead("v", v);
  Engine engine(graph, program::Sequence{});
  CHECK_THROWS_WITH(engine.load(device), Contains("not attached"));
  REQUIRE(device.attach());
  engine.load(device);
  engine.run(0);
  std::vector<float> host(4);
  engine.readTensor("v", host.data(), host.data() + 4);
  CHECK(host == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("threads attaching the same id: exactly one gets it",
          "[poplar][device]") {
  sdktest::ModelAsHardware s("ipu2");
  DeviceManager manager = DeviceManager::createDeviceManager();
  constexpr unsigned numThreads = 8;
  std::vector<Device> devices;
  for (unsigned i = 0; i != numThreads; ++i)
    devices.push_back(manager.getDevice(3));
  std::atomic<unsigned> attached{0};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i != numThreads; ++i)
    threads.emplace_back([&, i] { attached += devices[i].attach(); });
  for (auto &t : threads)
    t.join();
  CHECK(attached == 1);
}

TEST_CASE("processes attaching the same id: the second fails until the first "
          "lets go",
          "[poplar][device]") {
  sdktest::ModelAsHardware s("ipu2");
  Device device = DeviceManager::createDeviceManager().getDevice(1);
  REQUIRE(device.attach());
  // A child process tries the same device: exit status 1 if it got it.
  auto childAttaches = [] {
    const pid_t pid = fork();
    if (pid == 0) {
      Device d = DeviceManager::createDeviceManager().getDevice(1);
      _exit(d.attach() ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 1;
  };
  CHECK_FALSE(childAttaches());
  device.detach();
  CHECK(childAttaches());
}

TEST_CASE("bad uses of the switch are errors naming what is wrong",
          "[poplar][device]") {
  {
    sdktest::ModelAsHardware s("ipu2");
    DeviceManager manager = DeviceManager::createDeviceManager();
    CHECK_THROWS_WITH(manager.getDevices(TargetType::IPU, 2),
                      Contains("getDevices(TargetType::IPU, 2)") &&
                          Contains("single IPUs"));
    CHECK_THROWS_WITH(manager.getDevice(4), Contains("ID 4"));
  }
  sdktest::ModelAsHardware s("ipu3");
  CHECK_THROWS_WITH(DeviceManager::createDeviceManager().getDevices(
                        TargetType::IPU, 1),
                    Contains("POPLAR_IPU_MODEL_AS_HARDWARE='ipu3'"));
}
