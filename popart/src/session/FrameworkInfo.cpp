// framework.json, the file the PopVision guide ("Frameworks Information")
// leaves to frameworks: PopART puts its session's facts in it, beside the
// profile.pop of the session's engine, for the viewers to show.
#include "session/FrameworkInfo.hpp"

#include "ir/Ir.hpp"

#include <popart/logging.hpp>

#include <poplar/OptionFlags.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace popart {
namespace {

namespace fs = std::filesystem;

bool isTrue(const std::map<std::string, std::string> &o, const std::string &k,
            bool otherwise) {
  auto it = o.find(k);
  return it == o.end() ? otherwise : it->second == "true";
}

// The session's engine options with POPLAR_ENGINE_OPTIONS over them, as
// the Engine reads them.
std::map<std::string, std::string>
effectiveOptions(const std::map<std::string, std::string> &engineOptions) {
  std::map<std::string, std::string> options = engineOptions;
  const char *env = std::getenv("POPLAR_ENGINE_OPTIONS");
  if (env && *env) {
    poplar::OptionFlags flags;
    try {
      poplar::readJSON(poplar::StringRef(env), flags);
    } catch (const poplar::poplar_error &) {
      return options; // the Engine has reported it
    }
    for (const auto &[k, v] : flags)
      options[k] = v;
  }
  return options;
}

} // namespace

std::string engineReportDirectory(const std::map<std::string, std::string> &engineOptions,
                                  const std::string &engineName) {
  const auto o = effectiveOptions(engineOptions);
  // autoReport.enable is the guide's name for autoReport.all.
  const bool all = isTrue(o, "autoReport.all", isTrue(o, "autoReport.enable", false));
  bool any = false;
  for (const char *output :
       {"autoReport.outputGraphProfile", "autoReport.outputExecutionProfile",
        "autoReport.outputLoweredVars", "autoReport.outputDebugInfo",
        "autoReport.outputArchive"})
    any = any || isTrue(o, output, all);
  if (!any || !isTrue(o, "debug.retainDebugInformation", true))
    return "";
  auto dir = o.find("autoReport.directory");
  fs::path where(dir == o.end() ? "." : dir->second);
  // The Engine's directory name for its name ('/' becomes '_').
  std::string name = engineName;
  for (char &c : name)
    if (c == '/')
      c = '_';
  if (name == "." || name == "..")
    name = "_" + name;
  if (!name.empty())
    where /= name;
  return where.string();
}

void writeFrameworkInfo(const Ir &ir, const poplar::Target &target,
                        const std::string &sessionName,
                        const std::string &executable) {
  const SessionOptions &options = ir.getSessionOptions();
  const std::string dir = engineReportDirectory(options.engineOptions, sessionName);
  if (dir.empty() || !fs::is_directory(dir))
    return;
  const onnx::ModelProto &model = ir.getModel();
  nlohmann::ordered_json info = {
      {"framework", "PopART"},
      {"frameworkVersion", POPART_SDK_VERSION},
      {"sessionType", ir.isTraining() ? "TrainingSession" : "InferenceSession"},
      {"sessionName", sessionName},
      {"executable", executable},
      {"device", poplar::toString(target.getTargetType()) + " " +
                     target.getTargetArchString()},
      {"numIPUs", target.getNumIPUs()},
      {"tilesPerIPU", target.getTilesPerIPU()},
      {"batchesPerStep", ir.getDataFlow().batchesPerStep()},
      {"replicatedGraphCount",
       options.enableReplicatedGraphs ? options.replicatedGraphCount : 1},
      {"onnxProducer", model.producer_name()},
      {"onnxGraph", model.graph().name()},
      {"onnxNodes", model.graph().node_size()},
  };
  const std::string path = (fs::path(dir) / "framework.json").string();
  std::ofstream out(path, std::ios::trunc);
  out << info.dump(2) << '\n';
  if (!out) {
    logging::session::warn("framework.json: cannot write '{}'", path);
    return;
  }
  logging::session::info("Wrote {}", path);
}

} // namespace popart
