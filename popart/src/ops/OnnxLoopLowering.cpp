// OnnxLoopOp and ScanOp: the body is lowered once into a poplar function
// (SubgraphLowering.hpp) and called from a poplar loop program, so the
// program does not grow with the number of iterations:
//  - Loop: RepeatWhileTrue. Its condition program computes
//    (iteration < M) && cond on the device from the iteration counter, M
//    (a constant, or the tensor given) and the condition the body last
//    gave. Each iteration copies the counter, the condition and the
//    carried values into the body's inputs, calls it, copies its outputs
//    back, writes the scan outputs' row `iteration` (popops dynamicUpdate)
//    and counts.
//  - Scan: Repeat of the sequence length. Each iteration takes element t
//    (or L-1-t, reversed) of every scan input with popops dynamicSlice and
//    writes the scan outputs' element with dynamicUpdate. Opset 8's batch
//    axis is an outer Repeat over the batch entries; its sequence_lens
//    skips (poplar If) each entry's steps past its length.
// The enclosing graph's tensors the body reads are copied into its inputs
// once, before the loop.
#include "ir/Graph.hpp"
#include "lowering/Lowering.hpp"
#include "ops/OnnxLoopOp.hpp"
#include "ops/ScanOp.hpp"
#include "ops/SubgraphLowering.hpp"

#include <popart/error.hpp>

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

namespace {

namespace pe = popops::expr;
using poplar::program::Copy;
using poplar::program::Sequence;

// An UNSIGNED_INT counter set to 0 by `prog`, and a program counting it on.
poplar::Tensor newCounter(LoweringContext &ctx, Sequence &prog,
                          const std::string &name) {
  poplar::Tensor counter =
      ctx.addLinearVariable(poplar::UNSIGNED_INT, {}, name);
  popops::zero(ctx.graph, counter, prog, name);
  return counter;
}

void countOn(LoweringContext &ctx, const poplar::Tensor &counter,
             Sequence &prog, const std::string &name) {
  popops::mapInPlace(ctx.graph, pe::_1 + pe::Const(1u), {counter}, prog, name);
}

// Element `offset` ([1] UNSIGNED_INT) of `t` along `axis`, the axis left
// out.
poplar::Tensor elementOf(LoweringContext &ctx, const poplar::Tensor &t,
                         const poplar::Tensor &offset, std::size_t axis,
                         Sequence &prog, const std::string &name) {
  return popops::dynamicSlice(ctx.graph, t, offset, {axis}, {1}, prog, name)
      .squeeze({axis});
}

// Writes `element` at `offset` along `axis` of `t`.
void writeElement(LoweringContext &ctx, const poplar::Tensor &t,
                  const poplar::Tensor &element, const poplar::Tensor &offset,
                  std::size_t axis, Sequence &prog, const std::string &name) {
  popops::dynamicUpdate(ctx.graph, t, element.expand({axis}), offset, {axis},
                        {1}, prog, name);
}

// Copies op inputs [first, end) into the body's inputs from `bodyFirst`.
void copyImplicitInputs(const Op &op, InIndex first,
                        const LoweringContext::LoweredGraph &lg,
                        std::size_t bodyFirst, LoweringContext &ctx,
                        Sequence &prog) {
  for (InIndex i = first; i < op.inTensorCount(); ++i)
    prog.add(Copy(ctx.get(op.inTensor(i)),
                  lg.inputs[bodyFirst + static_cast<std::size_t>(i - first)]));
}

} // namespace

