#ifndef POPLAR_IPUMODEL_HPP
#define POPLAR_IPUMODEL_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/poplar_export.hpp>

#include <limits>
#include <string>

namespace poplar {

/// The parameters of a simulated IPU. Construct it for an IPU version
/// ("ipu1": GC2, 1216 tiles of 256 KiB at 1.6 GHz; "ipu2": GC200, 1472 tiles
/// of 624 KiB at 1.33 GHz), change any field, then createDevice().
class POPLAR_API IPUModel {
public:
  enum class RelativeSyncDelayType { AUTO, NO_DELAY };

  explicit IPUModel(const char *IPUVersion = "ipu2");

  std::string IPUVersion;
  unsigned numIPUs;
  unsigned tilesPerSuperTile;
  unsigned tilesPerIPU;
  unsigned numWorkerContexts;
  unsigned memoryBytesPerTile;
  double tileClockFrequency;
  unsigned exchangeBytesPerCycle;
  unsigned memcpyBytesPerCycle;
  unsigned instructionBytes;
  bool supportsSuperTileSendReceive;
  unsigned interleavedMemoryElementIndex;
  /// Cycles before the tile nearest the sync controller leaves a sync.
  unsigned minIPUSyncDelay;
  RelativeSyncDelayType relativeSyncDelay;
  /// Cycles of a sync across IPUs.
  unsigned globalSyncCycles;
  /// Whether to also compile the codelets for the IPU (not needed to run).
  bool compileIPUCode;

  /// A new device with these parameters. deviceManagerId gives the id the
  /// device reports; by default each device gets the next free id.
  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId =
                          std::numeric_limits<unsigned>::max()) const;

  /// The target these parameters describe.
  Target createTarget(bool accurateHalf = false) const;
};

} // namespace poplar

#endif // POPLAR_IPUMODEL_HPP
