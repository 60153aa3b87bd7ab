// CallOp and LoopOp: the subgraph is lowered once, into a poplar function
// with tensors of its own for its inputs and outputs; each call site
// copies its inputs in, calls the function and copies the outputs out
// (the next call reuses the subgraph's tensors). An input passed by
// reference is copied back to the caller's tensor after the call.
#include "ir/Graph.hpp"
#include "lowering/Lowering.hpp"
#include "ops/CallOp.hpp"
#include "ops/SubgraphLowering.hpp"

#include <popart/logging.hpp>

#include <poputil/TileMapping.hpp>

namespace popart {

using poplar::program::Copy;
using poplar::program::Sequence;

const LoweringContext::LoweredGraph &lowerSubgraph(const Graph &g,
                                                   LoweringContext &ctx) {
  auto found = ctx.subgraphs.find(g.getGraphId());
  if (found != ctx.subgraphs.end())
    return found->second;
  logging::devicex::debug("Lowering subgraph '{}'", g.getGraphId());
  LoweringContext::LoweredGraph lg;
  for (const auto &id : g.inputs) {
    const Tensor &t = g.getTensor(id);
    poplar::Tensor v =
        ctx.graph.addVariable(deviceType(t.info.dataType()), dims(t.info.shape()), id);
    poputil::mapTensorLinearly(ctx.graph, v);
    ctx.set(t, v);
    lg.inputs.push_back(v);
  }
  Sequence body;
  for (const Op *op : g.getOpSchedule())
    LoweringRegistry::instance().get(*op)(*op, ctx, body);
  for (const auto &id : g.outputs)
    lg.outputs.push_back(ctx.get(g.getTensor(id)));
  lg.function = ctx.graph.addFunction(body);
  return ctx.subgraphs.emplace(g.getGraphId(), std::move(lg)).first->second;
}

namespace {

void copyBackModified(const SubgraphOp &op, const LoweringContext::LoweredGraph &lg,
                      LoweringContext &ctx, Sequence &prog) {
  for (InIndex i : op.getModifiedInputs())
    prog.add(Copy(lg.inputs[static_cast<std::size_t>(i)], ctx.get(op.inTensor(i))));
}

} // namespace

void growCall(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const CallOp &>(op_);
  const auto &lg = lowerSubgraph(op.getCalledGraph(), ctx);
  for (int i = 0; i < op.inTensorCount(); ++i)
    prog.add(Copy(ctx.get(op.inTensor(i)), lg.inputs[static_cast<std::size_t>(i)]));
  prog.add(poplar::program::Call(lg.function, op.name()));
  for (int i = 0; i < op.outTensorCount(); ++i)
    ctx.set(op.outputs[static_cast<std::size_t>(i)],
            copyOf(ctx, lg.outputs[static_cast<std::size_t>(i)], prog,
                   op.outId(i)));
  copyBackModified(op, lg, ctx, prog);
}

void growLoop(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const LoopOp &>(op_);
  const auto &lg = lowerSubgraph(op.getCalledGraph(), ctx);
  const std::size_t carried = op.outputs.size();
  // The carried values, starting as the inputs.
  std::vector<poplar::Tensor> values;
  for (std::size_t i = 0; i < carried; ++i)
    values.push_back(copyOf(ctx, ctx.get(op.inTensor(static_cast<InIndex>(i))),
                            prog, op.outId(static_cast<OutIndex>(i))));
  Sequence iteration;
  for (std::size_t i = 0; i < lg.inputs.size(); ++i) {
    const auto in = static_cast<InIndex>(i);
    if (i < carried)
      iteration.add(Copy(values[i], lg.inputs[i]));
    else if (op.isInputModified(in))
      // By reference: what one iteration does to it, the next sees.
      prog.add(Copy(ctx.get(op.inTensor(in)), lg.inputs[i]));
    else
      iteration.add(Copy(ctx.get(op.inTensor(in)), lg.inputs[i]));
  }
  iteration.add(poplar::program::Call(lg.function, op.name()));
  for (std::size_t i = 0; i < carried; ++i)
    iteration.add(Copy(lg.outputs[i], values[i]));
  prog.add(poplar::program::Repeat(static_cast<unsigned>(op.getTripCount()),
                                   iteration, op.name()));
  for (std::size_t i = 0; i < carried; ++i)
    ctx.set(op.outputs[i], values[i]);
  copyBackModified(op, lg, ctx, prog);
}

} // namespace popart
