// The devices of this SDK: the CPU and the IPU Model, made through poplar.
// No hardware IPU exists, so enumeration finds none and acquiring one
// fails as the original does when every IPU is taken; with
// POPLAR_IPU_MODEL_AS_HARDWARE set, the IPU Models poplar's DeviceManager
// lists in place of IPUs are enumerated and acquired as IPUs.
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <poplar/Device.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

#include <algorithm>
#include <mutex>
#include <random>
#include <sstream>

namespace popart {
namespace {

/// A DeviceInfo over a poplar device: the target's figures.
class PoplarDeviceInfo : public DeviceInfo {
public:
  PoplarDeviceInfo(DeviceType type, DeviceConnectionType connection,
                   poplar::Device device)
      : DeviceInfo(type, connection), device(std::move(device)) {}

  int getNumIpus() const override {
    return static_cast<int>(device.getTarget().getNumIPUs());
  }
  int getTilesPerIPU() const override {
    return static_cast<int>(device.getTarget().getTilesPerIPU());
  }
  int getNumWorkerContexts() const override {
    return static_cast<int>(device.getTarget().getNumWorkerContexts());
  }
  const poplar::Target &getTarget() const override { return device.getTarget(); }
  const poplar::Device &getDevice() const override { return device; }

protected:
  poplar::Device device;
};

class HostDeviceInfo : public PoplarDeviceInfo {
public:
  HostDeviceInfo(DeviceType type, poplar::Device device, std::string ipuVersion)
      : PoplarDeviceInfo(type, DeviceConnectionType::Always, std::move(device)),
        ipuVersion(std::move(ipuVersion)) {}

  bool attach() override { return attached = device.attach(); }
  void detach() override {
    device.detach();
    attached = false;
  }
  bool isAttached() const override { return attached; }
  int getId() const override { return 0; }
  std::string getVersion() const override { return ipuVersion; }
  std::string getIpuVersion() const override { return ipuVersion; }

private:
  std::string ipuVersion;
  bool attached = false;
};

/// An IPU Model poplar lists in place of an IPU: attached like hardware
/// (one user at a time, across processes), at once (connection type
/// Always), when an engine is first loaded onto it (OnDemand), or never.
class SimulatedIpuInfo : public PoplarDeviceInfo {
public:
  SimulatedIpuInfo(poplar::Device device, DeviceConnectionType connection)
      : PoplarDeviceInfo(DeviceType::Ipu, connection, std::move(device)) {}
  ~SimulatedIpuInfo() override { detach(); }

