// ScatterReduceOp and its gradient on popops' multi-updates and
// multi-slices. src (the part the index covers) is seen as rows of one
// element with the reduced axis first (after the group dimension); the
// output likewise as axis_size * R rows, R the product of the other
// dimensions. Element (j, r) of src goes to output row index * R + r, or
// past the end (so skipped, or gathered as zero) when its index is out of
// [0, axis_size).
#include "lowering/Lowering.hpp"
#include "ops/ScatterReduceOp.hpp"

#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>

#include <limits>

namespace popart {
namespace pe = popops::expr;
namespace {

// The row layout of one scatter-reduce (forward or gradient).
struct ScatterRows {
  bool grouped;
  unsigned axis, lead; // lead: where the axis goes (after the groups)
  std::size_t groups, rows, outRows, perRow;
  std::vector<std::size_t> used, out;

  ScatterRows(int64_t axis_, int64_t axisSize, int64_t groupSize,
              const Shape &usedShape)
      : grouped(groupSize > 1), axis(unsigned(axis_)), lead(grouped ? 1 : 0),
        groups(std::size_t(groupSize)), used(dims(usedShape)) {
    out = used;
    out[axis] = std::size_t(axisSize);
    perRow = 1;
    for (std::size_t d = 0; d < used.size(); ++d)
      if (d != axis && !(grouped && d == 0))
        perRow *= used[d];
    rows = used[axis] * perRow;
    outRows = out[axis] * perRow;
  }
  // A tensor of `shape` (used or out) as [groups?, n, 1].
  poplar::Tensor toRows(const poplar::Tensor &t, std::size_t n) const {
    const poplar::Tensor r = t.dimRoll(axis, lead);
    return grouped ? r.reshape({groups, n, 1}) : r.reshape({n, 1});
  }
  // Rows back to `shape`.
  poplar::Tensor fromRows(const poplar::Tensor &rowsT,
                          const std::vector<std::size_t> &shape) const {
    std::vector<std::size_t> rolled = shape;
    rolled.erase(rolled.begin() + axis);
    rolled.insert(rolled.begin() + lead, shape[axis]);
    return rowsT.reshape(rolled).dimRoll(lead, axis);
  }
  // Slices of one row for the multi-updates: [groups?, k, 1, 1].
  static poplar::Tensor asSlices(const poplar::Tensor &rowsT) {
    return rowsT.expand({rowsT.rank()});
  }
};

// UNSIGNED_INT offsets [groups?, rows, 1]: the output row of each element.
poplar::Tensor outputRows(LoweringContext &ctx, const Op &op,
                          const ScatterRows &s, const Shape &indexShape,
                          poplar::program::Sequence &prog) {
  poplar::Tensor idx =
      castTo(ctx, ctx.get(op.inTensor(1)), poplar::INT, prog, op.name())
          .reshape(dims(indexShape));
  for (unsigned d = 0; d < s.used.size(); ++d)
    if (idx.dim(d) != s.used[d])
      idx = idx.broadcast(unsigned(s.used[d]), d);
  idx = s.toRows(idx, s.rows);
  std::vector<int> position(s.rows);
  for (std::size_t k = 0; k < s.rows; ++k)
    position[k] = int(k % s.perRow);
  poplar::Tensor r = hostConstant(ctx, poplar::INT, {s.rows, 1}, position,
                                  op.name() + "/position");
  if (s.grouped)
    r = r.expand({0}).broadcast(unsigned(s.groups), 0);
  const int perRow = int(s.perRow), axisSize = int(s.out[s.axis]);
  const poplar::Tensor rowOf = popops::map(
      ctx.graph,
      pe::Select(pe::_1 * pe::Const(perRow) + pe::_2,
                 pe::Const(axisSize * perRow),
                 pe::And(pe::Gte(pe::_1, pe::Const(0)),
                         pe::Lt(pe::_1, pe::Const(axisSize)))),
      {idx, r}, prog, op.name() + "/rows");
  return popops::cast(ctx.graph, rowOf, poplar::UNSIGNED_INT, prog,
                      op.name() + "/rows");
}

// The gathered rows of `t` (out-shaped) at the offsets, as [groups?, rows, 1].
poplar::Tensor gatherRows(LoweringContext &ctx, const ScatterRows &s,
                          const poplar::Tensor &t, const poplar::Tensor &rowOf,
                          poplar::program::Sequence &prog,
                          const std::string &name) {
  const poplar::Tensor rowsT = s.toRows(t, s.outRows);
  const poplar::Tensor g =
      s.grouped ? popops::groupedMultiSlice(ctx.graph, rowsT, rowOf, {0}, {1},
                                            prog, popops::SlicePlan(), {}, name)
                : popops::multiSlice(ctx.graph, rowsT, rowOf, {0}, {1}, prog,
                                     popops::SlicePlan(), {}, name);
  return s.grouped ? g.reshape({s.groups, s.rows, 1}) : g.reshape({s.rows, 1});
}

// The used part of src (the leading part when the index is smaller).
poplar::Tensor usedPart(const poplar::Tensor &t, const ScatterRows &s) {
  return t.slice(std::vector<std::size_t>(s.used.size(), 0), s.used);
}

} // namespace

void growScatterReduce(const Op &op, LoweringContext &ctx,
                       poplar::program::Sequence &prog) {
  const auto &sr = static_cast<const ScatterReduceOp &>(op);
  const ScatterRows s(sr.axis, sr.axisSize, sr.groupSize, sr.usedShape);
  const poplar::Tensor src = usedPart(ctx.get(op.inTensor(0)), s);
  const poplar::Type type = src.elementType();
  const poplar::Tensor rowOf = outputRows(ctx, op, s, sr.indexShape, prog);
  const bool isMin = sr.reduction == ScatterReduction::Min;
  const bool initial = op.hasInput(2);

  poplar::Tensor out = ctx.addLinearVariable(type, s.out, op.name());
  if (initial) {
    prog.add(poplar::program::Copy(ctx.get(op.inTensor(2)), out));
    if (isMin) // min(a, b) = -max(-a, -b)
      popops::mapInPlace(ctx.graph, -pe::_1, {out}, prog, op.name());
  } else if (sr.reduction == ScatterReduction::Max || isMin) {
    popops::fill(ctx.graph, out, prog,
                 type == poplar::INT
                     ? double(std::numeric_limits<int>::lowest())
                     : -std::numeric_limits<double>::infinity(),
                 op.name());
  } else {
    popops::fill(ctx.graph, out, prog,
                 sr.reduction == ScatterReduction::Mul ? 1.0 : 0.0, op.name());
  }
  const poplar::Tensor update =
      isMin ? popops::map(ctx.graph, -pe::_1, {src}, prog, op.name()) : src;
  const poplar::Tensor t = s.toRows(out, s.outRows);
  const poplar::Tensor slices = ScatterRows::asSlices(s.toRows(update, s.rows));
  const popops::SlicePlan plan;
  const std::string &name = op.name();
  switch (sr.reduction) {
  case ScatterReduction::Sum: {
    const poplar::Tensor one = scalarConstant(ctx, type, 1.0, name + "/one");
    if (s.grouped)
      popops::groupedMultiUpdateAdd(ctx.graph, t, slices, rowOf, one, {0}, {1},
                                    prog, plan, {}, name);
    else
      popops::multiUpdateAdd(ctx.graph, t, slices, rowOf, one, {0}, {1}, prog,
                             plan, {}, name);
    break;
  }
  case ScatterReduction::Max:
  case ScatterReduction::Min:
    if (s.grouped)
      popops::groupedMultiUpdateMax(ctx.graph, t, slices, rowOf, {0}, {1},
                                    prog, plan, {}, name);
    else
      popops::multiUpdateMax(ctx.graph, t, slices, rowOf, {0}, {1}, prog, plan,
                             {}, name);
    break;
  case ScatterReduction::Mul:
    if (s.grouped)
      popops::groupedMultiUpdateMul(ctx.graph, t, slices, rowOf, {0}, {1},
                                    prog, plan, {}, name);
    else
      popops::multiUpdateMul(ctx.graph, t, slices, rowOf, {0}, {1}, prog, plan,
                             {}, name);
    break;
  case ScatterReduction::None:
    if (s.grouped)
      popops::groupedMultiUpdate(ctx.graph, t, slices, rowOf, {0}, {1}, prog,
                                 plan, {}, name);
    else
      popops::multiUpdate(ctx.graph, t, slices, rowOf, {0}, {1}, prog, plan,
                          {}, name);
    break;
  }
  if (!initial &&
      (sr.reduction == ScatterReduction::Max || isMin)) {
    // Output elements nothing reached are 0, not the fill value.
    poplar::Tensor reached =
        ctx.addLinearVariable(type, s.out, name + "/reached");
    popops::zero(ctx.graph, reached, prog, name);
    poplar::Tensor ones = ctx.addLinearVariable(type, {s.rows}, name + "/ones");
    popops::fill(ctx.graph, ones, prog, 1.0, name);
    const poplar::Tensor onesRows =
        s.grouped ? ones.reshape({1, s.rows, 1, 1})
                        .broadcast(unsigned(s.groups), 0)
                  : ones.reshape({s.rows, 1, 1});
    const poplar::Tensor reachedRows = s.toRows(reached, s.outRows);
    if (s.grouped)
      popops::groupedMultiUpdate(ctx.graph, reachedRows, onesRows, rowOf, {0},
                                 {1}, prog, plan, {}, name);
    else
      popops::multiUpdate(ctx.graph, reachedRows, onesRows, rowOf, {0}, {1},
                          prog, plan, {}, name);
    const pe::Const zero =
        type == poplar::INT ? pe::Const(0) : pe::Const(0.0f);
    popops::mapInPlace(ctx.graph,
                       pe::Select(pe::_1, zero, pe::Gt(pe::_2, zero)),
                       {out, reached}, prog, name);
  }
  if (isMin)
    popops::mapInPlace(ctx.graph, -pe::_1, {out}, prog, name);
  ctx.set(*op.outputs[0], out);
}

void growScatterReduceGrad(const Op &op, LoweringContext &ctx,
                           poplar::program::Sequence &prog) {
  const auto &gr = static_cast<const ScatterReduceGradOp &>(op);
  const ScatterRows s(gr.axis, gr.axisSize, gr.groupSize, gr.usedShape);
  const std::string &name = op.name();
  const poplar::Tensor gradOut = ctx.get(op.inTensor(0));
  const poplar::Tensor src = usedPart(ctx.get(op.inTensor(2)), s);
  const poplar::Tensor fwdOut = ctx.get(op.inTensor(3));
  const poplar::Tensor rowOf = outputRows(ctx, op, s, gr.indexShape, prog);
  const poplar::Tensor srcRows = s.toRows(src, s.rows);

  // The gradient of each used src element: the output gradient where it
  // went, times its share of the result.
  poplar::Tensor g = gatherRows(ctx, s, gradOut, rowOf, prog, name + "/grad");
  switch (gr.reduction) {
  case ScatterReduction::Max:
  case ScatterReduction::Min: {
    const poplar::Tensor o = gatherRows(ctx, s, fwdOut, rowOf, prog, name);
    popops::mapInPlace(ctx.graph,
                       pe::Select(pe::_1, pe::Const(0.0f), pe::Equal(pe::_2, pe::_3)),
                       {g, o, srcRows}, prog, name);
    break;
  }
  case ScatterReduction::Mul: {
    const poplar::Tensor o = gatherRows(ctx, s, fwdOut, rowOf, prog, name);
    popops::mapInPlace(ctx.graph, pe::_1 * pe::_2 / pe::_3, {g, o, srcRows},
                       prog, name);
    break;
  }
  default:
    break;
  }
  const auto &srcShape = op.outputs[0]->info.shape();
  poplar::Tensor gradSrc = s.fromRows(g, s.used);
  if (dims(srcShape) != s.used) {
    // The src elements past the index have no gradient.
    poplar::Tensor full = ctx.addLinearVariable(gradSrc.elementType(),
                                                dims(srcShape), name + "/src");
    popops::zero(ctx.graph, full, prog, name);
    prog.add(poplar::program::Copy(gradSrc, usedPart(full, s)));
    gradSrc = full;
  }
  ctx.set(*op.outputs[0], gradSrc);
  if (!gr.hasInitialValues || !op.hasOutput(1))
    return;

  // The initial values' gradient: all of it for a sum, none where a value
  // was written over it, where it is the maximum/minimum, its share of the
  // product.
  const poplar::Tensor initial = ctx.get(op.inTensor(4));
  poplar::Tensor gi;
  switch (gr.reduction) {
  case ScatterReduction::Sum:
    gi = poputil::duplicate(ctx.graph, gradOut, prog, name + "/initial");
    break;
  case ScatterReduction::None: {
    gi = poputil::duplicate(ctx.graph, gradOut, prog, name + "/initial");
    poplar::Tensor zeros =
        ctx.addLinearVariable(gradOut.elementType(), {s.rows}, name + "/zeros");
    popops::zero(ctx.graph, zeros, prog, name);
    const poplar::Tensor zeroRows =
        s.grouped ? zeros.reshape({1, s.rows, 1, 1})
                        .broadcast(unsigned(s.groups), 0)
                  : zeros.reshape({s.rows, 1, 1});
    const poplar::Tensor giRows = s.toRows(gi, s.outRows);
    if (s.grouped)
      popops::groupedMultiUpdate(ctx.graph, giRows, zeroRows, rowOf, {0}, {1},
                                 prog, popops::SlicePlan(), {}, name);
    else
      popops::multiUpdate(ctx.graph, giRows, zeroRows, rowOf, {0}, {1}, prog,
                          popops::SlicePlan(), {}, name);
    break;
  }
  case ScatterReduction::Max:
  case ScatterReduction::Min:
    gi = popops::map(ctx.graph,
                     pe::Select(pe::_1, pe::Const(0.0f), pe::Equal(pe::_2, pe::_3)),
                     {gradOut, fwdOut, initial}, prog, name);
    break;
  case ScatterReduction::Mul:
    gi = popops::map(ctx.graph, pe::_1 * pe::_2 / pe::_3,
                     {gradOut, fwdOut, initial}, prog, name);
    break;
  }
  ctx.set(*op.outputs[1], gi);
}

} // namespace popart
