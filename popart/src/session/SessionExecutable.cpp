// A session's engine: compiled from the lowered IR, or loaded from a
// .popef file (loadExecutableFromFile) or the engine cache; and saving
// executables and variables (compileAndExport, saveExecutable,
// saveVariables).
#include "session/CompileProgress.hpp"
#include "session/FrameworkInfo.hpp"
#include "session/SessionImpl.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>
#include <popart/session.hpp>

#include <poplar/exceptions.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace popart {
namespace {

// The graph does not fit in the device's tile memory.
class OutOfMemoryError : public memory_allocation_err {
public:
  OutOfMemoryError(const std::string &what, std::string summary,
                   std::string profilePath)
      : memory_allocation_err(
            logging::format("Out of memory compiling the graph: {}", what)),
        summary(std::move(summary)), profilePath(std::move(profilePath)) {}
  std::unique_ptr<memory_allocation_err> clone() const override {
    return std::make_unique<OutOfMemoryError>(*this);
  }
  std::string getSummaryReport() const override { return summary; }
  std::string getProfilePath() const override { return profilePath; }

private:
  std::string summary, profilePath;
};

bool cachingEnabled(const SessionOptions &o) {
  return o.enableEngineCaching && !o.cachePath.empty();
}

std::string secondsSince(std::chrono::steady_clock::time_point start) {
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", s);
  return text;
}

} // namespace

poplar::OptionFlags SessionImpl::engineOptions() const {
  poplar::OptionFlags flags;
  for (const auto &o : options().engineOptions)
    flags.set(o.first, o.second);
  return flags;
}

void SessionImpl::syncVariablesFromDevice() {
  if (engineLoaded && weightsOnDevice &&
      (!io.variables.empty() || !io.remoteVariables.empty())) {
    runProgram(ProgramIndex::WeightsToHost);
    remoteVariablesToHost();
  }
}

void SessionImpl::useLoaded(LoadedExecutable loaded) {
  io = std::move(loaded.io);
  // The engine keeps the name it was compiled with (the session's: the
  // cache key includes it), so its reports go where the first one's did.
  engine = std::make_unique<poplar::Engine>(std::move(*loaded.executable),
                                            engineOptions());
  lowering.reset();
}

bool SessionImpl::loadFromCache(std::uint64_t key, CompileProgress &progress) {
  const std::string path = cacheFileOf(options().cachePath, key, name);
  if (!std::filesystem::exists(path)) {
    logging::session::info("No cached executable {}: compiling", path);
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    popef::Reader file = popef::Reader::openFile(path, popef::preloadRequested());
    useLoaded(loadPopef(file, ir, *device, key));
  } catch (const error &e) {
    // A cache entry that cannot be used is compiled again and replaced.
    logging::session::warn("{}; compiling the graph again", e.what());
    return false;
  }
  progress.complete();
  logging::session::info("Loaded the cached executable {} in {}", path,
                         secondsSince(start));
  return true;
}

void SessionImpl::compile(bool makeEngine, CompileProgress &progress) {
  progress.loweringStarted();
  lowering = std::make_unique<IrLowering>(
      ir, device->getTarget(),
      [&progress](int done, int count) { progress.opLowered(done, count); });
  io = lowering->getInterface();
  if (!makeEngine) {
    logging::devicex::info("SessionOptions::compileEngine is false: the "
                           "poplar graph is built, no engine is compiled");
    return;
  }
  const poplar::OptionFlags flags = engineOptions();
  logging::devicex::info("Compiling the poplar graph");
  try {
    // The engine is named after the session, so that its reports go into
    // <autoReport.directory>/<name>.
    poplar::Executable exe = poplar::compileGraph(
        lowering->getGraph(), lowering->getPrograms(), flags,
        [&progress](int step, int steps) { progress.compiling(step, steps); },
        poplar::DebugContext(name));
    engine = std::make_unique<poplar::Engine>(std::move(exe), flags);
  } catch (const poplar::graph_memory_allocation_error &e) {
    // As the original: the memory error with the graph's profile summary.
    std::ostringstream summary;
    poplar::printProfileSummary(summary, e.graphProfile);
    // The reports of the engine go into <autoReport.directory>/<name>.
    auto dir = options().engineOptions.find("autoReport.directory");
    throw OutOfMemoryError(
        e.what(), summary.str(),
        dir == options().engineOptions.end()
            ? ""
            : (std::filesystem::path(dir->second) / name).string());
  }
  lowering.reset(); // the graph is not needed once compiled
  progress.complete();
}

