#include "PopartTestDevice.hpp"

#include <popart/error.hpp>

#include <cstdlib>
#include <string>

namespace popart_test {

std::shared_ptr<popart::DeviceInfo> createTestDevice() {
  const char *env = std::getenv("SDK_TEST_DEVICE");
  std::string name = env ? env : "IpuModel2";
  auto &manager = popart::DeviceManager::createDeviceManager();
  if (name == "Cpu")
    return manager.createCpuDevice();
  if (name == "IpuModel1" || name == "IpuModel2" || name == "IpuModel")
    return manager.createIpuModelDevice(
        {{"tilesPerIPU", "4"}, {"ipuVersion", name == "IpuModel1" ? "ipu1" : "ipu2"}});
  throw popart::error("SDK_TEST_DEVICE: unknown device '{}'", name);
}

} // namespace popart_test
