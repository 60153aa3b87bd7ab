// Targets, the IPU Model's parameters, devices and the device manager.
#include <catch2/catch.hpp>

#include <poplar/DeviceManager.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <sstream>

using namespace poplar;
using Catch::Matchers::Contains;

TEST_CASE("IPU Model versions have the hardware's parameters", "[poplar][target]") {
  IPUModel mk1("ipu1");
  CHECK(mk1.tilesPerIPU == 1216);
  CHECK(mk1.memoryBytesPerTile == 256 * 1024);
  CHECK(mk1.tileClockFrequency == 1.6e9);
  IPUModel mk2; // ipu2 by default
  CHECK(mk2.IPUVersion == "ipu2");
  CHECK(mk2.tilesPerIPU == 1472);
  CHECK(mk2.memoryBytesPerTile == 624 * 1024);
  CHECK(mk2.tileClockFrequency == 1.33e9);
  CHECK(mk2.numWorkerContexts == 6);
  CHECK(mk2.exchangeBytesPerCycle == 4);
  CHECK_FALSE(mk2.compileIPUCode);

  mk2.numIPUs = 2;
  mk2.tilesPerIPU = 16;
  mk2.memoryBytesPerTile = 1000;
  Device d = mk2.createDevice();
  const Target &t = d.getTarget();
  CHECK(t.getTargetType() == TargetType::IPU_MODEL);
  CHECK(t.getTargetArchString() == "ipu2");
  CHECK(t.getNumIPUs() == 2);
  CHECK(t.getTilesPerIPU() == 16);
  CHECK(t.getNumTiles() == 32);
  CHECK(t.getBytesPerTile() == 1000);
  CHECK(t.getNumWorkerContexts() == 6);
  CHECK(t.getNumConvUnits(HALF, FLOAT) == 16);
  CHECK(IPUModel("ipu1").createTarget().getNumConvUnits(FLOAT, FLOAT) == 4);

  CHECK_THROWS_AS(IPUModel("ipu9"), invalid_machine_model);
  IPUModel bad;
  bad.tilesPerIPU = 0;
  CHECK_THROWS_WITH(bad.createDevice(), Contains("tilesPerIPU"));
  CHECK_THROWS_AS(IPUModel().createDevice({{"nope", "1"}}), invalid_option);
}

TEST_CASE("Targets round-trip through serialisation", "[poplar][target]") {
  const Target t = IPUModel("ipu1").createTarget();
  std::stringstream ss;
  t.serialize(ss);
  CHECK(Target::deserialize(ss) == t);
  std::stringstream junk("garbage");
  CHECK_THROWS_AS(Target::deserialize(junk), parse_error);
  CHECK(Target::createCPUTarget().getTargetType() == TargetType::CPU);
  CHECK(Target::createIPUTarget("ipu1").getTargetType() == TargetType::IPU);
  CHECK(Target::createIPUTarget(2, 8, "ipu2").getNumTiles() == 16);
  CHECK(toString(TargetType::IPU_MODEL) == "IPU_MODEL");
}

TEST_CASE("Devices attach once and report ids", "[poplar][device]") {
  Device a = IPUModel().createDevice({}, false, 7);
  CHECK(a.getId() == 7);
  CHECK_FALSE(a.isAttached());
  CHECK(a.attach());
  CHECK(a.isAttached());
  CHECK_FALSE(a.attach()); // already attached
  a.detach();
  CHECK(a.attach());
  Device cpu = Device::createCPUDevice();
  CHECK(cpu.getTarget().getNumTiles() == 1);
  Device moved = std::move(cpu);
  CHECK(moved.getTarget().getTargetType() == TargetType::CPU);
  CHECK_THROWS_AS(cpu.getTarget(), poplar_error); // NOLINT: use after move
  Device small = IPUModel().createDevice().createVirtualDevice(8);
  CHECK(small.getTarget().getTilesPerIPU() == 8);
}

TEST_CASE("A host without IPUs enumerates none", "[poplar][device]") {
  DeviceManager manager = DeviceManager::createDeviceManager();
  CHECK(manager.getNumDevices() == 0);
  CHECK(manager.getDevices().empty());
  CHECK(manager.getDevices(TargetType::IPU, 1).empty());
  CHECK_THROWS_WITH(manager.getDevice(0), Contains("No device with ID 0"));
}
