// poprand::addCodelets: finds poprand.gp and adds it to the graph.
#include <poprand/codelets.hpp>

#include <poplibs_support/CodeletsPath.hpp>

#include <string>

namespace poprand {

#ifdef POPRAND_BUILD_TREE_GP
static const char *const buildTreeGp = POPRAND_BUILD_TREE_GP;
#else
static const char *const buildTreeGp = nullptr;
#endif

void addCodelets(poplar::Graph &graph) {
  static const std::string path = poplibs_support::codeletsPath(
      reinterpret_cast<const void *>(&addCodelets), "poprand.gp", buildTreeGp,
      "poprand::addCodelets");
  graph.addCodelets(path);
}

} // namespace poprand