void growOnnxLoop(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const OnnxLoopOp &>(op_);
  const auto &lg = lowerSubgraph(op.getBodyGraph(), ctx);
  const std::string name = op.name();
  const auto carried = static_cast<std::size_t>(op.getNumCarried());
  const auto scans = static_cast<std::size_t>(op.getNumScanOutputs());
  const InIndex firstInput = OnnxLoopOp::getFirstInputInIndex();
  const bool hasM = op.hasInput(OnnxLoopOp::getMaximumTripCountInIndex());
  const bool hasCond = op.hasInput(OnnxLoopOp::getTerminationConditionInIndex());

  poplar::Tensor iteration = newCounter(ctx, prog, name + "/iteration");
  poplar::Tensor cond = ctx.addLinearVariable(poplar::BOOL, {}, name + "/cond");
  prog.add(Copy(hasCond ? ctx.get(op.inTensor(
                                      OnnxLoopOp::getTerminationConditionInIndex()))
                              .reshape({})
                        : scalarConstant(ctx, poplar::BOOL, 1, name + "/true"),
                cond));
  poplar::Tensor maxTrips;
  if (op.getConstTripCount() >= 0)
    maxTrips = scalarConstant(ctx, poplar::UNSIGNED_INT,
                              static_cast<double>(op.getConstTripCount()),
                              name + "/M");
  else if (hasM)
    // M read at run time; a negative one runs no iteration.
    maxTrips = popops::map(
        ctx.graph,
        pe::Cast(pe::Max(pe::_1, pe::Const(0)), poplar::UNSIGNED_INT),
        {ctx.get(op.inTensor(OnnxLoopOp::getMaximumTripCountInIndex()))
             .reshape({})},
        prog, name + "/M");

  std::vector<poplar::Tensor> values, scanOutputs;
  for (std::size_t c = 0; c < carried; ++c)
    values.push_back(copyOf(
        ctx, ctx.get(op.inTensor(firstInput + static_cast<InIndex>(c))), prog,
        op.outId(static_cast<OutIndex>(c))));
  for (std::size_t k = 0; k < scans; ++k) {
    const auto out = static_cast<OutIndex>(carried + k);
    scanOutputs.push_back(
        ctx.addLinearVariable(deviceType(op.outInfo(out).dataType()),
                              dims(op.outShape(out)), op.outId(out)));
    popops::zero(ctx.graph, scanOutputs.back(), prog, op.outId(out));
  }
  copyImplicitInputs(op, firstInput + static_cast<InIndex>(carried), lg,
                     2 + carried, ctx, prog);

  // Whether to run another iteration.
  Sequence condProg;
  poplar::Tensor predicate;
  if (hasM && hasCond)
    predicate = popops::map(ctx.graph, pe::And(pe::Lt(pe::_1, pe::_2), pe::_3),
                            {iteration, maxTrips, cond}, condProg,
                            name + "/continue");
  else if (hasM)
    predicate = popops::map(ctx.graph, pe::Lt(pe::_1, pe::_2),
                            {iteration, maxTrips}, condProg,
                            name + "/continue");
  else
    predicate = cond;

  Sequence iterationProg;
  iterationProg.add(Copy(
      popops::cast(ctx.graph, iteration, lg.inputs[0].elementType(),
                   iterationProg, name + "/iteration_count"),
      lg.inputs[0]));
  iterationProg.add(Copy(cond, lg.inputs[1].reshape({})));
  for (std::size_t c = 0; c < carried; ++c)
    iterationProg.add(Copy(values[c], lg.inputs[2 + c]));
  iterationProg.add(poplar::program::Call(lg.function, name));
  // Without a condition input the body's condition output is ignored.
  if (hasCond)
    iterationProg.add(Copy(lg.outputs[0].reshape({}), cond));
  for (std::size_t c = 0; c < carried; ++c)
    iterationProg.add(Copy(lg.outputs[1 + c], values[c]));
  for (std::size_t k = 0; k < scans; ++k)
    writeElement(ctx, scanOutputs[k], lg.outputs[1 + carried + k],
                 iteration.reshape({1}), 0, iterationProg, name + "/scan");
  countOn(ctx, iteration, iterationProg, name);
  prog.add(poplar::program::RepeatWhileTrue(condProg, predicate, iterationProg,
                                            name));

  for (std::size_t c = 0; c < carried; ++c)
    ctx.set(op.outputs[c], values[c]);
  for (std::size_t k = 0; k < scans; ++k)
    ctx.set(op.outputs[carried + k], scanOutputs[k]);
}

