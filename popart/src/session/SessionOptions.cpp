#include <popart/sessionoptions.hpp>

#include <cstdlib>

namespace popart {

SessionOptions::SessionOptions() {
  // As the original: the environment turns the engine cache on.
  if (const char *dir = std::getenv("POPART_CACHE_DIR"); dir && *dir) {
    enableEngineCaching = true;
    cachePath = dir;
  }
}

} // namespace popart
