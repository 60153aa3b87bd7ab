// popops::addCodelets: finds popops.gp and adds it to the graph.
#include <popops/codelets.hpp>

#include <poplibs_support/CodeletsPath.hpp>

#include <string>

namespace popops {

#ifdef POPOPS_BUILD_TREE_GP
static const char *const buildTreeGp = POPOPS_BUILD_TREE_GP;
#else
static const char *const buildTreeGp = nullptr;
#endif

void addCodelets(poplar::Graph &graph) {
  static const std::string path = poplibs_support::codeletsPath(
      reinterpret_cast<const void *>(&addCodelets), "popops.gp", buildTreeGp,
      "popops::addCodelets");
  graph.addCodelets(path);
}

} // namespace popops
