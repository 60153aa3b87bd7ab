// popnn::addCodelets: finds popnn.gp and adds it to the graph.
#include <popnn/codelets.hpp>

#include <poplibs_support/CodeletsPath.hpp>

#include <string>

namespace popnn {

#ifdef POPNN_BUILD_TREE_GP
static const char *const buildTreeGp = POPNN_BUILD_TREE_GP;
#else
static const char *const buildTreeGp = nullptr;
#endif

void addCodelets(poplar::Graph &graph) {
  static const std::string path = poplibs_support::codeletsPath(
      reinterpret_cast<const void *>(&addCodelets), "popnn.gp", buildTreeGp,
      "popnn::addCodelets");
  graph.addCodelets(path);
}

} // namespace popnn
