// The Graphcore LSTM on popnn::lstm: the weights input split into the
// input and recurrent weights popnn takes (and the gradients joined
// back); absent biases and initial state are zeros. The gradient runs the
// forward pass again for the intermediates of each step, then
// popnn::lstm::lstmBwdWithWU.
#include "lowering/Lowering.hpp"
#include "ops/PopartLstmOp.hpp"

#include <popnn/Lstm.hpp>

namespace popart {
namespace {

struct LstmOperands {
  popnn::lstm::LstmParams params;
  popnn::lstm::LstmWeights weights;
  popnn::lstm::LstmState initialState;
  poplar::Tensor input;
};

poplar::Tensor zeros(LoweringContext &ctx, const poplar::Type &type,
                     const std::vector<std::size_t> &shape,
                     const std::string &name) {
  poplar::Tensor t = ctx.graph.addConstant(type, shape, 0.0, name);
  ctx.graph.setTileMapping(t, 0);
  return t;
}

// The inputs at the forward op's indices 0 to 3 (the grad op takes them
// at the same ones).
LstmOperands operands(const Op &op, LoweringContext &ctx,
                      bool outputFullSequence) {
  const poplar::Tensor input = ctx.get(op.inTensor(0));
  const poplar::Tensor weights = ctx.get(op.inTensor(1));
  const std::size_t T = input.dim(0), B = input.dim(1), I = input.dim(2),
                    H = weights.dim(2);
  const poplar::Type type = input.elementType();
  LstmOperands r{popnn::lstm::LstmParams(type, B, T, {I, H}), {}, {}, input};
  r.params.outputFullSequence = outputFullSequence;
  r.weights.inputWeights = weights.slice(0, I, 1);
  r.weights.outputWeights = weights.slice(I, I + H, 1);
  r.weights.biases = op.hasInput(2) ? ctx.get(op.inTensor(2))
                                    : zeros(ctx, type, {4, H},
                                            op.name() + "/biases");
  const poplar::Tensor state = op.hasInput(3)
                                   ? ctx.get(op.inTensor(3))
                                   : zeros(ctx, type, {2, B, H},
                                           op.name() + "/initialState");
  r.initialState.output = state[0];
  r.initialState.cellState = state[1];
  return r;
}

} // namespace

void growPopartLstm(const Op &op, LoweringContext &ctx,
                    poplar::program::Sequence &prog) {
  const auto &lstm = static_cast<const PopartLSTMOp &>(op);
  const LstmOperands o = operands(op, ctx, lstm.outputFullSequence);
  const auto [output, cellState] =
      popnn::lstm::lstmFwd(ctx.graph, o.params, o.initialState, o.input,
                           o.weights, nullptr, prog, op.name() + "/lstmFwd");
  ctx.set(op.outputs[0], output);
  if (op.hasOutput(1))
    ctx.set(op.outputs[1], cellState);
}

void growPopartLstmGrad(const Op &op, LoweringContext &ctx,
                        poplar::program::Sequence &prog) {
  const auto &grad = static_cast<const PopartLSTMGradOp &>(op);
  const LstmOperands o = operands(op, ctx, grad.outputFullSequence);
  poplar::Tensor intermediates;
  const poplar::Tensor output =
      popnn::lstm::lstmFwd(ctx.graph, o.params, o.initialState, o.input,
                           o.weights, &intermediates, prog,
                           op.name() + "/recomputed")
          .first;
  const poplar::Tensor outputGrad =
      ctx.get(op.inTensor(PopartLSTMGradOp::getOutputGradInIndex()));
  const poplar::Tensor cellStateGrad =
      ctx.get(op.inTensor(PopartLSTMGradOp::getCellStateGradInIndex()));
  poplar::Tensor inputGrad;
  popnn::lstm::LstmWeights weightsGrad;
  const popnn::lstm::LstmState initialStateGrad = popnn::lstm::lstmBwdWithWU(
      ctx.graph, o.params, prog, o.initialState, intermediates, o.weights,
      o.input, output, outputGrad, &cellStateGrad, &inputGrad, weightsGrad,
      op.name() + "/lstmBwdWithWU");
  ctx.set(op.outputs[0], inputGrad);
  if (op.hasOutput(1))
    ctx.set(op.outputs[1], poplar::concat(weightsGrad.inputWeights,
                                          weightsGrad.outputWeights, 1));
  if (op.hasOutput(2))
    ctx.set(op.outputs[2], weightsGrad.biases);
  if (op.hasOutput(3))
    ctx.set(op.outputs[3], initialStateGrad.getAsTensor());
}

} // namespace popart
