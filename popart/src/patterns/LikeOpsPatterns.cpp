// RandomUniformLikeOpPattern and RandomNormalLikeOpPattern: a Like form
// becomes RandomUniform or RandomNormal of its output's shape and type, so
// that nothing waits for (or keeps) the input whose shape it copied. The
// op keeps its name, and so draws the same numbers.
#include "ir/Graph.hpp"
#include "ops/RandomOps.hpp"
#include "patterns/PatternRewrites.hpp"

#include <algorithm>

namespace popart {

namespace {

bool shapeLikeForm(Graph &graph, Op &op, const char *likeType,
                   const char *pattern) {
  if (op.opid.type != likeType || op.opid.domain != Domain::ai_onnx ||
      isExcluded(op, pattern))
    return false;
  auto *like = dynamic_cast<RandomOp *>(&op);
  if (!like || !like->isLike())
    return false;
  Op &shaped = graph.replaceOp(op, like->shapedForm());
  for (Tensor *in : shaped.inputs)
    if (in) {
      auto &c = in->consumers;
      c.erase(std::remove(c.begin(), c.end(), &shaped), c.end());
    }
  shaped.inputs.clear();
  shaped.setup();
  return true;
}

} // namespace

bool randomUniformLikeOpPattern(Graph &graph, Op &op, const DataFlow &) {
  return shapeLikeForm(graph, op, "RandomUniformLike",
                       "RandomUniformLikeOpPattern");
}

bool randomNormalLikeOpPattern(Graph &graph, Op &op, const DataFlow &) {
  return shapeLikeForm(graph, op, "RandomNormalLike",
                       "RandomNormalLikeOpPattern");
}

} // namespace popart
