#ifndef POPLAR_SRC_TARGET_DEVICEIMPL_HPP
#define POPLAR_SRC_TARGET_DEVICEIMPL_HPP

#include <poplar/Device.hpp>

#include <atomic>
#include <memory>
#include <string>

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
  /// The device option "syncConfiguration": which IPUs sync together when
  /// one of them exchanges with the host ("default": all of them;
  /// "ipuAndAll": each alone; "intraReplicaAndLadder": every second one).
  std::string syncConfiguration = "default";
  /// Takes the device options this SDK knows ("syncConfiguration");
  /// throws poplar::invalid_option naming `what` and the option otherwise.
  void applyOptions(const OptionFlags &opts, const std::string &what);
  /// The next id for a device made without one.
  static unsigned allocateId();
};

} // namespace poplar

#endif // POPLAR_SRC_TARGET_DEVICEIMPL_HPP
