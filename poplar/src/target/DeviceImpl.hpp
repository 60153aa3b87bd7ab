#ifndef POPLAR_SRC_TARGET_DEVICEIMPL_HPP
#define POPLAR_SRC_TARGET_DEVICEIMPL_HPP

#include <poplar/Device.hpp>

#include <atomic>
#include <memory>

namespace poplar {

class DeviceLock;

struct Device::Impl {
  Target target;
  unsigned id = 0;
  /// Shared by virtual devices of the same device: they are the same IPUs.
  std::shared_ptr<std::atomic<bool>> attached =
      std::make_shared<std::atomic<bool>>(false);
  /// For an IPU Model standing in for hardware (target/ModelAsHardware.hpp):
  /// the claim attach() takes, so that the device is attached by one user
  /// at a time across processes.
  std::shared_ptr<DeviceLock> lock;
  /// The next id for a device made without one.
  static unsigned allocateId();
};

} // namespace poplar

#endif // POPLAR_SRC_TARGET_DEVICEIMPL_HPP
