// The device a popart session test runs on, chosen by SDK_TEST_DEVICE
// (Cpu, IpuModel1 or IpuModel2; IpuModel2 when unset).
#ifndef POPART_TESTS_POPARTTESTDEVICE_HPP
#define POPART_TESTS_POPARTTESTDEVICE_HPP

#include <popart/devicemanager.hpp>

#include <memory>

namespace popart_test {
std::shared_ptr<popart::DeviceInfo> createTestDevice();
/// The device under test with `numIpus` IPUs (the CPU device has one host
/// for any number).
std::shared_ptr<popart::DeviceInfo> createTestDevice(unsigned numIpus);
/// Whether the device under test is the CPU device.
bool testDeviceIsCpu();
} // namespace popart_test

#endif