namespace {

// Scans one batch entry: `states` (tensors of their own) are updated and
// `outputs` written, element by element. With `limit` (Scan-8's
// sequence_lens entry, an INT scalar checked to be in [1, length]), the
// steps from `limit` on are skipped, reversed inputs are read from element
// limit - 1 down, and the outputs' elements past it are 0.
void scanEntry(const ScanOp &op, const LoweringContext::LoweredGraph &lg,
               LoweringContext &ctx, const std::vector<poplar::Tensor> &states,
               const std::vector<poplar::Tensor> &inputs,
               const std::vector<poplar::Tensor> &outputs, Sequence &prog,
               const poplar::Tensor &limit = poplar::Tensor()) {
  const std::string name = op.name();
  const auto length = static_cast<unsigned>(op.getSequenceLength());
  const bool limited = limit.valid();
  const std::size_t numStates = states.size();
  poplar::Tensor t = newCounter(ctx, prog, name + "/t");
  if (limited)
    for (const auto &out : outputs)
      popops::zero(ctx.graph, out, prog, name + "/scan");
  Sequence step;
  const poplar::Tensor forward = t.reshape({1});
  poplar::Tensor backward;
  auto offset = [&](bool reversed) {
    if (!reversed)
      return forward;
    if (!backward.valid())
      backward =
          (limited ? popops::map(ctx.graph,
                                 pe::Cast(pe::_2, poplar::UNSIGNED_INT) -
                                     pe::Const(1u) - pe::_1,
                                 {t, limit}, step, name + "/reversed_t")
                   : popops::map(ctx.graph, pe::Const(length - 1) - pe::_1,
                                 {t}, step, name + "/reversed_t"))
              .reshape({1});
    return backward;
  };
  for (std::size_t s = 0; s < numStates; ++s)
    step.add(Copy(states[s], lg.inputs[s]));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const int index = static_cast<int>(i);
    step.add(Copy(elementOf(ctx, inputs[i], offset(op.isInputReversed(index)),
                            static_cast<std::size_t>(op.getInputAxis(index)),
                            step, name + "/element"),
                  lg.inputs[numStates + i]));
  }
  step.add(poplar::program::Call(lg.function, name));
  for (std::size_t s = 0; s < numStates; ++s)
    step.add(Copy(lg.outputs[s], states[s]));
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    const int index = static_cast<int>(j);
    writeElement(ctx, outputs[j], lg.outputs[numStates + j],
                 offset(op.isOutputReversed(index)),
                 static_cast<std::size_t>(op.getOutputAxis(index)), step,
                 name + "/scan");
  }
  Sequence iteration;
  if (limited) {
    const poplar::Tensor running = popops::map(
        ctx.graph, pe::Lt(pe::_1, pe::Cast(pe::_2, poplar::UNSIGNED_INT)),
        {t, limit}, iteration, name + "/running");
    iteration.add(poplar::program::If(running, step, Sequence()));
  } else {
    iteration.add(step);
  }
  countOn(ctx, t, iteration, name);
  prog.add(poplar::program::Repeat(length, iteration, name));
}

std::vector<std::size_t> withoutBatch(const Shape &shape) {
  return dims(Shape(shape.begin() + 1, shape.end()));
}

} // namespace

