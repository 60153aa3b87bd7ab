// Patterns that replace an op by a simpler one computing the same:
//   SumToAdd: Sum of two inputs becomes Add.
//   NegativeOneScale: Scale by -1 becomes Neg.
//   TransposeToIdentityOrReshapePattern: a Transpose that keeps the order
//     of the dimensions of size above 1 becomes an Identity (no change) or
//     a Reshape.
#include "ir/Graph.hpp"
#include "ops/ScaleOp.hpp"
#include "ops/TransposeOp.hpp"
#include "patterns/PatternRewrites.hpp"
#include "transforms/GraphBuilding.hpp"

namespace popart {

bool sumToAdd(Graph &graph, Op &op, const DataFlow &) {
  if (op.opid.type != "Sum" || op.inputs.size() != 2 || !op.hasInput(0) ||
      !op.hasInput(1) || isExcluded(op, "SumToAdd"))
    return false;
  replaceByBuiltin(graph, op, {Domain::ai_onnx, "Add", 7},
                   {op.inTensor(0)->id, op.inTensor(1)->id}, Attributes());
  return true;
}

bool negativeOneScale(Graph &graph, Op &op, const DataFlow &) {
  if (op.opid.type != "Scale" || op.opid.domain != Domain::ai_graphcore ||
      static_cast<const ScaleOp &>(op).scale != -1.0f ||
      isExcluded(op, "NegativeOneScale"))
    return false;
  replaceByBuiltin(graph, op, {Domain::ai_onnx, "Neg", 6},
                   {op.inTensor(0)->id}, Attributes());
  return true;
}

bool transposeToIdentityOrReshape(Graph &graph, Op &op, const DataFlow &) {
  if (op.opid.type != "Transpose" || op.opid.domain != Domain::ai_onnx ||
      isExcluded(op, "TransposeToIdentityOrReshapePattern"))
    return false;
  const auto &perm = static_cast<const TransposeOp &>(op).perm;
  const Shape &in = op.inShape(0);
  // The dimensions above 1 must stay in their order.
  int64_t last = -1;
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    identity = identity && perm[i] == static_cast<int64_t>(i);
    if (in.at(static_cast<std::size_t>(perm[i])) == 1)
      continue;
    if (perm[i] < last)
      return false;
    last = perm[i];
  }
  const TensorId input = op.inTensor(0)->id;
  if (identity) {
    replaceByBuiltin(graph, op, {Domain::ai_onnx, "Identity", 1}, {input},
                     Attributes());
    return true;
  }
  OpAttributes shape;
  shape.intLists.emplace_back("shape", op.outShape(0));
  replaceByBuiltin(graph, op, {Domain::ai_graphcore, "Reshape", 1}, {input},
                   makeAttributes(shape));
  return true;
}

} // namespace popart
