// poplin::addCodelets: finds poplin.gp and adds it to the graph.
#include <poplin/codelets.hpp>

#include <poputil/exceptions.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace poplin {
namespace {

namespace fs = std::filesystem;

// poplin.gp is installed beside libpoplin (and built beside it in the
// build tree); the path of the build tree is the fallback for programs
// that load libpoplin from elsewhere while the build tree exists.
std::string findCodelets() {
  std::string looked;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&addCodelets), &info) != 0 &&
      info.dli_fname != nullptr) {
    std::error_code ec;
    const fs::path dir = fs::absolute(info.dli_fname, ec).parent_path();
    const fs::path candidate = dir / "poplin.gp";
    if (fs::exists(candidate, ec))
      return candidate.string();
    looked = candidate.string();
  }
#ifdef POPLIN_BUILD_TREE_GP
  std::error_code ec;
  if (fs::exists(POPLIN_BUILD_TREE_GP, ec))
    return POPLIN_BUILD_TREE_GP;
  looked += std::string(looked.empty() ? "" : " or ") + POPLIN_BUILD_TREE_GP;
#endif
  throw poputil::poplibs_error("poplin::addCodelets: cannot find poplin.gp "
                               "(looked for " +
                               looked + ")");
}

} // namespace

void addCodelets(poplar::Graph &graph) {
  static const std::string path = findCodelets();
  graph.addCodelets(path);
}

} // namespace poplin
