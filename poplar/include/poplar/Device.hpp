#ifndef POPLAR_DEVICE_HPP
#define POPLAR_DEVICE_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/poplar_export.hpp>

#include <memory>
#include <string>

namespace poplar {

/// A device programs run on: an IPU Model, the CPU, or (where attached) an
/// IPU. A Device is move-only: it stands for the device itself.
class POPLAR_API Device {
public:
  struct Impl;

  Device();
  explicit Device(std::unique_ptr<Impl> impl);
  Device(Device &&) noexcept;
  Device &operator=(Device &&) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

  /// A CPU device: the host runs programs as one tile of one IPU.
  static Device createCPUDevice(unsigned numIPUs = 1);

  /// The id the DeviceManager knows the device by.
  unsigned getId() const;
  const Target &getTarget() const;
  /// Takes the device for this process. Returns false if it is already
  /// attached (here or elsewhere).
  bool attach() const;
  bool isAttached() const;
  void detach() const;
  bool supportsRemoteBuffers() const;
  /// A device with the same IPUs but only the first tilesPerIPU tiles.
  Device createVirtualDevice(unsigned tilesPerIPU);
  /// A named attribute ("type", "name", ...).
  std::string getAttribute(const std::string &name) const;

  const Impl &getImpl() const { return *impl; }

private:
  std::unique_ptr<Impl> impl;
};

} // namespace poplar

#endif // POPLAR_DEVICE_HPP
