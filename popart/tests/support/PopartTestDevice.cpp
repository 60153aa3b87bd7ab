#include "PopartTestDevice.hpp"

#include <TestDevice.hpp>

#include <map>
#include <string>

namespace popart_test {

std::shared_ptr<popart::DeviceInfo> createTestDevice() {
  return createTestDevice(1);
}

std::shared_ptr<popart::DeviceInfo> createTestDevice(unsigned numIpus) {
  auto &manager = popart::DeviceManager::createDeviceManager();
  const auto type = sdktest::deviceTypeFromEnvironment();
  if (type == sdktest::DeviceType::Cpu)
    return manager.createCpuDevice();
  std::map<std::string, std::string> options = {
      {"tilesPerIPU", "4"},
      {"ipuVersion", type == sdktest::DeviceType::IpuModel1 ? "ipu1" : "ipu2"}};
  if (numIpus != 1)
    options["numIPUs"] = std::to_string(numIpus);
  return manager.createIpuModelDevice(options);
}

bool testDeviceIsCpu() {
  return sdktest::deviceTypeFromEnvironment() == sdktest::DeviceType::Cpu;
}

} // namespace popart_test