void SessionImpl::prepareEngine(bool compileIt) {
  CompileProgress progress(options());
  progress.started();
  engine.reset();
  engineLoaded = false;
  weightsOnDevice = false;
  if (executableToLoad) {
    std::unique_ptr<popef::Reader> file = std::move(executableToLoad);
    useLoaded(loadPopef(*file, ir, *device, executableCacheKey(ir, *device)));
    restoreVariables(*file, ir);
    progress.complete();
    writeFrameworkInfo(ir, device->getTarget(), name, "loaded from a file");
    return;
  }
  const bool caching = cachingEnabled(options()) && compileIt;
  const std::uint64_t key = caching ? executableCacheKey(ir, *device) : 0;
  if (caching && loadFromCache(key, progress)) {
    writeFrameworkInfo(ir, device->getTarget(), name,
                       "loaded from the engine cache");
    return;
  }
  compile(compileIt, progress);
  if (engine)
    writeFrameworkInfo(ir, device->getTarget(), name, "compiled");
  if (!caching)
    return;
  const std::string path = cacheFileOf(options().cachePath, key, name);
  try {
    SavedSession what;
    what.variables = options().enableVariablesCaching;
    makePopef(ir, *device, io, key, engine.get(), what).writeFile(path);
    logging::session::info("Saved the executable in the cache: {}", path);
  } catch (const error &e) {
    logging::session::warn("The executable was not cached: {}", e.what());
  }
}

// --------------------------------------------------------------- Session

namespace {

SessionImpl &withEngine(SessionImpl &impl, const char *what) {
  if (!impl.engine)
    throw error("{}: there is no compiled executable (call prepareDevice "
                "first{})",
                what,
                impl.prepared ? ", with SessionOptions::compileEngine true"
                              : "");
  return impl;
}

} // namespace

void Session::compileAndExport(const std::string &filename) {
  if (!impl->engine)
    impl->prepareEngine(true);
  impl->prepared = true;
  saveExecutable(filename);
}

void Session::compileAndExport(std::ostream &out) {
  if (!impl->engine)
    impl->prepareEngine(true);
  impl->prepared = true;
  saveExecutableToStream(out);
}

void Session::saveExecutable(const std::string &path, bool savePopartMetadata,
                             bool saveVariables) {
  SessionImpl &s = withEngine(*impl, "saveExecutable");
  if (saveVariables)
    s.syncVariablesFromDevice();
  SavedSession what;
  what.metadata = savePopartMetadata;
  what.variables = saveVariables;
  const std::string file = popefPathOf(path, "executable.popef");
  makePopef(s.ir, *s.device, s.io, executableCacheKey(s.ir, *s.device),
            s.engine.get(), what)
      .writeFile(file);
  logging::session::info("Saved the executable in {}", file);
}

void Session::saveExecutableToFile(const std::string &filename) {
  saveExecutable(filename);
}

void Session::saveExecutableToStream(std::ostream &out) {
  SessionImpl &s = withEngine(*impl, "saveExecutableToStream");
  s.syncVariablesFromDevice();
  makePopef(s.ir, *s.device, s.io, executableCacheKey(s.ir, *s.device),
            s.engine.get(), SavedSession())
      .write(out);
}

void Session::saveVariables(const std::string &path) {
  SessionImpl &s = withEngine(*impl, "saveVariables");
  s.syncVariablesFromDevice();
  SavedSession what;
  what.executable = false;
  const std::string file = popefPathOf(path, "variables.popef");
  makePopef(s.ir, *s.device, s.io, executableCacheKey(s.ir, *s.device),
            nullptr, what)
      .writeFile(file);
  logging::session::info("Saved the variables in {}", file);
}

void Session::loadExecutableFromFile(const std::string &filename) {
  impl->executableToLoad = std::make_unique<popef::Reader>(
      popef::Reader::openFile(filename, popef::preloadRequested()));
  // Refuse a file that does not fit the session now, not at prepareDevice.
  loadPopef(*impl->executableToLoad, impl->ir, *impl->device,
            executableCacheKey(impl->ir, *impl->device), false);
}

void Session::loadExecutableFromStream(std::shared_ptr<std::istream> in) {
  if (!in)
    throw error("loadExecutableFromStream: no stream given");
  impl->executableToLoad = std::make_unique<popef::Reader>(
      popef::Reader::fromStream(*in, "from the stream"));
  loadPopef(*impl->executableToLoad, impl->ir, *impl->device,
            executableCacheKey(impl->ir, *impl->device), false);
}

} // namespace popart
