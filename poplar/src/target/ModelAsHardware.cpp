#include "target/ModelAsHardware.hpp"
#include "target/DeviceImpl.hpp"

#include "core/Logging.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace poplar {

bool DeviceLock::acquire() {
  std::lock_guard<std::mutex> guard(mutex);
  if (fd >= 0)
    return false; // this Device holds it already: attach() again fails
  const int f = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (f < 0)
    throw poplar_error("Cannot open the lock file '" + path +
                       "' of a simulated IPU device: " + std::strerror(errno));
  if (::flock(f, LOCK_EX | LOCK_NB) != 0) {
    ::close(f);
    return false;
  }
  fd = f;
  return true;
}

void DeviceLock::release() {
  std::lock_guard<std::mutex> guard(mutex);
  if (fd < 0)
    return;
  ::flock(fd, LOCK_UN);
  ::close(fd);
  fd = -1;
}

bool DeviceLock::held() const {
  std::lock_guard<std::mutex> guard(mutex);
  return fd >= 0;
}

namespace model_as_hardware {
namespace {

const char *const variable = "POPLAR_IPU_MODEL_AS_HARDWARE";

std::string lockDirectory() {
  const char *tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  dir += "/poplar-ipu-model-devices-" + std::to_string(::getuid());
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw poplar_error("Cannot create the directory '" + dir +
                       "' for the locks of simulated IPU devices (" +
                       variable + "): " + std::strerror(errno));
  return dir;
}

} // namespace

std::optional<std::string> version() {
  const char *value = std::getenv(variable);
  if (!value || !*value)
    return std::nullopt;
  const std::string v = value;
  if (v != "ipu1" && v != "ipu2")
    throw poplar_error(std::string(variable) + "='" + v +
                       "' is not an IPU version: use ipu1 or ipu2 (or unset "
                       "it to find IPU hardware only)");
  return v;
}

Device makeDevice(const std::string &version, unsigned id,
                  const OptionFlags &opts) {
  IPUModel model(version.c_str());
  Device device = model.createDevice(opts, false, id);
  auto &impl = const_cast<Device::Impl &>(device.getImpl());
  impl.lock = std::make_shared<DeviceLock>(lockDirectory() + "/" + version +
                                           "-" + std::to_string(id) + ".lock");
  return device;
}

} // namespace model_as_hardware
} // namespace poplar
