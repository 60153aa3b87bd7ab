#ifndef POPLAR_TARGET_HPP
#define POPLAR_TARGET_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/Type.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace poplar {

/// A description of the hardware a graph is built for: how many IPUs and
/// tiles, how much memory, how fast. The IPU Model and CPU devices each have
/// one; Graph takes one.
class POPLAR_API Target {
public:
  /// A target that runs on the host as a single tile of one IPU.
  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
  /// A hardware IPU target by architecture name ("ipu1", "ipu2", "ipu21").
  static Target createIPUTarget(StringRef system, const OptionFlags &opts = {});
  static Target createIPUTarget(unsigned numIPUs, StringRef system,
                                const OptionFlags &opts = {});
  static Target createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU,
                                StringRef system, const OptionFlags &opts = {});

  Target();

  TargetType getTargetType() const { return targetType; }
  /// "ipu1", "ipu2", "ipu21" or "cpu".
  const std::string &getTargetArchString() const { return arch; }
  std::string getTargetSystemString() const;
  unsigned getNumIPUs() const { return numIPUs; }
  unsigned getTilesPerIPU() const { return tilesPerIPU; }
  unsigned getNumTiles() const { return numIPUs * tilesPerIPU; }
  unsigned getTilesPerSuperTile() const { return tilesPerSuperTile; }
  unsigned getNumWorkerContexts() const { return numWorkerContexts; }
  std::uint64_t getBytesPerTile() const { return bytesPerTile; }
  std::uint64_t getMemoryBytes() const { return bytesPerTile * getNumTiles(); }
  unsigned getExchangeBytesPerCycle() const { return exchangeBytesPerCycle; }
  unsigned getMemcpyBytesPerCycle() const { return memcpyBytesPerCycle; }
  /// Width in bits of the load/store path of a worker.
  unsigned getDataPathWidth() const { return dataPathWidth; }
  /// Elements of the type one vector instruction processes.
  unsigned getVectorWidth(const Type &type) const;
  unsigned getTypeSize(const Type &type) const;
  /// Smallest number of bytes a tile writes atomically.
  unsigned getAtomicStoreGranularity() const { return 4; }
  double getTileClockFrequency() const { return tileClockFrequency; }
  unsigned getRptCountMax() const { return 4095; }
  unsigned getInstructionBytes() const { return instructionBytes; }
  /// Multiply-accumulate units per tile for the given input and partials
  /// types (the AMP of a tile).
  unsigned getNumConvUnits(const Type &actType, const Type &partialType) const;
  unsigned getMinIPUSyncDelay() const { return minIPUSyncDelay; }
  unsigned getMaxIPUSyncDelay() const;
  unsigned getGlobalSyncCycles() const { return globalSyncCycles; }
  unsigned getInterleavedMemoryElementIndex() const {
    return interleavedMemoryElementIndex;
  }
  bool getSupportsSuperTileSendReceive() const {
    return supportsSuperTileSendReceive;
  }
  bool getRelativeSyncDelayIsZero() const { return noRelativeSyncDelay; }
  /// True for CPU targets made with accurateHalf: HALF arithmetic rounds
  /// as the IPU does.
  bool getAccurateHalf() const { return accurateHalf; }

  /// The target of one IPU's subset of tiles [0, tilesPerIPU).
  Target createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const;

  void serialize(std::ostream &out) const;
  static Target deserialize(std::istream &in);

  friend POPLAR_API bool operator==(const Target &a, const Target &b);
  friend bool operator!=(const Target &a, const Target &b) { return !(a == b); }

private:
  friend class IPUModel;
  friend struct TargetBuilder;

  TargetType targetType = TargetType::CPU;
  std::string arch = "cpu";
  unsigned numIPUs = 1;
  unsigned tilesPerIPU = 1;
  unsigned tilesPerSuperTile = 1;
  unsigned numWorkerContexts = 6;
  std::uint64_t bytesPerTile = 0;
  unsigned exchangeBytesPerCycle = 4;
  unsigned memcpyBytesPerCycle = 8;
  unsigned dataPathWidth = 64;
  double tileClockFrequency = 1.33e9;
  unsigned instructionBytes = 4;
  unsigned ampUnitsFloat = 16;
  unsigned ampUnitsHalf = 64;
  unsigned minIPUSyncDelay = 0;
  bool noRelativeSyncDelay = false;
  unsigned globalSyncCycles = 0;
  unsigned interleavedMemoryElementIndex = 0;
  bool supportsSuperTileSendReceive = false;
  bool accurateHalf = false;
  bool compileIPUCode = false; // IPU Model: count code in the memory profile
};

/// Converts host floats to device halves (IEEE binary16, round to nearest
/// even; overflow gives infinity) and back.
POPLAR_API void copyFloatToDeviceHalf(const Target &target, const float *src,
                                      void *dst, std::size_t numElements);
POPLAR_API void copyDeviceHalfToFloat(const Target &target, const void *src,
                                      float *dst, std::size_t numElements);
POPLAR_API void copyDoubleToDeviceHalf(const Target &target, const double *src,
                                       void *dst, std::size_t numElements);
POPLAR_API void copyDeviceHalfToDouble(const Target &target, const void *src,
                                       double *dst, std::size_t numElements);

} // namespace poplar

#endif // POPLAR_TARGET_HPP
