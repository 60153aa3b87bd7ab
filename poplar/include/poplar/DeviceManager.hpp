#ifndef POPLAR_DEVICEMANAGER_HPP
#define POPLAR_DEVICEMANAGER_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <vector>

namespace poplar {

/// Finds the IPU devices attached to the host. A host without IPUs (as
/// every host this SDK runs on) has none: the lists are empty and
/// getDevice throws. The IPU Model and CPU devices come from IPUModel and
/// Device::createCPUDevice instead.
///
/// With the environment variable POPLAR_IPU_MODEL_AS_HARDWARE set to "ipu1"
/// or "ipu2", the manager lists four single-IPU IPU Models of that version
/// (ids 0 to 3) where it would list IPUs, so that programs written for
/// hardware run unchanged: each is attached by one user at a time, across
/// threads and processes, and its target is the IPU Model's.
class POPLAR_API DeviceManager {
public:
  static DeviceManager createDeviceManager();

  std::size_t getNumDevices() const;
  std::vector<Device> getDevices(const OptionFlags &opts = {}) const;
  /// The devices of the given type made of exactly requiredNumIPUs IPUs.
  std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                 const OptionFlags &opts = {}) const;
  Device getDevice(unsigned deviceManagerId, const OptionFlags &opts = {}) const;
  std::vector<unsigned> getChildDeviceIds(unsigned parentId,
                                          unsigned numChildDeviceIpus = 1) const;

private:
  DeviceManager() = default;
};

} // namespace poplar

#endif // POPLAR_DEVICEMANAGER_HPP
