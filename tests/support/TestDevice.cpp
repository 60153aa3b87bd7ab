#include "TestDevice.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>

namespace sdktest {

DeviceType deviceTypeFromEnvironment() {
  const char *name = std::getenv("SDK_TEST_DEVICE");
  std::string s = name ? name : "IpuModel2";
  if (s == "Cpu")
    return DeviceType::Cpu;
  if (s == "IpuModel1")
    return DeviceType::IpuModel1;
  if (s == "IpuModel2" || s == "IpuModel")
    return DeviceType::IpuModel2;
  throw poplar::poplar_error("SDK_TEST_DEVICE: unknown device type '" + s + "'");
}

std::string toString(DeviceType type) {
  switch (type) {
  case DeviceType::Cpu:
    return "Cpu";
  case DeviceType::IpuModel1:
    return "IpuModel1";
  case DeviceType::IpuModel2:
    return "IpuModel2";
  }
  return "?";
}

poplar::Device createTestDevice(DeviceType type, unsigned numIPUs,
                                unsigned tilesPerIPU) {
  if (type == DeviceType::Cpu)
    return poplar::Device::createCPUDevice(numIPUs);
  poplar::IPUModel model(type == DeviceType::IpuModel1 ? "ipu1" : "ipu2");
  model.numIPUs = numIPUs;
  model.tilesPerIPU = tilesPerIPU;
  return model.createDevice();
}

} // namespace sdktest
