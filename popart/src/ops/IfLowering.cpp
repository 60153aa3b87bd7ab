// IfOp: poplar's If program on the condition, each branch a call of its
// subgraph's function between copies of the op's inputs into the
// function's and of its outputs into the op's (one tensor per output,
// which both branches write).
#include "ir/Graph.hpp"
#include "lowering/Lowering.hpp"
#include "ops/IfOp.hpp"
#include "ops/SubgraphLowering.hpp"

#include <poputil/TileMapping.hpp>

namespace popart {

namespace {

using poplar::program::Copy;
using poplar::program::Sequence;

Sequence branchProgram(const IfOp &op, const Graph &branch,
                       const std::vector<poplar::Tensor> &outputs,
                       LoweringContext &ctx) {
  const auto &lg = lowerSubgraph(branch, ctx);
  Sequence prog;
  for (std::size_t i = 0; i < lg.inputs.size(); ++i)
    prog.add(Copy(ctx.get(op.inTensor(
                      IfOp::branchInToOpInIndex(static_cast<InIndex>(i)))),
                  lg.inputs[i]));
  prog.add(poplar::program::Call(lg.function, op.name() + "/" +
                                                  branch.getGraphId()));
  for (std::size_t j = 0; j < outputs.size(); ++j)
    prog.add(Copy(lg.outputs[j], outputs[j]));
  return prog;
}

} // namespace

void growIf(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const IfOp &>(op_);
  std::vector<poplar::Tensor> outputs;
  for (int j = 0; j < op.outTensorCount(); ++j) {
    poplar::Tensor out = ctx.graph.addVariable(
        deviceType(op.outInfo(j).dataType()), dims(op.outShape(j)),
        op.outId(j));
    poputil::mapTensorLinearly(ctx.graph, out);
    outputs.push_back(out);
  }
  Sequence thenProg = branchProgram(op, op.getThenGraph(), outputs, ctx);
  Sequence elseProg = branchProgram(op, op.getElseGraph(), outputs, ctx);
  const poplar::Tensor cond =
      ctx.get(op.inTensor(IfOp::getConditionInIndex())).reshape({});
  prog.add(poplar::program::If(cond, thenProg, elseProg, op.name()));
  for (int j = 0; j < op.outTensorCount(); ++j)
    ctx.set(op.outputs[static_cast<std::size_t>(j)],
            outputs[static_cast<std::size_t>(j)]);
}

} // namespace popart
