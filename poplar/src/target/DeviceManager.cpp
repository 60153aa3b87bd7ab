#include <poplar/DeviceManager.hpp>
#include <poplar/exceptions.hpp>

#include "core/Logging.hpp"
#include "target/ModelAsHardware.hpp"

namespace poplar {

// No IPU hardware is reachable from this SDK: without
// POPLAR_IPU_MODEL_AS_HARDWARE the manager enumerates none, and answers as
// the original does on a host without IPUs. With it, it lists
// model_as_hardware::numDevices single-IPU IPU Models, with ids from 0.

namespace {

std::string noDevice(unsigned id) {
  return "No device with ID " + std::to_string(id) +
         ": this host has no IPU devices (0 enumerated; set "
         "POPLAR_IPU_MODEL_AS_HARDWARE=ipu2 to run on IPU Models instead)";
}

void checkSimulatedId(unsigned id) {
  if (id >= model_as_hardware::numDevices)
    throw poplar_error(
        "No device with ID " + std::to_string(id) + ": " +
        std::to_string(model_as_hardware::numDevices) +
        " IPU Model devices are enumerated (POPLAR_IPU_MODEL_AS_HARDWARE), "
        "with IDs 0 to " + std::to_string(model_as_hardware::numDevices - 1));
}

} // namespace

DeviceManager DeviceManager::createDeviceManager() {
  const auto version = model_as_hardware::version();
  if (version)
    logging::debug(logging::Module::Device,
                   "Enumerated {} IPU Model devices ({}) in place of IPU "
                   "hardware (POPLAR_IPU_MODEL_AS_HARDWARE)",
                   model_as_hardware::numDevices, *version);
  else
    logging::debug(logging::Module::Device, "Enumerated 0 IPU devices");
  return DeviceManager();
}

std::size_t DeviceManager::getNumDevices() const {
  return model_as_hardware::version() ? model_as_hardware::numDevices : 0;
}

std::vector<Device> DeviceManager::getDevices(const OptionFlags &opts) const {
  std::vector<Device> devices;
  if (const auto version = model_as_hardware::version())
    for (unsigned id = 0; id != model_as_hardware::numDevices; ++id)
      devices.push_back(model_as_hardware::makeDevice(*version, id, opts));
  return devices;
}

std::vector<Device> DeviceManager::getDevices(TargetType type,
                                              unsigned requiredNumIPUs,
                                              const OptionFlags &opts) const {
  if (requiredNumIPUs == 0)
    throw poplar_error("getDevices: requiredNumIPUs must be at least 1");
  const auto version = model_as_hardware::version();
  if (type != TargetType::IPU || !version)
    return {};
  if (requiredNumIPUs != 1)
    throw poplar_error(
        "getDevices(TargetType::IPU, " + std::to_string(requiredNumIPUs) +
        "): POPLAR_IPU_MODEL_AS_HARDWARE=" + *version +
        " stands in for single IPUs only; IPU Models of " +
        std::to_string(requiredNumIPUs) + " IPUs are not available");
  return getDevices(opts);
}

Device DeviceManager::getDevice(unsigned deviceManagerId,
                                const OptionFlags &opts) const {
  const auto version = model_as_hardware::version();
  if (!version)
    throw poplar_error(noDevice(deviceManagerId));
  checkSimulatedId(deviceManagerId);
  return model_as_hardware::makeDevice(*version, deviceManagerId, opts);
}

std::vector<unsigned>
DeviceManager::getChildDeviceIds(unsigned parentId,
                                 unsigned numChildDeviceIpus) const {
  if (!model_as_hardware::version())
    throw poplar_error(noDevice(parentId));
  checkSimulatedId(parentId);
  if (numChildDeviceIpus != 1)
    throw poplar_error("getChildDeviceIds(" + std::to_string(parentId) + ", " +
                       std::to_string(numChildDeviceIpus) +
                       "): the IPU Model devices of "
                       "POPLAR_IPU_MODEL_AS_HARDWARE are single IPUs");
  return {parentId};
}

} // namespace poplar
