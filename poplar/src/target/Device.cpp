#include "target/DeviceImpl.hpp"
#include "target/ModelAsHardware.hpp"

#include <poplar/exceptions.hpp>

namespace poplar {

unsigned Device::Impl::allocateId() {
  static std::atomic<unsigned> next{0};
  return next++;
}

Device::Device() = default;
Device::Device(std::unique_ptr<Impl> i) : impl(std::move(i)) {}
Device::Device(Device &&) noexcept = default;
Device &Device::operator=(Device &&) noexcept = default;
Device::~Device() = default;

Device Device::createCPUDevice(unsigned numIPUs) {
  auto impl = std::make_unique<Impl>();
  impl->target = Target::createCPUTarget(false, numIPUs);
  impl->id = Impl::allocateId();
  return Device(std::move(impl));
}

namespace {
const Device::Impl &checked(const std::unique_ptr<Device::Impl> &impl) {
  if (!impl)
    throw poplar_error("Use of an empty poplar::Device (default-constructed or "
                       "moved from)");
  return *impl;
}
} // namespace

unsigned Device::getId() const { return checked(impl).id; }
const Target &Device::getTarget() const { return checked(impl).target; }

bool Device::attach() const {
  const Impl &self = checked(impl);
  if (self.lock) {
    if (!self.lock->acquire())
      return false;
    self.attached->store(true);
    return true;
  }
  bool expected = false;
  return self.attached->compare_exchange_strong(expected, true);
}

bool Device::isAttached() const { return checked(impl).attached->load(); }

void Device::detach() const {
  const Impl &self = checked(impl);
  if (self.lock)
    self.lock->release();
  self.attached->store(false);
}

bool Device::supportsRemoteBuffers() const {
  return checked(impl).target.getTargetType() != TargetType::CPU;
}

void Device::Impl::applyOptions(const OptionFlags &opts,
                                const std::string &what) {
  for (const auto &[key, value] : opts) {
    if (key != "syncConfiguration")
      throw invalid_option("Unrecognised " + what + " option '" + key + "'");
    if (value != "default" && value != "ipuAndAll" &&
        value != "intraReplicaAndLadder")
      throw invalid_option(what + " option syncConfiguration: '" + value +
                           "' is not one of default, ipuAndAll, "
                           "intraReplicaAndLadder");
    syncConfiguration = value;
  }
}

Device Device::createVirtualDevice(unsigned tilesPerIPU) {
  const Impl &self = checked(impl);
  auto v = std::make_unique<Impl>(self);
  v->target = self.target.createVirtualTarget(self.target.getNumIPUs(),
                                              tilesPerIPU);
  return Device(std::move(v));
}

std::string Device::getAttribute(const std::string &name) const {
  const Impl &self = checked(impl);
  if (name == "type")
    return toString(self.target.getTargetType());
  if (name == "name" || name == "arch")
    return self.target.getTargetArchString();
  if (name == "id")
    return std::to_string(self.id);
  if (name == "numIPUs")
    return std::to_string(self.target.getNumIPUs());
  throw poplar_error("Device has no attribute '" + name + "'");
}

} // namespace poplar
