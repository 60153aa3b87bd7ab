// Devices a session runs on: the CPU and the IPU Model. There is no IPU
// hardware, so enumerating or acquiring hardware IPUs finds none, unless
// POPLAR_IPU_MODEL_AS_HARDWARE is set: then they find the IPU Models
// poplar::DeviceManager lists in place of IPUs (single IPUs, ids 0 to 3).
#ifndef POPART_DEVICEMANAGER_HPP
#define POPART_DEVICEMANAGER_HPP

#include <popart/popart_export.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace poplar {
class Device;
class Target;
} // namespace poplar

namespace popart {

enum class DeviceType { IpuModel = 0, Cpu, Ipu, OfflineIpu, Sim };
enum class DeviceConnectionType { Always = 0, OnDemand, Never };
enum class SyncPattern { Full = 0, SinglePipeline, ReplicaAndLadder };
enum class DeviceSelectionCriterion { First = 0, Random };

POPART_API SyncPattern syncPatternFromString(const std::string &str);
POPART_API std::string syncPatternToString(const SyncPattern &pattern);

class POPART_API DeviceInfo {
public:
  DeviceInfo(DeviceType type, DeviceConnectionType connectionType);
  virtual ~DeviceInfo();

  virtual bool attach() = 0;
  virtual void detach() = 0;
  virtual bool isAttached() const = 0;
  virtual int getId() const = 0;
  virtual std::string getVersion() const = 0;
  virtual int getNumIpus() const = 0;
  virtual int getTilesPerIPU() const = 0;
  virtual int getNumWorkerContexts() const = 0;
  virtual std::string getIpuVersion() const = 0;
  virtual const poplar::Target &getTarget() const = 0;
  /// The poplar device an engine is loaded onto.
  virtual const poplar::Device &getDevice() const = 0;
  virtual bool canCompileOffline() const { return false; }
  virtual bool isHwCompatible() const { return false; }

  DeviceType getType() const { return type; }
  DeviceConnectionType getConnectionType() const { return connectionType; }
  std::string toString() const;
  const std::map<std::string, std::string> &getOptionFlags() const {
    return options;
  }
  void setOptionFlags(std::map<std::string, std::string> flags) {
    options = std::move(flags);
  }

private:
  DeviceType type;
  DeviceConnectionType connectionType;
  std::map<std::string, std::string> options;
};

POPART_API std::ostream &operator<<(std::ostream &os, const DeviceType &dt);
POPART_API std::ostream &operator<<(std::ostream &os, const DeviceInfo &di);

class POPART_API DeviceManager {
public:
  static DeviceManager &createDeviceManager();

  /// Hardware IPU devices: none on this machine (or the IPU Models of
  /// POPLAR_IPU_MODEL_AS_HARDWARE).
  std::vector<std::shared_ptr<DeviceInfo>>
  enumerateDevices(SyncPattern pattern = SyncPattern::Full, int numIpus = 1,
                   DeviceType deviceType = DeviceType::Ipu,
                   DeviceConnectionType connectionType =
                       DeviceConnectionType::Always,
                   int tilesPerIPU = 0);
  std::shared_ptr<DeviceInfo>
  getDevice(SyncPattern syncPattern = SyncPattern::Full,
            uint32_t deviceManagerId = 0,
            DeviceConnectionType connectionType = DeviceConnectionType::Always);

  /// popart::error when no IPU is available.
  std::shared_ptr<DeviceInfo> acquireAvailableDevice(
      int numIpus = 1, int tilesPerIPU = 0,
      SyncPattern pattern = SyncPattern::Full,
      DeviceConnectionType connectionType = DeviceConnectionType::Always,
      DeviceSelectionCriterion selectionCriterion =
          DeviceSelectionCriterion::First);
  /// nullptr when no IPU is available.
  std::shared_ptr<DeviceInfo> tryAcquireAvailableDevice(
      int numIpus = 1, int tilesPerIPU = 0,
      SyncPattern pattern = SyncPattern::Full,
      DeviceConnectionType connectionType = DeviceConnectionType::Always,
      DeviceSelectionCriterion selectionCriterion =
          DeviceSelectionCriterion::First);
  std::shared_ptr<DeviceInfo>
  acquireDeviceById(int id, SyncPattern pattern = SyncPattern::Full,
                    DeviceConnectionType connectionType =
                        DeviceConnectionType::Always);
  std::shared_ptr<DeviceInfo>
  tryAcquireDeviceById(int id, SyncPattern pattern = SyncPattern::Full,
                       DeviceConnectionType connectionType =
                           DeviceConnectionType::Always);

  /// DeviceType::Cpu or DeviceType::IpuModel with the options of
  /// createIpuModelDevice.
  std::shared_ptr<DeviceInfo>
  createHostDevice(DeviceType type,
                   const std::map<std::string, std::string> &options = {},
                   SyncPattern syncPattern = SyncPattern::Full);
  std::shared_ptr<DeviceInfo> createCpuDevice();
  /// Options: numIPUs (1), tilesPerIPU (the IPU's), compileIPUCode
  /// (false), ipuVersion ("ipu2"); any other key is a popart::error.
  std::shared_ptr<DeviceInfo>
  createIpuModelDevice(std::map<std::string, std::string> &options);
  std::shared_ptr<DeviceInfo>
  createIpuModelDevice(const std::map<std::string, std::string> &options = {});

  void setOnDemandAttachTimeout(const unsigned seconds) {
    attachTimeout = seconds;
  }
  unsigned getOnDemandAttachTimeout() const { return attachTimeout; }

private:
  DeviceManager() = default;
  unsigned attachTimeout = 0;
};

} // namespace popart

#endif
