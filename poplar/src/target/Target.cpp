#include "target/TargetBuilder.hpp"

#include "core/TypeInfo.hpp"

#include <poplar/exceptions.hpp>

#include <cmath>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>

namespace poplar {

std::string toString(TargetType type) {
  switch (type) {
  case TargetType::IPU:
    return "IPU";
  case TargetType::IPU_MODEL:
    return "IPU_MODEL";
  case TargetType::CPU:
    return "CPU";
  }
  return "UNKNOWN";
}

Target::Target() = default;

Target TargetBuilder::ipuArchitecture(const std::string &arch, TargetType type) {
  Target t;
  t.targetType = type;
  t.arch = arch;
  t.numWorkerContexts = 6;
  t.exchangeBytesPerCycle = 4;
  t.memcpyBytesPerCycle = 8;
  t.dataPathWidth = 64;
  t.instructionBytes = 4;
  if (arch == "ipu1") {
    t.tilesPerIPU = 1216;
    t.tilesPerSuperTile = 4;
    t.bytesPerTile = 256 * 1024;
    t.tileClockFrequency = 1.6e9;
    t.ampUnitsFloat = 8;
    t.ampUnitsHalf = 32;
    t.interleavedMemoryElementIndex = 8;
  } else if (arch == "ipu2" || arch == "ipu21") {
    t.tilesPerIPU = 1472;
    t.tilesPerSuperTile = 2;
    t.bytesPerTile = 624 * 1024;
    t.tileClockFrequency = arch == "ipu2" ? 1.33e9 : 1.85e9;
    t.ampUnitsFloat = 16;
    t.ampUnitsHalf = 64;
    t.interleavedMemoryElementIndex = 26;
    t.supportsSuperTileSendReceive = true;
  } else {
    throw invalid_machine_model("Unknown IPU architecture '" + arch +
                                "': use ipu1, ipu2 or ipu21");
  }
  t.minIPUSyncDelay = 30;
  // 15 ns per hop each way, one hop for a single IPU.
  t.globalSyncCycles =
      static_cast<unsigned>(std::lround(30e-9 * t.tileClockFrequency));
  return t;
}

void TargetBuilder::validate(const Target &t) {
  auto check = [](bool ok, const std::string &what) {
    if (!ok)
      throw invalid_machine_model("Invalid machine model: " + what);
  };
  check(t.numIPUs >= 1, "numIPUs must be at least 1");
  check(t.tilesPerIPU >= 1, "tilesPerIPU must be at least 1");
  check(t.numWorkerContexts >= 1, "numWorkerContexts must be at least 1");
  check(t.bytesPerTile >= 1, "memoryBytesPerTile must be at least 1");
  check(t.tileClockFrequency > 0, "tileClockFrequency must be positive");
  check(t.exchangeBytesPerCycle >= 1, "exchangeBytesPerCycle must be at least 1");
  check(t.memcpyBytesPerCycle >= 1, "memcpyBytesPerCycle must be at least 1");
  check(t.tilesPerSuperTile >= 1, "tilesPerSuperTile must be at least 1");
}

Target TargetBuilder::fromModel(const IPUModel &m, bool accurateHalf) {
  Target t = ipuArchitecture(m.IPUVersion, TargetType::IPU_MODEL);
  t.numIPUs = m.numIPUs;
  t.tilesPerIPU = m.tilesPerIPU;
  t.tilesPerSuperTile = m.tilesPerSuperTile;
  t.numWorkerContexts = m.numWorkerContexts;
  t.bytesPerTile = m.memoryBytesPerTile;
  t.tileClockFrequency = m.tileClockFrequency;
  t.exchangeBytesPerCycle = m.exchangeBytesPerCycle;
  t.memcpyBytesPerCycle = m.memcpyBytesPerCycle;
  t.instructionBytes = m.instructionBytes;
  t.supportsSuperTileSendReceive = m.supportsSuperTileSendReceive;
  t.interleavedMemoryElementIndex = m.interleavedMemoryElementIndex;
  t.minIPUSyncDelay = m.minIPUSyncDelay;
  t.noRelativeSyncDelay =
      m.relativeSyncDelay == IPUModel::RelativeSyncDelayType::NO_DELAY;
  t.globalSyncCycles = m.globalSyncCycles;
  t.accurateHalf = accurateHalf;
  t.compileIPUCode = m.compileIPUCode;
  validate(t);
  return t;
}

Target Target::createCPUTarget(bool accurateHalf, unsigned numIPUs) {
  Target t;
  t.targetType = TargetType::CPU;
  t.arch = "cpu";
  t.numIPUs = numIPUs;
  t.tilesPerIPU = 1;
  // The host's memory is the limit; the model of tile memory does not apply.
  t.bytesPerTile = std::uint64_t(1) << 40;
  t.accurateHalf = accurateHalf;
  TargetBuilder::validate(t);
  return t;
}

Target Target::createIPUTarget(StringRef system, const OptionFlags &opts) {
  return createIPUTarget(1, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, StringRef system,
                               const OptionFlags &opts) {
  Target t = TargetBuilder::ipuArchitecture(system.str(), TargetType::IPU);
  return createIPUTarget(numIPUs, t.tilesPerIPU, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU,
                               StringRef system, const OptionFlags &opts) {
  for (const auto &[key, value] : opts)
    throw invalid_option("Unrecognised target option '" + key + "'");
  Target t = TargetBuilder::withTiles(
      TargetBuilder::ipuArchitecture(system.str(), TargetType::IPU), numIPUs,
      tilesPerIPU);
  TargetBuilder::validate(t);
  return t;
}

std::string Target::getTargetSystemString() const {
  if (targetType == TargetType::CPU)
    return "cpu";
  return arch == "ipu1" ? "GC2" : arch == "ipu2" ? "GC200" : "C600";
}

unsigned Target::getTypeSize(const Type &type) const {
  if (!isDeviceType(type))
    throw type_error("Type '" + type.toString().str() +
                     "' is not supported on the device");
  return static_cast<unsigned>(typeSize(type));
}

unsigned Target::getVectorWidth(const Type &type) const {
  return dataPathWidth / (8 * getTypeSize(type));
}

unsigned Target::getNumConvUnits(const Type &actType,
                                 const Type &partialType) const {
  // Multiply-accumulates per cycle over the vector width of the input type.
  if (actType == FLOAT)
    return ampUnitsFloat / 2;
  if (actType == HALF)
    return ampUnitsHalf / 4;
  throw type_error("No convolution units for input type '" +
                   actType.toString().str() + "'");
}

unsigned Target::getMaxIPUSyncDelay() const {
  if (targetType == TargetType::CPU)
    return 0;
  // The farthest tile is released about one cycle per 16 tiles after the
  // nearest: the model of the sync controller's fan-out.
  return minIPUSyncDelay + (noRelativeSyncDelay ? 0 : tilesPerIPU / 16);
}

Target Target::createVirtualTarget(unsigned ipus, unsigned tiles) const {
  if (ipus > numIPUs || tiles > tilesPerIPU || ipus == 0 || tiles == 0)
    throw invalid_machine_model(
        "A virtual target of " + std::to_string(ipus) + " IPUs x " +
        std::to_string(tiles) + " tiles does not fit in a target of " +
        std::to_string(numIPUs) + " IPUs x " + std::to_string(tilesPerIPU) +
        " tiles");
  return TargetBuilder::withTiles(*this, ipus, tiles);
}

bool operator==(const Target &a, const Target &b) {
  return a.targetType == b.targetType && a.arch == b.arch &&
         a.numIPUs == b.numIPUs && a.tilesPerIPU == b.tilesPerIPU &&
         a.tilesPerSuperTile == b.tilesPerSuperTile &&
         a.numWorkerContexts == b.numWorkerContexts &&
         a.bytesPerTile == b.bytesPerTile &&
         a.exchangeBytesPerCycle == b.exchangeBytesPerCycle &&
         a.memcpyBytesPerCycle == b.memcpyBytesPerCycle &&
         a.dataPathWidth == b.dataPathWidth &&
         a.tileClockFrequency == b.tileClockFrequency &&
         a.instructionBytes == b.instructionBytes &&
         a.minIPUSyncDelay == b.minIPUSyncDelay &&
         a.noRelativeSyncDelay == b.noRelativeSyncDelay &&
         a.globalSyncCycles == b.globalSyncCycles &&
         a.accurateHalf == b.accurateHalf;
}

void Target::serialize(std::ostream &out) const {
  // Version 2 added compileIPUCode; every double round-trips exactly.
  const auto oldPrecision = out.precision(17);
  out << "poplar-target 2\n"
      << static_cast<int>(targetType) << ' ' << arch << ' ' << numIPUs << ' '
      << tilesPerIPU << ' ' << tilesPerSuperTile << ' ' << numWorkerContexts
      << ' ' << bytesPerTile << ' ' << exchangeBytesPerCycle << ' '
      << memcpyBytesPerCycle << ' ' << dataPathWidth << ' '
      << tileClockFrequency << ' ' << instructionBytes << ' ' << ampUnitsFloat
      << ' ' << ampUnitsHalf << ' ' << minIPUSyncDelay << ' '
      << noRelativeSyncDelay << ' ' << globalSyncCycles << ' '
      << interleavedMemoryElementIndex << ' ' << supportsSuperTileSendReceive
      << ' ' << accurateHalf << ' ' << compileIPUCode << '\n';
  out.precision(oldPrecision);
}

Target Target::deserialize(std::istream &in) {
  std::string magic;
  int version = 0, type = 0;
  in >> magic >> version;
  if (!in || magic != "poplar-target" || (version != 1 && version != 2))
    throw parse_error("Not a serialised poplar::Target");
  Target t;
  in >> type >> t.arch >> t.numIPUs >> t.tilesPerIPU >> t.tilesPerSuperTile >>
      t.numWorkerContexts >> t.bytesPerTile >> t.exchangeBytesPerCycle >>
      t.memcpyBytesPerCycle >> t.dataPathWidth >> t.tileClockFrequency >>
      t.instructionBytes >> t.ampUnitsFloat >> t.ampUnitsHalf >>
      t.minIPUSyncDelay >> t.noRelativeSyncDelay >> t.globalSyncCycles >>
      t.interleavedMemoryElementIndex >> t.supportsSuperTileSendReceive >>
      t.accurateHalf;
  if (version >= 2)
    in >> t.compileIPUCode;
  if (!in || type < 0 || type > 2)
    throw parse_error("Truncated or corrupt serialised poplar::Target");
  t.targetType = static_cast<TargetType>(type);
  TargetBuilder::validate(t);
  return t;
}

} // namespace poplar
