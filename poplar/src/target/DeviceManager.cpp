#include <poplar/DeviceManager.hpp>
#include <poplar/exceptions.hpp>

#include "core/Logging.hpp"

namespace poplar {

// No IPU hardware is reachable from this SDK: the manager enumerates none,
// and answers as the original does on a host without IPUs.

DeviceManager DeviceManager::createDeviceManager() {
  logging::debug(logging::Module::Device, "Enumerated 0 IPU devices");
  return DeviceManager();
}

std::size_t DeviceManager::getNumDevices() const { return 0; }

std::vector<Device> DeviceManager::getDevices(const OptionFlags &) const {
  return {};
}

std::vector<Device> DeviceManager::getDevices(TargetType type,
                                              unsigned requiredNumIPUs,
                                              const OptionFlags &) const {
  if (requiredNumIPUs == 0)
    throw poplar_error("getDevices: requiredNumIPUs must be at least 1");
  return {};
}

Device DeviceManager::getDevice(unsigned deviceManagerId,
                                const OptionFlags &) const {
  throw poplar_error("No device with ID " + std::to_string(deviceManagerId) +
                     ": this host has no IPU devices (0 enumerated)");
}

std::vector<unsigned>
DeviceManager::getChildDeviceIds(unsigned parentId, unsigned) const {
  throw poplar_error("No device with ID " + std::to_string(parentId) +
                     ": this host has no IPU devices (0 enumerated)");
}

} // namespace poplar
