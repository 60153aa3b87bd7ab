// The device a multi-target test runs on, chosen by SDK_TEST_DEVICE
// (Cpu, IpuModel1 or IpuModel2; IpuModel2 when unset).
#ifndef SDK_TESTS_SUPPORT_TESTDEVICE_HPP
#define SDK_TESTS_SUPPORT_TESTDEVICE_HPP

#include <poplar/Device.hpp>

#include <string>

namespace sdktest {

enum class DeviceType { Cpu, IpuModel1, IpuModel2 };

DeviceType deviceTypeFromEnvironment();
std::string toString(DeviceType type);

/// A device of the type under test; IPU Models get tilesPerIPU tiles.
poplar::Device createTestDevice(DeviceType type, unsigned numIPUs = 1,
                                unsigned tilesPerIPU = 4);
inline poplar::Device createTestDevice(unsigned tilesPerIPU = 4) {
  return createTestDevice(deviceTypeFromEnvironment(), 1, tilesPerIPU);
}

} // namespace sdktest

#endif
