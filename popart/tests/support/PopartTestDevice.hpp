// The device a popart session test runs on, chosen by SDK_TEST_DEVICE
// (Cpu, IpuModel1 or IpuModel2; IpuModel2 when unset).
#ifndef POPART_TESTS_POPARTTESTDEVICE_HPP
#define POPART_TESTS_POPARTTESTDEVICE_HPP

#include <popart/devicemanager.hpp>

#include <memory>

namespace popart_test {
std::shared_ptr<popart::DeviceInfo> createTestDevice();
} // namespace popart_test

#endif
