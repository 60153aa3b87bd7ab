// poplin::addCodelets: finds poplin.gp and adds it to the graph.
#include <poplin/codelets.hpp>

#include <poplibs_support/CodeletsPath.hpp>

#include <string>

namespace poplin {

#ifdef POPLIN_BUILD_TREE_GP
static const char *const buildTreeGp = POPLIN_BUILD_TREE_GP;
#else
static const char *const buildTreeGp = nullptr;
#endif

void addCodelets(poplar::Graph &graph) {
  static const std::string path = poplibs_support::codeletsPath(
      reinterpret_cast<const void *>(&addCodelets), "poplin.gp", buildTreeGp,
      "poplin::addCodelets");
  graph.addCodelets(path);
}

} // namespace poplin
