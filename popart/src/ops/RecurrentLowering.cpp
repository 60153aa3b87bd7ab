// RecurrentOp: each direction's cell in a poplar loop over the steps
// (popnn::rnn::Rnn; the sequence length is the input's shape), so the graph
// holds one step whatever the length. The input weighting of every step is
// one poplin matmul before the loop; each step adds the recurrent weighting
// of the previous output (a poplin matmul) and applies the gates as popops
// expressions. Sequence lengths are read on the device: a step at or past
// an entry's length keeps its state and outputs zeros (a reverse direction
// so starts at each entry's last step).
#include "lowering/Lowering.hpp"
#include "ops/RecurrentOp.hpp"

#include <popnn/Rnn.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace pe = popops::expr;

namespace {

pe::Any activate(const RecurrentActivation &a, const pe::Any &x) {
  const auto alpha = pe::Const(a.alpha), beta = pe::Const(a.beta);
  if (a.name == "Sigmoid")
    return pe::Sigmoid(x);
  if (a.name == "Tanh")
    return pe::Tanh(x);
  if (a.name == "Relu")
    return pe::Max(x, pe::Const(0.0f));
  if (a.name == "Softsign")
    return pe::Divide(x, pe::Add(pe::Const(1.0f), pe::Abs(x)));
  if (a.name == "Softplus")
    return pe::Log(pe::Add(pe::Const(1.0f), pe::Exp(x)));
  if (a.name == "Affine")
    return pe::Add(pe::Mul(alpha, x), beta);
  if (a.name == "LeakyRelu")
    return pe::Select(x, pe::Mul(alpha, x), pe::Gte(x, pe::Const(0.0f)));
  if (a.name == "ThresholdedRelu")
    return pe::Select(x, pe::Const(0.0f), pe::Gt(x, alpha));
  if (a.name == "ScaledTanh")
    return pe::Mul(alpha, pe::Tanh(pe::Mul(beta, x)));
  if (a.name == "HardSigmoid")
    return pe::Max(pe::Const(0.0f),
                   pe::Min(pe::Const(1.0f), pe::Add(pe::Mul(alpha, x), beta)));
  // Elu
  return pe::Select(x, pe::Mul(alpha, pe::Sub(pe::Exp(x), pe::Const(1.0f))),
                    pe::Gte(x, pe::Const(0.0f)));
}

struct Cell {
  const RecurrentOp &op;
  LoweringContext &ctx;
  poplar::program::Sequence &prog;
  std::size_t batch, hidden;

  // A pre-activation clipped to [-clip, clip] when clip is set.
  pe::Any clipped(const pe::Any &x) const {
    if (op.clip <= 0)
      return x;
    return pe::Max(pe::Min(x, pe::Const(op.clip)), pe::Const(-op.clip));
  }
  poplar::Tensor zeros(const poplar::Type &type, const std::string &what) const {
    poplar::Tensor z =
        ctx.graph.addVariable(type, {batch, hidden}, op.name() + what);
    poputil::mapTensorLinearly(ctx.graph, z);
    popops::zero(ctx.graph, z, prog, op.name() + what);
    return z;
  }
  poplar::Tensor gate(const poplar::Tensor &t, std::size_t g) const {
    return t.slice(g * hidden, (g + 1) * hidden, 1);
  }
  poplar::Tensor map(const pe::Expr &e, const std::vector<poplar::Tensor> &ts,
                     const std::string &what) const {
    return popops::map(ctx.graph, e, ts, prog, op.name() + what);
  }
};

} // namespace