void growScan(const Op &op_, LoweringContext &ctx, Sequence &prog) {
  const auto &op = dynamic_cast<const ScanOp &>(op_);
  const auto &lg = lowerSubgraph(op.getBodyGraph(), ctx);
  const std::string name = op.name();
  const InIndex first = op.getFirstStateInIndex();
  const int numStates = op.getNumStates();
  const int numScanInputs = op.getNumScanInputs();
  const int numScanOutputs = op.getNumScanOutputs();
  copyImplicitInputs(op, first + numStates + numScanInputs, lg,
                     static_cast<std::size_t>(numStates + numScanInputs), ctx,
                     prog);
  std::vector<poplar::Tensor> states, inputs, outputs;
  if (!op.hasBatchAxis()) {
    for (int s = 0; s < numStates; ++s)
      states.push_back(copyOf(ctx, ctx.get(op.inTensor(first + s)), prog,
                              op.outId(s)));
    for (int i = 0; i < numScanInputs; ++i)
      inputs.push_back(ctx.get(op.inTensor(first + numStates + i)));
    for (int j = 0; j < numScanOutputs; ++j) {
      const OutIndex out = numStates + j;
      outputs.push_back(
          ctx.addLinearVariable(deviceType(op.outInfo(out).dataType()),
                                dims(op.outShape(out)), op.outId(out)));
    }
    scanEntry(op, lg, ctx, states, inputs, outputs, prog);
    for (int s = 0; s < numStates; ++s)
      ctx.set(op.outputs[static_cast<std::size_t>(s)], states[s]);
    for (int j = 0; j < numScanOutputs; ++j)
      ctx.set(op.outputs[static_cast<std::size_t>(numStates + j)], outputs[j]);
    return;
  }

  // Opset 8: each batch entry b in turn, its states and elements sliced
  // out of axis 0 and its results written back there.
  const auto batch = static_cast<unsigned>(op.inShape(first)[0]);
  std::vector<poplar::Tensor> results;
  for (int o = 0; o < op.outTensorCount(); ++o)
    results.push_back(
        ctx.addLinearVariable(deviceType(op.outInfo(o).dataType()),
                              dims(op.outShape(o)), op.outId(o)));
  poplar::Tensor b = newCounter(ctx, prog, name + "/b");
  const poplar::Tensor offset = b.reshape({1});
  Sequence entry;
  for (int s = 0; s < numStates; ++s) {
    const poplar::Tensor &initial = ctx.get(op.inTensor(first + s));
    states.push_back(ctx.addLinearVariable(initial.elementType(),
                                           withoutBatch(op.inShape(first + s)),
                                           name + "/state"));
    entry.add(Copy(elementOf(ctx, initial, offset, 0, entry, name + "/entry"),
                   states.back()));
  }
  for (int i = 0; i < numScanInputs; ++i)
    inputs.push_back(elementOf(ctx, ctx.get(op.inTensor(first + numStates + i)),
                               offset, 0, entry, name + "/entry"));
  for (int j = 0; j < numScanOutputs; ++j)
    outputs.push_back(ctx.addLinearVariable(
        results[numStates + j].elementType(),
        withoutBatch(op.outShape(numStates + j)), name + "/scan_entry"));
  poplar::Tensor limit;
  if (op.hasSequenceLens()) {
    limit = elementOf(ctx, ctx.get(op.inTensor(0)), offset, 0, entry,
                      name + "/sequence_lens");
    const poplar::Tensor outside = popops::map(
        ctx.graph,
        pe::Or(pe::Lt(pe::_1, pe::Const(1)),
               pe::Gt(pe::_1, pe::Const(static_cast<int>(
                                  op.getSequenceLength())))),
        {limit}, entry, name + "/sequence_lens");
    entry.add(poplar::program::AbortOnCondition(
        outside, "Scan '" + name + "': an entry of sequence_lens ('" +
                     op.inId(0) + "') is outside [1, " +
                     std::to_string(op.getSequenceLength()) + "]"));
  }
  scanEntry(op, lg, ctx, states, inputs, outputs, entry, limit);
  for (int s = 0; s < numStates; ++s)
    writeElement(ctx, results[s], states[s], offset, 0, entry, name);
  for (int j = 0; j < numScanOutputs; ++j)
    writeElement(ctx, results[numStates + j], outputs[j], offset, 0, entry,
                 name);
  countOn(ctx, b, entry, name);
  prog.add(poplar::program::Repeat(batch, entry, name));
  for (int o = 0; o < op.outTensorCount(); ++o)
    ctx.set(op.outputs[static_cast<std::size_t>(o)], results[o]);
}

} // namespace popart