  bool attach() override {
    std::lock_guard<std::mutex> guard(mutex);
    if (getConnectionType() == DeviceConnectionType::Never)
      return false;
    return device.isAttached() || device.attach();
  }
  void detach() override {
    std::lock_guard<std::mutex> guard(mutex);
    device.detach();
  }
  bool isAttached() const override { return device.isAttached(); }
  int getId() const override { return static_cast<int>(device.getId()); }
  std::string getVersion() const override {
    return device.getTarget().getTargetArchString();
  }
  std::string getIpuVersion() const override { return getVersion(); }
  const poplar::Device &getDevice() const override {
    if (!device.isAttached()) {
      if (getConnectionType() == DeviceConnectionType::Never)
        throw error("IPU device {} has connection type Never: it cannot be "
                    "attached to run a program",
                    getId());
      if (getConnectionType() == DeviceConnectionType::OnDemand &&
          !const_cast<SimulatedIpuInfo *>(this)->attach())
        throw error("IPU device {} (connection type OnDemand) could not be "
                    "attached: another user has it",
                    getId());
    }
    return device;
  }

private:
  std::mutex mutex;
};

/// The IPU Models standing in for IPUs of numIpus IPUs and tilesPerIPU
/// tiles (0: all), as poplar lists them; none without the switch.
std::vector<poplar::Device> simulatedIpus(int numIpus, int tilesPerIPU,
                                          const poplar::OptionFlags &flags) {
  if (numIpus <= 0)
    throw error("Cannot acquire a device with {} IPUs", numIpus);
  if (tilesPerIPU < 0)
    throw error("Cannot acquire a device with {} tiles per IPU", tilesPerIPU);
  std::vector<poplar::Device> devices;
  try {
    devices = poplar::DeviceManager::createDeviceManager().getDevices(
        poplar::TargetType::IPU, static_cast<unsigned>(numIpus), flags);
  } catch (const poplar::poplar_error &e) {
    throw error("Cannot enumerate devices of {} IPUs: {}", numIpus, e.what());
  }
  if (tilesPerIPU == 0)
    return devices;
  std::vector<poplar::Device> virtualDevices;
  for (auto &d : devices) {
    if (static_cast<unsigned>(tilesPerIPU) > d.getTarget().getTilesPerIPU())
      throw error("Cannot acquire a device with {} tiles per IPU: the IPUs "
                  "have {}",
                  tilesPerIPU, d.getTarget().getTilesPerIPU());
    virtualDevices.push_back(
        d.createVirtualDevice(static_cast<unsigned>(tilesPerIPU)));
  }
  return virtualDevices;
}

/// The device, acquired (attached unless the connection type says
/// otherwise), or nullptr when another user has it.
std::shared_ptr<DeviceInfo> acquire(poplar::Device device,
                                    DeviceConnectionType connection) {
  auto info = std::make_shared<SimulatedIpuInfo>(std::move(device), connection);
  if (connection == DeviceConnectionType::Always) {
    if (!info->attach())
      return nullptr;
  } else if (connection == DeviceConnectionType::OnDemand) {
    // Available now: attached when an engine is first loaded onto it.
    if (!info->attach())
      return nullptr;
    info->detach();
  }
  logging::devicex::debug("Acquired {} (an IPU Model standing in for an IPU)",
                          info->toString());
  return info;
}

unsigned parseUnsigned(const std::string &key, const std::string &value) {
  try {
    std::size_t used = 0;
    long v = std::stol(value, &used);
    if (used != value.size() || v <= 0)
      throw std::invalid_argument(value);
    return static_cast<unsigned>(v);
  } catch (const std::exception &) {
    throw error("createIpuModelDevice: option {} must be a positive integer, "
                "not '{}'",
                key, value);
  }
}

} // namespace

DeviceInfo::DeviceInfo(DeviceType type_, DeviceConnectionType connection)
    : type(type_), connectionType(connection) {}
DeviceInfo::~DeviceInfo() = default;

std::string DeviceInfo::toString() const {
  std::ostringstream out;
  out << "Device Type:" << type << " Connection Type:"
      << (connectionType == DeviceConnectionType::Always     ? "Always"
          : connectionType == DeviceConnectionType::OnDemand ? "OnDemand"
                                                             : "Never")
      << " Id:" << getId() << " Version:" << getVersion()
      << " NumIPUs:" << getNumIpus() << " NumTilesPerIPU:" << getTilesPerIPU();
  return out.str();
}

std::ostream &operator<<(std::ostream &os, const DeviceType &dt) {
  switch (dt) {
  case DeviceType::IpuModel:
    return os << "ipu-model";
  case DeviceType::Cpu:
    return os << "cpu";
  case DeviceType::Ipu:
    return os << "ipu";
  case DeviceType::OfflineIpu:
    return os << "offline-ipu";
  case DeviceType::Sim:
    return os << "sim";
  }
  return os;
}

std::ostream &operator<<(std::ostream &os, const DeviceInfo &di) {
  return os << di.toString();
}

SyncPattern syncPatternFromString(const std::string &str) {
  if (str == "full")
    return SyncPattern::Full;
  if (str == "singlePipeline")
    return SyncPattern::SinglePipeline;
  if (str == "replicaAndLadder")
    return SyncPattern::ReplicaAndLadder;
  throw error("Unknown syncPattern setting: {}", str);
}

std::string syncPatternToString(const SyncPattern &pattern) {
  switch (pattern) {
  case SyncPattern::Full:
    return "full";
  case SyncPattern::SinglePipeline:
    return "singlePipeline";
  case SyncPattern::ReplicaAndLadder:
    return "replicaAndLadder";
  }
  return "full";
}

DeviceManager &DeviceManager::createDeviceManager() {
  static DeviceManager instance;
  return instance;
}

// The sync pattern sets which IPUs of a device sync together, given to
// poplar as the device's "syncConfiguration" (as the original does): the
// IPU Model costs a host exchange with the IPUs of that sync group
// (poplar/src/model/README.md).
namespace {
poplar::OptionFlags syncFlags(SyncPattern pattern) {
  poplar::OptionFlags flags;
  switch (pattern) {
  case SyncPattern::Full:
    break;
  case SyncPattern::SinglePipeline:
    flags.set("syncConfiguration", "ipuAndAll");
    break;
  case SyncPattern::ReplicaAndLadder:
    flags.set("syncConfiguration", "intraReplicaAndLadder");
    break;
  default:
    throw error("Unknown SyncPattern {}", static_cast<int>(pattern));
  }
  return flags;
}
} // namespace

std::vector<std::shared_ptr<DeviceInfo>>
DeviceManager::enumerateDevices(SyncPattern pattern, int numIpus,
                                DeviceType type,
                                DeviceConnectionType connectionType,
                                int tilesPerIPU) {
  std::vector<std::shared_ptr<DeviceInfo>> infos;
  if (type == DeviceType::Ipu)
    for (auto &d : simulatedIpus(numIpus, tilesPerIPU, syncFlags(pattern)))
      infos.push_back(
          std::make_shared<SimulatedIpuInfo>(std::move(d), connectionType));
  logging::devicex::debug("enumerateDevices: {} {} devices with {} IPUs{}",
                          infos.size(),
                          type == DeviceType::Ipu ? "IPU" : "hardware", numIpus,
                          infos.empty() ? " (no IPU hardware is attached)"
                                        : " (IPU Models standing in for IPUs)");
  return infos;
}

std::shared_ptr<DeviceInfo>
DeviceManager::getDevice(SyncPattern pattern, uint32_t deviceManagerId,
                         DeviceConnectionType connectionType) {
  poplar::Device device;
  try {
    device = poplar::DeviceManager::createDeviceManager().getDevice(
        deviceManagerId, syncFlags(pattern));
  } catch (const poplar::poplar_error &e) {
    throw error("No IPU device with id {}: {}", deviceManagerId, e.what());
  }
  return std::make_shared<SimulatedIpuInfo>(std::move(device), connectionType);
}

std::shared_ptr<DeviceInfo> DeviceManager::tryAcquireAvailableDevice(
    int numIpus, int tilesPerIPU, SyncPattern pattern,
    DeviceConnectionType connection, DeviceSelectionCriterion criterion) {
  auto devices = simulatedIpus(numIpus, tilesPerIPU, syncFlags(pattern));
  if (criterion == DeviceSelectionCriterion::Random)
    std::shuffle(devices.begin(), devices.end(),
                 std::mt19937(std::random_device{}()));
  for (auto &d : devices)
    if (auto info = acquire(std::move(d), connection))
      return info;
  return nullptr;
}

std::shared_ptr<DeviceInfo> DeviceManager::acquireAvailableDevice(
    int numIpus, int tilesPerIPU, SyncPattern pattern,
    DeviceConnectionType connectionType, DeviceSelectionCriterion criterion) {
  auto device = tryAcquireAvailableDevice(numIpus, tilesPerIPU, pattern,
                                          connectionType, criterion);
  if (!device)
    throw error("Failed to acquire device with {} IPUs{}: {}", numIpus,
                tilesPerIPU ? " and " + std::to_string(tilesPerIPU) + " tiles"
                            : std::string(),
                poplar::DeviceManager::createDeviceManager().getNumDevices()
                    ? "every IPU is attached to another user"
                    : "no IPU hardware is available (use createIpuModelDevice "
                      "or createCpuDevice)");
  return device;
}

std::shared_ptr<DeviceInfo>
DeviceManager::tryAcquireDeviceById(int id, SyncPattern pattern,
                                    DeviceConnectionType connection) {
  if (id < 0)
    throw error("Cannot acquire a device with id {}", id);
  poplar::DeviceManager manager = poplar::DeviceManager::createDeviceManager();
  if (static_cast<std::size_t>(id) >= manager.getNumDevices())
    return nullptr;
  return acquire(manager.getDevice(static_cast<unsigned>(id), syncFlags(pattern)),
                 connection);
}

std::shared_ptr<DeviceInfo>
DeviceManager::acquireDeviceById(int id, SyncPattern pattern,
                                 DeviceConnectionType connectionType) {
  auto device = tryAcquireDeviceById(id, pattern, connectionType);
  if (!device)
    throw error("Failed to acquire device with id '{}': {}", id,
                poplar::DeviceManager::createDeviceManager().getNumDevices()
                    ? "it is attached to another user"
                    : "no IPU hardware is available");
  return device;
}

std::shared_ptr<DeviceInfo> DeviceManager::createCpuDevice() {
  auto d = std::make_shared<HostDeviceInfo>(
      DeviceType::Cpu, poplar::Device::createCPUDevice(), "cpu");
  d->attach();
  return d;
}

std::shared_ptr<DeviceInfo>
DeviceManager::createIpuModelDevice(std::map<std::string, std::string> &options) {
  const std::map<std::string, std::string> &constOptions = options;
  return createIpuModelDevice(constOptions);
}

std::shared_ptr<DeviceInfo> DeviceManager::createIpuModelDevice(
    const std::map<std::string, std::string> &options) {
  std::string version = "ipu2";
  auto it = options.find("ipuVersion");
  if (it != options.end())
    version = it->second;
  if (version != "ipu1" && version != "ipu2")
    throw error("createIpuModelDevice: ipuVersion '{}' is not ipu1 or ipu2",
                version);
  poplar::IPUModel model(version.c_str());
  SyncPattern pattern = SyncPattern::Full;
  for (const auto &o : options) {
    if (o.first == "numIPUs")
      model.numIPUs = parseUnsigned(o.first, o.second);
    else if (o.first == "tilesPerIPU")
      model.tilesPerIPU = parseUnsigned(o.first, o.second);
    else if (o.first == "compileIPUCode")
      model.compileIPUCode = o.second == "true" || o.second == "1";
    else if (o.first == "syncPattern")
      pattern = syncPatternFromString(o.second);
    else if (o.first != "ipuVersion")
      throw error("Unknown IPU Model option: '{}' (options are numIPUs, "
                  "tilesPerIPU, compileIPUCode, ipuVersion and syncPattern)",
                  o.first);
  }
  auto d = std::make_shared<HostDeviceInfo>(
      DeviceType::IpuModel, model.createDevice(syncFlags(pattern)), version);
  d->setOptionFlags(options);
  d->attach();
  logging::devicex::debug("Created {}", d->toString());
  return d;
}

std::shared_ptr<DeviceInfo>
DeviceManager::createHostDevice(DeviceType type,
                                const std::map<std::string, std::string> &options,
                                SyncPattern pattern) {
  if (type == DeviceType::Cpu)
    return createCpuDevice();
  if (type == DeviceType::IpuModel) {
    auto it = options.find("syncPattern");
    if (pattern == SyncPattern::Full || it != options.end()) {
      if (it != options.end() && pattern != SyncPattern::Full &&
          syncPatternFromString(it->second) != pattern)
        throw error("createHostDevice: the options' syncPattern '{}' is not "
                    "the SyncPattern given ({})",
                    it->second, syncPatternToString(pattern));
      return createIpuModelDevice(options);
    }
    auto withPattern = options;
    withPattern["syncPattern"] = syncPatternToString(pattern);
    return createIpuModelDevice(withPattern);
  }
  throw error("createHostDevice: device type {} is not a host device",
              [&] {
                std::ostringstream o;
                o << type;
                return o.str();
              }());
}

} // namespace popart
