// Saving and loading a session's compiled executable: the .popef file
// (session/PopefFile.hpp) with PopART's metadata (the cache key, the SDK
// version, the device's target, the streams the session connects), the
// Poplar executable and, optionally, the variables' values; and the
// engine cache of SessionOptions::enableEngineCaching / POPART_CACHE_DIR,
// which keeps one <key>.popef per compiled graph in cachePath.
#ifndef POPART_SRC_SESSION_EXECUTABLECACHE_HPP
#define POPART_SRC_SESSION_EXECUTABLECACHE_HPP

#include "lowering/IrLowering.hpp"
#include "session/PopefFile.hpp"

#include <popart/devicemanager.hpp>
#include <popart/names.hpp>

#include <poplar/Engine.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

class Ir;

/// A hash of everything that changes the compiled executable: the model
/// (initializers included), the prepared IR, the data flow, the session's
/// options, the optimiser, the device's target, the engine options of
/// POPLAR_ENGINE_OPTIONS (autoReport ones aside, which only say where
/// reports go) and the SDK version.
std::uint64_t executableCacheKey(const Ir &ir, const DeviceInfo &device);

/// The file of a key in a cache directory, <cachePath>/<hash>.popef: the
/// hash covers the session's name too, which names the engine (and so the
/// directory of its reports).
std::string cacheFileOf(const std::string &cachePath, std::uint64_t key,
                        const std::string &sessionName);

/// `path`, or <path>/<defaultName> when path is a directory (or ends in
/// '/'), as Session::saveExecutable names its files.
std::string popefPathOf(const std::string &path, const std::string &defaultName);

struct SavedSession {
  bool metadata = true;  // PopART's metadata, needed to load it again
  bool variables = true; // the host copies of the variables
  bool executable = true;
};

/// Writes the parts of a .popef asked for.
popef::Writer makePopef(const Ir &ir, const DeviceInfo &device,
                        const LoweredInterface &io, std::uint64_t key,
                        const poplar::Engine *engine, const SavedSession &what);

/// An executable read back, checked against the session: the same SDK
/// version, the device's target, streams the session's IR has, and the
/// session's key.
struct LoadedExecutable {
  std::unique_ptr<poplar::Executable> executable;
  LoweredInterface io;
  std::uint64_t key = 0;
};

/// popart::error naming the file and the reason when it cannot be used.
/// Without withExecutable only the metadata is read and checked.
LoadedExecutable loadPopef(const popef::Reader &file, const Ir &ir,
                           const DeviceInfo &device, std::uint64_t key,
                           bool withExecutable = true);

/// Sets the host copies of the variables from the file's values (when it
/// has them); popart::error if one does not fit the session's tensor.
void restoreVariables(const popef::Reader &file, Ir &ir);

} // namespace popart

#endif // POPART_SRC_SESSION_EXECUTABLECACHE_HPP
