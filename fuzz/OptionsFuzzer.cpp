// Option strings: the first byte chooses what the rest is.
//   0: a JSON object of engine options (poplar::readJSON), given to an
//      Engine made on the CPU target;
//   1: the value of POPLAR_ENGINE_OPTIONS while an Engine is made;
//   2: a POPART_LOG_CONFIG file.
// Errors must be poplar::poplar_error (poplar) or popart::error (PopART).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>
#include <popart/error.hpp>

#include "core/LoggingState.hpp" // popart's readLogConfig

#include "FuzzSupport.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

namespace {

// Options naming files the Engine writes: the harness never lets them
// point outside its scratch directory.
bool namesAFile(const std::string &key) {
  return key == "autoReport.directory" || key == "debug.graphReportDestination" ||
         key == "target.saveArchive";
}

void makeEngine(const poplar::OptionFlags &options) {
  poplar::Graph graph(poplar::Target::createCPUTarget());
  poplar::Tensor v = graph.addVariable(poplar::FLOAT, {4}, "v");
  graph.setTileMapping(v, 0);
  poplar::program::Sequence prog;
  prog.add(poplar::program::Copy(v, v));
  poplar::Engine engine(graph, prog, options);
}

void engineOptions(const std::string &text) {
  poplar::OptionFlags options;
  try {
    poplar::readJSON(poplar::StringRef(text), options);
  } catch (const poplar::poplar_error &) {
    return;
  }
  poplar::OptionFlags safe;
  for (const auto &[key, value] : options)
    safe.set(key, namesAFile(key) ? std::string("reports") : value);
  try {
    makeEngine(safe);
  } catch (const poplar::poplar_error &) {
  }
}

void environmentOptions(const std::string &text) {
  // The same text through readJSON first, to keep file names out.
  poplar::OptionFlags parsed;
  try {
    poplar::readJSON(poplar::StringRef(text), parsed);
    for (const auto &entry : parsed)
      if (namesAFile(entry.first))
        return;
  } catch (const poplar::poplar_error &) {
  }
  const std::string value = text.substr(0, text.find('\0'));
  setenv("POPLAR_ENGINE_OPTIONS", value.c_str(), 1);
  try {
    makeEngine({});
  } catch (const poplar::poplar_error &) {
  }
  unsetenv("POPLAR_ENGINE_OPTIONS");
}

void popartLogConfig(const std::string &text) {
  const std::string path = fuzz::scratchFile("log-config.json", text);
  try {
    popart::logging::readLogConfig(path);
  } catch (const popart::error &) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  switch (data[0] % 3) {
  case 0:
    engineOptions(text);
    break;
  case 1:
    environmentOptions(text);
    break;
  default:
    popartLogConfig(text);
    break;
  }
  return 0;
}
