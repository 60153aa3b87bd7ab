// poprand::addCodelets: finds poprand.gp and adds it to the graph.
#include <poprand/codelets.hpp>

#include <poputil/exceptions.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace poprand {
namespace {

namespace fs = std::filesystem;

// poprand.gp is installed beside libpoprand (and built beside it in the
// build tree); the path of the build tree is the fallback for programs
// that load libpoprand from elsewhere while the build tree exists.
std::string findCodelets() {
  std::string looked;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&addCodelets), &info) != 0 &&
      info.dli_fname != nullptr) {
    std::error_code ec;
    const fs::path dir = fs::absolute(info.dli_fname, ec).parent_path();
    const fs::path candidate = dir / "poprand.gp";
    if (fs::exists(candidate, ec))
      return candidate.string();
    looked = candidate.string();
  }
#ifdef POPRAND_BUILD_TREE_GP
  std::error_code ec;
  if (fs::exists(POPRAND_BUILD_TREE_GP, ec))
    return POPRAND_BUILD_TREE_GP;
  looked += std::string(looked.empty() ? "" : " or ") + POPRAND_BUILD_TREE_GP;
#endif
  throw poputil::poplibs_error("poprand::addCodelets: cannot find poprand.gp "
                               "(looked for " +
                               looked + ")");
}

} // namespace

void addCodelets(poplar::Graph &graph) {
  static const std::string path = findCodelets();
  graph.addCodelets(path);
}

} // namespace poprand
