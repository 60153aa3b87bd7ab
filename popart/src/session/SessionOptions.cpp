#include <popart/logging.hpp>
#include <popart/sessionoptions.hpp>

#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>

namespace popart {

TensorLocationSettings::TensorLocationSettings(TensorLocation location_,
                                               int minElementsForOffChip_,
                                               int minElementsForRts_)
    : location(location_), minElementsForOffChip(minElementsForOffChip_),
      minElementsForReplicatedTensorSharding(minElementsForRts_) {}

TensorLocationSettings::TensorLocationSettings(TensorStorage storage_,
                                               int minElementsForOffChip_,
                                               int minElementsForRts_)
    : location(storage_), minElementsForOffChip(minElementsForOffChip_),
      minElementsForReplicatedTensorSharding(minElementsForRts_) {}

std::string toString(const TensorLocationSettings &s) {
  std::ostringstream ss;
  ss << "(minElementsForOffChip=" << s.minElementsForOffChip
     << ", minElementsForReplicatedTensorSharding="
     << s.minElementsForReplicatedTensorSharding
     << ", location=" << s.location << ")";
  return ss.str();
}

std::ostream &operator<<(std::ostream &os, const TensorLocationSettings &s) {
  return os << toString(s);
}

SessionOptions::SessionOptions() {
  // As the original: the environment turns the engine cache on, and
  // POPXL_CACHE_DIR (popart.ir's name for it) wins over POPART_CACHE_DIR.
  const char *popart = std::getenv("POPART_CACHE_DIR");
  const char *popxl = std::getenv("POPXL_CACHE_DIR");
  if (popart && *popart && popxl && *popxl && std::string(popart) != popxl)
    logging::session::warn("POPART_CACHE_DIR ('{}') and POPXL_CACHE_DIR ('{}') "
                           "differ: the cache is POPXL_CACHE_DIR",
                           popart, popxl);
  for (const char *dir : {popart, popxl})
    if (dir && *dir) {
      enableEngineCaching = true;
      cachePath = dir;
    }
}

} // namespace popart
