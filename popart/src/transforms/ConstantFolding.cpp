// The ConstExprFolding transform: an op whose inputs are all constants,
// and which can compute its output on the host, is replaced by that
// constant. Shape computations that exporters write as ops (Shape, Gather,
// Unsqueeze, Concat, Cast ... feeding a Reshape) become plain constants.
#include "ir/Graph.hpp"
#include "ir/Ir.hpp"

#include <popart/logging.hpp>

#include <set>

namespace popart {

bool foldConstantOp(Graph &graph, Op &op) {
  if (!op.canFold() || op.outputs.size() != 1 || !op.outputs[0])
    return false;
  if (!op.foldsFromShapesOnly()) {
    // Without enableConstantFoldingOfMultipleConsumers, a constant read by
    // other ops too is not folded into a second constant (which would hold
    // both on the device).
    const bool multipleConsumers = graph.getIr()
                                       .getSessionOptions()
                                       .enableConstantFoldingOfMultipleConsumers;
    for (Tensor *in : op.inputs)
      if (in && (in->type != TensorType::Const ||
                 (!multipleConsumers &&
                  std::set<Op *>(in->consumers.begin(), in->consumers.end())
                          .size() > 1)))
        return false;
  }
  std::vector<char> data = op.fold();
  Tensor *out = op.outputs[0];
  const TensorId id = out->id;
  const TensorInfo info = out->info;
  std::vector<Op *> consumers = out->consumers;
  logging::transform::trace("Folding {} into constant '{}'", op.str(), id);
  graph.eraseOp(op);
  // The constant replaces the output under the same id.
  out->producer = nullptr;
  out->type = TensorType::Const;
  out->data = std::move(data);
  out->info = info;
  return true;
}

int foldConstants(Graph &graph) {
  int folded = 0;
  bool again = true;
  while (again) {
    again = false;
    for (Op *op : graph.getOpSchedule("fifo"))
      if (foldConstantOp(graph, *op)) {
        ++folded;
        again = true;
        break;
      }
  }
  return folded;
}

} // namespace popart