void growRecurrent(const Op &op, LoweringContext &ctx,
                   poplar::program::Sequence &prog) {
  const auto &rnn = static_cast<const RecurrentOp &>(op);
  const std::string &name = op.name();
  const std::size_t steps = std::size_t(rnn.seqLength),
                    batch = std::size_t(rnn.batchSize),
                    input = std::size_t(rnn.inputSize),
                    hidden = std::size_t(rnn.hiddenSize),
                    gates = std::size_t(rnn.gates());
  Cell cell{rnn, ctx, prog, batch, hidden};
  poplar::Tensor x = ctx.get(op.inTensor(0));
  if (rnn.layout == 1)
    x = x.dimShuffle({1, 0, 2});
  const poplar::Type type = x.elementType();
  // Each entry's length as the data type, [batch, hidden].
  poplar::Tensor lengths;
  if (op.hasInput(4))
    lengths = castTo(ctx, ctx.get(op.inTensor(4)), type, prog, name)
                  .reshape({batch, 1})
                  .broadcast(unsigned(hidden), 1);
  std::vector<poplar::Tensor> ys, lastH, lastC;
  for (int64_t d = 0; d < rnn.directions(); ++d) {
    const auto &act = rnn.activations[std::size_t(d)];
    const poplar::Tensor w = ctx.get(op.inTensor(1))[std::size_t(d)];
    const poplar::Tensor r = ctx.get(op.inTensor(2))[std::size_t(d)];
    // Every step's input weighting [steps, batch, gates * hidden], with the
    // input biases and (but for GRU's hidden gate) the recurrent ones.
    poplar::Tensor xw = lowerMatMul(
        ctx, x.reshape({steps * batch, input}), w.transpose(),
        {int64_t(steps * batch), int64_t(gates * hidden)}, prog, name);
    poplar::Tensor recurrentBias;
    if (op.hasInput(3)) {
      const poplar::Tensor b = ctx.get(op.inTensor(3))[std::size_t(d)];
      poplar::Tensor bias = b.slice(0, gates * hidden);
      recurrentBias = b.slice(gates * hidden, 2 * gates * hidden);
      if (rnn.isGru())
        bias = poplar::concat(
            popops::add(ctx.graph, bias.slice(0, 2 * hidden),
                        recurrentBias.slice(0, 2 * hidden), prog, name),
            bias.slice(2 * hidden, 3 * hidden));
      else
        bias = popops::add(ctx.graph, bias, recurrentBias, prog, name);
      popops::addInPlace(ctx.graph, xw,
                         bias.expand({0}).broadcast(unsigned(steps * batch), 0),
                         prog, name);
    }
    // Each step's tensors mapped a step at a time alike, so that the loop's
    // dynamic slices and updates of a step stay on the tiles where it lies.
    const popnn::rnn::RnnParams params(type, batch, steps, {input, hidden});
    const poplar::Tensor xwSteps = popnn::rnn::createRecurrentTensor(
        ctx.graph, params, unsigned(gates * hidden), 1, name + "/xw");
    prog.add(poplar::program::Copy(xw, xwSteps, false, name + "/xw"));
    xw = xwSteps;
    // The initial states as given (the loop carries copies of them).
    poplar::Tensor h = op.hasInput(5) ? ctx.get(op.inTensor(5))[std::size_t(d)]
                                      : cell.zeros(type, "/h");
    poplar::Tensor c;
    if (rnn.isLstm())
      c = op.hasInput(6) ? ctx.get(op.inTensor(6))[std::size_t(d)]
                         : cell.zeros(type, "/c");
    std::vector<poplar::Tensor> peep;
    if (rnn.isLstm() && op.hasInput(7)) {
      const poplar::Tensor p = ctx.get(op.inTensor(7))[std::size_t(d)];
      for (std::size_t k = 0; k < 3; ++k)
        peep.push_back(p.slice(k * hidden, (k + 1) * hidden)
                           .expand({0})
                           .broadcast(unsigned(batch), 0));
    }
    // The loop carries h (and the LSTM's c); each step reads its input
    // weighting and stores its output.
    const poplar::Tensor y =
        popnn::rnn::createOutputTensor(ctx.graph, params, 1, name + "/Y");
    std::vector<poplar::Tensor> initState = {h};
    if (rnn.isLstm())
      initState.push_back(c);
    auto loopBody = [&](poplar::Graph &graph, const popnn::rnn::TimeStepState &time,
                        const popnn::rnn::RnnBatchwiseFlags &,
                        std::vector<poplar::Tensor> &state,
                        const popnn::rnn::RnnSlice &slice,
                        std::vector<poplar::Tensor> &, poplar::program::Sequence *,
                        const poplar::DebugNameAndId &) {
      poplar::program::Sequence step;
      Cell cell{rnn, ctx, step, batch, hidden};
      const poplar::Tensor in = slice.inputs[0];
      const poplar::Tensor h = state[0];
      const poplar::Tensor c = rnn.isLstm() ? state[1] : poplar::Tensor();
      poplar::Tensor hNew, cNew;
      if (rnn.isGru()) {
        // z, r from the input and h; the hidden gate from r and h.
        const poplar::Tensor hr = lowerMatMul(
            ctx, h, r.slice(0, 2 * hidden).transpose(),
            {int64_t(batch), int64_t(2 * hidden)}, step, name);
        const poplar::Tensor z = cell.map(
            activate(act[0], cell.clipped(pe::Add(pe::_1, pe::_2))),
            {cell.gate(in, 0), cell.gate(hr, 0)}, "/z");
        const poplar::Tensor reset = cell.map(
            activate(act[0], cell.clipped(pe::Add(pe::_1, pe::_2))),
            {cell.gate(in, 1), cell.gate(hr, 1)}, "/r");
        const poplar::Tensor rh = r.slice(2 * hidden, 3 * hidden).transpose();
        // The state's (or the reset-gated state's) product with R_h, with
        // its recurrent bias.
        auto hiddenProduct = [&](const poplar::Tensor &state) {
          poplar::Tensor hw = lowerMatMul(ctx, state, rh,
                                          {int64_t(batch), int64_t(hidden)},
                                          step, name);
          if (recurrentBias.valid())
            popops::addInPlace(ctx.graph, hw,
                               recurrentBias.slice(2 * hidden, 3 * hidden)
                                   .expand({0})
                                   .broadcast(unsigned(batch), 0),
                               step, name);
          return hw;
        };
        poplar::Tensor hh;
        if (rnn.linearBeforeReset) {
          const poplar::Tensor hw = hiddenProduct(h);
          hh = cell.map(activate(act[1], cell.clipped(pe::Add(
                                             pe::_1, pe::Mul(pe::_2, pe::_3)))),
                        {cell.gate(in, 2), reset, hw}, "/hh");
        } else {
          const poplar::Tensor gated = cell.map(pe::Mul(pe::_1, pe::_2),
                                                {reset, h}, "/rh");
          const poplar::Tensor hw = hiddenProduct(gated);
          hh = cell.map(activate(act[1], cell.clipped(pe::Add(pe::_1, pe::_2))),
                        {cell.gate(in, 2), hw}, "/hh");
        }
        hNew = cell.map(pe::Add(pe::Mul(pe::Sub(pe::Const(1.0f), pe::_1),
                                        pe::_2),
                                pe::Mul(pe::_1, pe::_3)),
                        {z, hh, h}, "/H");
      } else {
        const poplar::Tensor hr =
            lowerMatMul(ctx, h, r.transpose(),
                        {int64_t(batch), int64_t(gates * hidden)}, step, name);
        const poplar::Tensor pre =
            popops::add(ctx.graph, in, hr, step, name + "/gates");
        if (!rnn.isLstm()) {
          hNew = cell.map(activate(act[0], cell.clipped(pe::_1)), {pre}, "/H");
        } else {
          // Gates i, o, f, c; peepholes i, o, f.
          auto withPeephole = [&](std::size_t g, int p,
                                  const poplar::Tensor &state) {
            if (peep.empty())
              return cell.map(activate(act[0], cell.clipped(pe::_1)),
                              {cell.gate(pre, g)}, "/gate");
            return cell.map(
                activate(act[0],
                         cell.clipped(pe::Add(pe::_1, pe::Mul(pe::_2, pe::_3)))),
                {cell.gate(pre, g), peep[std::size_t(p)], state}, "/gate");
          };
          const poplar::Tensor i = withPeephole(0, 0, c);
          const poplar::Tensor f =
              rnn.inputForget
                  ? cell.map(pe::Sub(pe::Const(1.0f), pe::_1), {i}, "/f")
                  : withPeephole(2, 2, c);
          const poplar::Tensor candidate =
              cell.map(activate(act[1], cell.clipped(pe::_1)),
                       {cell.gate(pre, 3)}, "/candidate");
          cNew = cell.map(pe::Add(pe::Mul(pe::_1, pe::_2),
                                  pe::Mul(pe::_3, pe::_4)),
                          {f, c, i, candidate}, "/C");
          const poplar::Tensor o = withPeephole(1, 1, cNew);
          hNew = cell.map(pe::Mul(pe::_1, activate(act[2], pe::_2)), {o, cNew},
                          "/H");
        }
      }
      poplar::Tensor out = hNew;
      if (lengths.valid()) {
        // Past its length an entry keeps its state and outputs zeros.
        const poplar::Tensor t = popops::cast(graph, time.counter, type, step,
                                              name + "/step");
        const poplar::Tensor live = cell.map(
            pe::Gt(pe::_1, pe::_2),
            {lengths, t.reshape({1, 1}).broadcast(unsigned(batch), 0)
                          .broadcast(unsigned(hidden), 1)},
            "/live");
        out = cell.map(pe::Select(pe::_1, pe::Const(0.0f), pe::_2),
                       {hNew, live}, "/Y");
        hNew = cell.map(pe::Select(pe::_1, pe::_2, pe::_3), {hNew, h, live}, "/h");
        if (rnn.isLstm())
          cNew = cell.map(pe::Select(pe::_1, pe::_2, pe::_3), {cNew, c, live},
                          "/c");
      }
      step.add(poplar::program::Copy(out, slice.outputs[0], false, name + "/Y"));
      step.add(poplar::program::Copy(hNew, state[0], false, name + "/h"));
      if (rnn.isLstm())
        step.add(poplar::program::Copy(cNew, state[1], false, name + "/c"));
      return step;
    };
    poplar::OptionFlags rnnOptions;
    const std::vector<poplar::Tensor> last = popnn::rnn::Rnn(
        ctx.graph, params, rnn.reversed(d), initState, {}, {xw}, nullptr, nullptr, {y}, {}, prog,
        loopBody, 1, rnnOptions, name);
    h = last[0];
    if (rnn.isLstm())
      c = last[1];
    ys.push_back(y.reshape({steps, 1, batch, hidden}));
    lastH.push_back(h.expand({0}));
    if (rnn.isLstm())
      lastC.push_back(c.expand({0}));
  }
  // [dirs, batch, hidden], or [batch, dirs, hidden] for layout 1.
  auto state = [&](const std::vector<poplar::Tensor> &parts) {
    poplar::Tensor t = poplar::concat(parts, 0);
    if (rnn.layout == 1)
      t = t.dimShuffle({1, 0, 2});
    return copyOf(ctx, t, prog, name);
  };
  if (op.hasOutput(0)) {
    poplar::Tensor y = poplar::concat(ys, 1);
    if (rnn.layout == 1)
      y = y.dimShuffle({2, 0, 1, 3});
    ctx.set(op.outputs[0], copyOf(ctx, y, prog, name + "/Y"));
  }
  if (op.hasOutput(1))
    ctx.set(op.outputs[1], state(lastH));
  if (rnn.isLstm() && op.hasOutput(2))
    ctx.set(op.outputs[2], state(lastC));
}

} // namespace popart
