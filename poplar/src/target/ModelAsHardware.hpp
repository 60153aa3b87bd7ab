// IPU Models that stand in for IPU hardware: with the environment variable
// POPLAR_IPU_MODEL_AS_HARDWARE set to an IPU version ("ipu1" or "ipu2"),
// the DeviceManager lists IPU Model devices where the original lists the
// IPUs attached to the host, so that programs written for hardware run
// unchanged on the simulator. Their targets are the IPU Model's, so every
// report says the program ran on the IPU Model.
//
// Like hardware, such a device is attached by one user at a time: attach()
// takes an exclusive lock on a file of its own (flock), so a second
// attach() of the same device id fails, from another Device object, another
// thread or another process on this machine, until the first detaches or
// ends. The lock files are in $TMPDIR (default /tmp), in a directory named
// after the user.
#ifndef POPLAR_SRC_TARGET_MODELASHARDWARE_HPP
#define POPLAR_SRC_TARGET_MODELASHARDWARE_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>

#include <mutex>
#include <optional>
#include <string>

namespace poplar {

/// The exclusive claim on one simulated IPU device.
class DeviceLock {
public:
  explicit DeviceLock(std::string path) : path(std::move(path)) {}
  DeviceLock(const DeviceLock &) = delete;
  DeviceLock &operator=(const DeviceLock &) = delete;
  ~DeviceLock() { release(); }

  /// Takes the lock; false if another holder has it.
  bool acquire();
  void release();
  bool held() const;

private:
  std::string path;
  mutable std::mutex mutex;
  int fd = -1;
};

namespace model_as_hardware {

/// The IPU version POPLAR_IPU_MODEL_AS_HARDWARE asks for, or nothing when
/// it is unset or empty; throws poplar_error naming the variable for a
/// value that is not an IPU version.
std::optional<std::string> version();

/// How many single-IPU devices the simulated system has.
constexpr unsigned numDevices = 4;

/// The simulated IPU device with the given id (< numDevices).
Device makeDevice(const std::string &version, unsigned id,
                  const OptionFlags &opts = {});

} // namespace model_as_hardware
} // namespace poplar

#endif // POPLAR_SRC_TARGET_MODELASHARDWARE_HPP
