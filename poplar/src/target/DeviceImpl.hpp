#ifndef POPLAR_SRC_TARGET_DEVICEIMPL_HPP
#define POPLAR_SRC_TARGET_DEVICEIMPL_HPP

#include <poplar/Device.hpp>

#include <atomic>
#include <memory>

namespace poplar {

struct Device::Impl {
  Target target;
  unsigned id = 0;
  /// Shared by virtual devices of the same device: they are the same IPUs.
  std::shared_ptr<std::atomic<bool>> attached =
      std::make_shared<std::atomic<bool>>(false);
  /// The next id for a device made without one.
  static unsigned allocateId();
};

} // namespace poplar

#endif // POPLAR_SRC_TARGET_DEVICEIMPL_HPP
