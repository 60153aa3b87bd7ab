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
