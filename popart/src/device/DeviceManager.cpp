// The devices of this SDK: the CPU and the IPU Model, made through poplar.
// No hardware IPU exists, so enumeration finds none and acquiring one
// fails as the original does when every IPU is taken.
#include <popart/devicemanager.hpp>
#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <poplar/Device.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

#include <sstream>

namespace popart {
namespace {

class HostDeviceInfo : public DeviceInfo {
public:
  HostDeviceInfo(DeviceType type, poplar::Device device, std::string ipuVersion)
      : DeviceInfo(type, DeviceConnectionType::Always),
        device(std::move(device)), ipuVersion(std::move(ipuVersion)) {}

  bool attach() override { return attached = device.attach(); }
  void detach() override {
    device.detach();
    attached = false;
  }
  bool isAttached() const override { return attached; }
  int getId() const override { return 0; }
  std::string getVersion() const override { return ipuVersion; }
  int getNumIpus() const override {
    return static_cast<int>(device.getTarget().getNumIPUs());
  }
  int getTilesPerIPU() const override {
    return static_cast<int>(device.getTarget().getTilesPerIPU());
  }
  int getNumWorkerContexts() const override {
    return static_cast<int>(device.getTarget().getNumWorkerContexts());
  }
  std::string getIpuVersion() const override { return ipuVersion; }
  const poplar::Target &getTarget() const override { return device.getTarget(); }
  const poplar::Device &getDevice() const override { return device; }

private:
  poplar::Device device;
  std::string ipuVersion;
  bool attached = false;
};

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

std::vector<std::shared_ptr<DeviceInfo>>
DeviceManager::enumerateDevices(SyncPattern, int numIpus, DeviceType type,
                                DeviceConnectionType, int) {
  logging::devicex::debug("enumerateDevices: no {} devices with {} IPUs "
                          "(no IPU hardware is attached)",
                          type == DeviceType::Ipu ? "IPU" : "hardware", numIpus);
  return {};
}

std::shared_ptr<DeviceInfo>
DeviceManager::getDevice(SyncPattern, uint32_t deviceManagerId,
                         DeviceConnectionType) {
  throw error("No IPU device with id {}: no IPU hardware is attached",
              deviceManagerId);
}

std::shared_ptr<DeviceInfo> DeviceManager::tryAcquireAvailableDevice(
    int numIpus, int tilesPerIPU, SyncPattern, DeviceConnectionType,
    DeviceSelectionCriterion) {
  if (numIpus <= 0)
    throw error("Cannot acquire a device with {} IPUs", numIpus);
  return nullptr;
}

std::shared_ptr<DeviceInfo> DeviceManager::acquireAvailableDevice(
    int numIpus, int tilesPerIPU, SyncPattern pattern,
    DeviceConnectionType connectionType, DeviceSelectionCriterion criterion) {
  auto device = tryAcquireAvailableDevice(numIpus, tilesPerIPU, pattern,
                                          connectionType, criterion);
  if (!device)
    throw error("Failed to acquire device with {} IPUs{}: no IPU hardware is "
                "available (use createIpuModelDevice or createCpuDevice)",
                numIpus,
                tilesPerIPU ? " and " + std::to_string(tilesPerIPU) + " tiles"
                            : std::string());
  return device;
}

std::shared_ptr<DeviceInfo>
DeviceManager::tryAcquireDeviceById(int id, SyncPattern, DeviceConnectionType) {
  if (id < 0)
    throw error("Cannot acquire a device with id {}", id);
  return nullptr;
}

std::shared_ptr<DeviceInfo>
DeviceManager::acquireDeviceById(int id, SyncPattern pattern,
                                 DeviceConnectionType connectionType) {
  auto device = tryAcquireDeviceById(id, pattern, connectionType);
  if (!device)
    throw error("Failed to acquire device with id '{}': no IPU hardware is "
                "available",
                id);
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
  for (const auto &o : options) {
    if (o.first == "numIPUs")
      model.numIPUs = parseUnsigned(o.first, o.second);
    else if (o.first == "tilesPerIPU")
      model.tilesPerIPU = parseUnsigned(o.first, o.second);
    else if (o.first == "compileIPUCode")
      model.compileIPUCode = o.second == "true" || o.second == "1";
    else if (o.first != "ipuVersion")
      throw error("Unknown IPU Model option: '{}' (options are numIPUs, "
                  "tilesPerIPU, compileIPUCode and ipuVersion)",
                  o.first);
  }
  auto d = std::make_shared<HostDeviceInfo>(DeviceType::IpuModel,
                                            model.createDevice(), version);
  d->setOptionFlags(options);
  d->attach();
  logging::devicex::debug("Created {}", d->toString());
  return d;
}

std::shared_ptr<DeviceInfo>
DeviceManager::createHostDevice(DeviceType type,
                                const std::map<std::string, std::string> &options,
                                SyncPattern) {
  if (type == DeviceType::Cpu)
    return createCpuDevice();
  if (type == DeviceType::IpuModel)
    return createIpuModelDevice(options);
  throw error("createHostDevice: device type {} is not a host device",
              [&] {
                std::ostringstream o;
                o << type;
                return o.str();
              }());
}

} // namespace popart
