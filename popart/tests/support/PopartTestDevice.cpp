#include "PopartTestDevice.hpp"

#include <TestDevice.hpp>

namespace popart_test {

std::shared_ptr<popart::DeviceInfo> createTestDevice() {
  auto &manager = popart::DeviceManager::createDeviceManager();
  const auto type = sdktest::deviceTypeFromEnvironment();
  if (type == sdktest::DeviceType::Cpu)
    return manager.createCpuDevice();
  return manager.createIpuModelDevice(
      {{"tilesPerIPU", "4"},
       {"ipuVersion", type == sdktest::DeviceType::IpuModel1 ? "ipu1" : "ipu2"}});
}

} // namespace popart_test
