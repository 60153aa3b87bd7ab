#include <popart/logging.hpp>
#include <popart/sessionoptions.hpp>

#include <cstdlib>
#include <string>

namespace popart {

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
