#include "target/DeviceImpl.hpp"
#include "target/TargetBuilder.hpp"

#include <poplar/exceptions.hpp>

#include <limits>

namespace poplar {

IPUModel::IPUModel(const char *version) : IPUVersion(version ? version : "") {
  const Target t =
      TargetBuilder::ipuArchitecture(IPUVersion, TargetType::IPU_MODEL);
  numIPUs = 1;
  tilesPerSuperTile = t.getTilesPerSuperTile();
  tilesPerIPU = t.getTilesPerIPU();
  numWorkerContexts = t.getNumWorkerContexts();
  memoryBytesPerTile = static_cast<unsigned>(t.getBytesPerTile());
  tileClockFrequency = t.getTileClockFrequency();
  exchangeBytesPerCycle = t.getExchangeBytesPerCycle();
  memcpyBytesPerCycle = t.getMemcpyBytesPerCycle();
  instructionBytes = t.getInstructionBytes();
  supportsSuperTileSendReceive = t.getSupportsSuperTileSendReceive();
  interleavedMemoryElementIndex = t.getInterleavedMemoryElementIndex();
  minIPUSyncDelay = t.getMinIPUSyncDelay();
  relativeSyncDelay = RelativeSyncDelayType::AUTO;
  globalSyncCycles = t.getGlobalSyncCycles();
  compileIPUCode = false;
}

Target IPUModel::createTarget(bool accurateHalf) const {
  return TargetBuilder::fromModel(*this, accurateHalf);
}

Device IPUModel::createDevice(OptionFlags opts, bool accurateHalf,
                              unsigned deviceManagerId) const {
  auto impl = std::make_unique<Device::Impl>();
  impl->target = createTarget(accurateHalf);
  impl->applyOptions(opts, "IPU Model device");
  impl->id = deviceManagerId == std::numeric_limits<unsigned>::max()
                 ? Device::Impl::allocateId()
                 : deviceManagerId;
  return Device(std::move(impl));
}

} // namespace poplar
