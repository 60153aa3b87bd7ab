// multiSlice and the multiUpdate family, plain and grouped: the offsets
// become row indices at run time (SliceRows.hpp), then one vertex per tile
// moves or combines the columns that tile holds of every selected row.
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>

#include "Messages.hpp"
#include "OperationVertexName.hpp"
#include "SliceRows.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <numeric>

namespace popops {
namespace {

using poplar::Tensor;
using namespace slicing;

// Offsets known when the graph is built are checked then, as the
// original's are: one past the end of the dimension is an error unless the
// options ask for out-of-bound indices to be remapped.
void checkStaticOffsets(const Tensor &t, poplar::ArrayRef<unsigned> offsets,
                        std::size_t dim, const poplar::OptionFlags &options,
                        const std::string &op) {
  if (dim >= t.rank())
    throw poputil::poplibs_error(op + ": dimension " + std::to_string(dim) +
                                 " of '" + t.getDebugStr() + "' of rank " +
                                 std::to_string(t.rank()) + " does not exist");
  for (const auto &[key, value] : options)
    if (key == "remapOutOfBoundIndices" && value == "true")
      return;
  for (unsigned offset : offsets)
    if (offset >= t.dim(dim))
      throw poputil::poplibs_error(
          op + ": offset " + std::to_string(offset) + " is past the end of "
          "dimension " + std::to_string(dim) + " (of size " +
          std::to_string(t.dim(dim)) + ") of '" + t.getDebugStr() + "'");
}

/// One multi-slice or multi-update call: t as [G, group shape], offsets as
/// [G, K, dims.size()].
struct MultiCall {
  std::string op;
  Tensor t;       // [G, ...]
  Tensor offsets; // [G, K, nd]
  bool grouped = false;
  OutOfRange mode = OutOfRange::Skip;
  std::size_t groups = 1;
  std::size_t k = 0;
  std::vector<std::size_t> dims, sizes;

  /// [G, K, slice shape].
  std::vector<std::size_t> sliceShape() const {
    std::vector<std::size_t> shape{groups, k};
    auto group = t.shape();
    group.erase(group.begin());
    const auto slice = slicedShape(group, dims, sizes);
    shape.insert(shape.end(), slice.begin(), slice.end());
    return shape;
  }
};

MultiCall makeCall(const std::string &op, const Tensor &t,
                   const Tensor &offsets, const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes, bool grouped,
                   const SlicePlan &plan, bool slice,
                   const poplar::OptionFlags &options = {}) {
  MultiCall c;
  c.op = op;
  c.mode = sliceOptions(op, options);
  c.dims = dims;
  c.sizes = sizes;
  c.grouped = grouped;
  checkType(op, t);
  if (grouped && t.rank() == 0)
    throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                 "' has no group dimension");
  c.t = grouped ? t : t.expand({0});
  c.groups = c.t.dim(0);
  if (grouped) {
    // dims index a group's dimensions: check them against t's, one further.
    std::vector<std::size_t> tDims;
    for (auto d : dims)
      tDims.push_back(d + 1);
    checkDims(op, t, tDims, sizes);
  } else {
    checkDims(op, t, dims, sizes);
  }
  if (offsets.elementType() != poplar::UNSIGNED_INT &&
      offsets.elementType() != poplar::INT)
    throw poputil::poplibs_error(op + ": offsets '" + offsets.getDebugStr() +
                                 "' must be UNSIGNED_INT, not " +
                                 offsets.elementType().toString().str());
  // Offsets [K, nd] ([K] for one dimension); grouped [G, K, nd].
  const std::size_t nd = dims.size();
  const std::size_t lead = grouped ? 1 : 0;
  const bool shapeOk =
      nd != 0 && offsets.rank() > lead &&
      (!grouped || offsets.dim(0) == c.groups) &&
      (offsets.rank() == lead + 1 ? nd == 1
                                  : offsets.dim(offsets.rank() - 1) == nd) &&
      (c.groups == 0 || offsets.numElements() % (c.groups * nd) == 0);
  if (!shapeOk)
    throw poputil::poplibs_error(
        op + ": offsets '" + offsets.getDebugStr() + "' " +
        shapeString(offsets.shape()) + " should be [" +
        (grouped ? std::to_string(c.groups) + ", " : std::string()) + "K, " +
        std::to_string(nd) + "]");
  c.k = c.groups == 0 ? 0 : offsets.numElements() / (c.groups * nd);
  c.offsets = offsets.reshape({c.groups, c.k, nd});
  checkPlanGroups(op, plan, c.groups, false);
  checkPlanUse(op, plan, slice);
  return c;
}

/// The row indices the call's offsets select, as a flat tensor.
Tensor callRows(poplar::Graph &graph, const MultiCall &c,
                poplar::program::Sequence &prog) {
  std::vector<std::size_t> dimSizes;
  for (auto d : c.dims)
    dimSizes.push_back(c.t.dim(d + 1));
  return rowIndices(graph, c.offsets, c.groups, c.k, dimSizes, c.sizes, c.mode,
                    prog, c.op);
}

Tensor multiSliceImpl(poplar::Graph &graph, const MultiCall &c,
                      poplar::program::Sequence &prog) {
  Tensor out =
      graph.addVariable(c.t.elementType(), c.sliceShape(), {c.op + "/out"});
  // The slices' columns on the tiles holding those columns of t.
  mapColumnsLike(graph, rowsView(out, 2, c.dims), rowsView(c.t, 1, c.dims));
  if (out.numElements() == 0)
    return out;
  const Tensor rows = callRows(graph, c, prog);
  poplar::ComputeSet cs = graph.addComputeSet({c.op});
  addRowVertices(
      graph, cs,
      poputil::templateVertex("popops::MultiSlice", c.t.elementType()),
      rowsView(c.t, 1, c.dims), rowsView(out, 2, c.dims), rows, "base", "out",
      nullptr);
  prog.add(poplar::program::Execute(cs));
  return out;
}

// `combine` is null for a plain update; ADD uses `scale`, MAX and MUL none.
void multiUpdateImpl(poplar::Graph &graph, const MultiCall &c, const Tensor &s,
                     const Operation *combine, const Tensor *scale,
                     poplar::program::Sequence &prog) {
  const auto expected = c.sliceShape();
  const Tensor sFull = c.grouped ? s : s.expand({0});
  if (sFull.shape() != expected || s.elementType() != c.t.elementType())
    throw poputil::poplibs_error(
        c.op + ": the slices '" + s.getDebugStr() + "' " +
        shapeString(s.shape()) + " of type " +
        s.elementType().toString().str() + " should be " +
        shapeString(std::vector<std::size_t>(expected.begin() + !c.grouped,
                                             expected.end())) +
        " of type " + c.t.elementType().toString().str());
  Tensor floatScale;
  if (scale) {
    if (scale->numElements() != 1 ||
        (scale->elementType() != poplar::FLOAT &&
         scale->elementType() != c.t.elementType()))
      throw poputil::poplibs_error(c.op + ": the scale '" +
                                   scale->getDebugStr() +
                                   "' must be one element of type float or " +
                                   c.t.elementType().toString().str());
    floatScale = scale->elementType() == poplar::FLOAT
                     ? scale->reshape({})
                     : popops::cast(graph, scale->reshape({}), poplar::FLOAT,
                                    prog, {c.op + "/scale"});
  }
  if (combine && c.t.elementType() == poplar::BOOL)
    throw poputil::poplibs_error(c.op + ": tensor '" + c.t.getDebugStr() +
                                 "' of type bool cannot be combined with "
                                 "slices");
  if (!c.t.isParallelWriteable())
    throw poputil::poplibs_error(c.op + ": tensor '" + c.t.getDebugStr() +
                                 "' cannot be written in parallel");
  if (c.t.numElements() == 0 || sFull.numElements() == 0)
    return;
  const Tensor rows = callRows(graph, c, prog);
  if (combine && !scale) {
    floatScale = graph.addConstant(poplar::FLOAT, {}, 1.0f, {c.op + "/scale"});
    graph.setTileMapping(floatScale, 0);
  }
  poplar::ComputeSet cs = graph.addComputeSet({c.op});
  const std::string type =
      combine
          ? poputil::templateVertex("popops::MultiUpdateOp", *combine,
                                    c.t.elementType())
          : poputil::templateVertex("popops::MultiUpdate", c.t.elementType());
  addRowVertices(graph, cs, type, rowsView(c.t, 1, c.dims),
                 rowsView(sFull, 2, c.dims), rows, "base", "sub",
                 combine ? &floatScale : nullptr);
  prog.add(poplar::program::Execute(cs));
}

void update(poplar::Graph &graph, const Tensor &t, const Tensor &s,
            const Tensor &offsets, const Operation *combine,
            const Tensor *scale, const std::vector<std::size_t> &dims,
            const std::vector<std::size_t> &sizes,
            poplar::program::Sequence &prog, const SlicePlan &plan,
            const poplar::OptionFlags &options, bool grouped,
            const std::string &op) {
  const MultiCall c =
      makeCall(op, t, offsets, dims, sizes, grouped, plan, false, options);
  multiUpdateImpl(graph, c, s, combine, scale, prog);
}

} // namespace

Tensor slicing::multiSliceRows(poplar::Graph &graph, const Tensor &t,
                               const Tensor &offsets,
                               const std::vector<std::size_t> &dims,
                               const std::vector<std::size_t> &sizes,
                               OutOfRange mode, poplar::program::Sequence &prog,
                               const std::string &op) {
  MultiCall c = makeCall(op, t, offsets, dims, sizes, false, SlicePlan(), true);
  c.mode = mode;
  return multiSliceImpl(graph, c, prog)[0];
}

void slicing::multiUpdateRows(poplar::Graph &graph, const Tensor &t,
                              const Tensor &s, const Tensor &offsets,
                              const std::vector<std::size_t> &dims,
                              const std::vector<std::size_t> &sizes,
                              OutOfRange mode, poplar::program::Sequence &prog,
                              const std::string &op) {
  MultiCall c =
      makeCall(op, t, offsets, dims, sizes, false, SlicePlan(), false);
  c.mode = mode;
  multiUpdateImpl(graph, c, s, nullptr, nullptr, prog);
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offsets,
                  const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes,
                  poplar::program::Sequence &prog, const SlicePlan &plan,
                  const poplar::OptionFlags &options,
                  const poplar::DebugContext &debugContext) {
  const MultiCall c = makeCall(opName(debugContext, "multiSlice"), t, offsets,
                               dims, sizes, false, plan, true, options);
  return multiSliceImpl(graph, c, prog)[0];
}

Tensor groupedMultiSlice(poplar::Graph &graph, const Tensor &t,
                         const Tensor &offsets,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes,
                         poplar::program::Sequence &prog, const SlicePlan &plan,
                         const poplar::OptionFlags &options,
                         const poplar::DebugContext &debugContext) {
  const MultiCall c = makeCall(opName(debugContext, "groupedMultiSlice"), t,
                               offsets, dims, sizes, true, plan, true, options);
  return multiSliceImpl(graph, c, prog);
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t,
                  poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext,
                  const poplar::OptionFlags &options) {
  const std::string op = opName(debugContext, "multiSlice");
  checkStaticOffsets(t, offsets, dim, options, op);
  Tensor constOffsets = graph.addConstant<unsigned>(
      poplar::UNSIGNED_INT, {offsets.size(), 1}, offsets, {op + "/offsets"});
  graph.setTileMapping(constOffsets, 0);
  return multiSlice(graph, t, constOffsets, {dim}, {1}, prog, SlicePlan(),
                    options, debugContext);
}

void multiUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                 const Tensor &offsets, const std::vector<std::size_t> &dims,
                 const std::vector<std::size_t> &sizes,
                 poplar::program::Sequence &prog, const SlicePlan &plan,
                 const poplar::OptionFlags &options,
                 const poplar::DebugContext &debugContext) {
  update(graph, t, s, offsets, nullptr, nullptr, dims, sizes, prog, plan,
         options, false, opName(debugContext, "multiUpdate"));
}

void groupedMultiUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                        const Tensor &offsets,
                        const std::vector<std::size_t> &dims,
                        const std::vector<std::size_t> &sizes,
                        poplar::program::Sequence &prog, const SlicePlan &plan,
                        const poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext) {
  update(graph, t, s, offsets, nullptr, nullptr, dims, sizes, prog, plan,
         options, true, opName(debugContext, "groupedMultiUpdate"));
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const Tensor &scale,
                    const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  const Operation add = Operation::ADD;
  update(graph, t, s, offsets, &add, &scale, dims, sizes, prog, plan, options,
         false, opName(debugContext, "multiUpdateAdd"));
}

void groupedMultiUpdateAdd(poplar::Graph &graph, const Tensor &t,
                           const Tensor &s, const Tensor &offsets,
                           const Tensor &scale,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog,
                           const SlicePlan &plan,
                           const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  const Operation add = Operation::ADD;
  update(graph, t, s, offsets, &add, &scale, dims, sizes, prog, plan, options,
         true, opName(debugContext, "groupedMultiUpdateAdd"));
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    poplar::ArrayRef<unsigned> offsets, const Tensor &scale,
                    std::size_t dim, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &optionFlags) {
  const std::string op = opName(debugContext, "multiUpdateAdd");
  checkStaticOffsets(t, offsets, dim, optionFlags, op);
  Tensor constOffsets = graph.addConstant<unsigned>(
      poplar::UNSIGNED_INT, {offsets.size(), 1}, offsets, {op + "/offsets"});
  graph.setTileMapping(constOffsets, 0);
  multiUpdateAdd(graph, t, s, constOffsets, scale, {dim}, {1}, prog,
                 SlicePlan(), optionFlags, debugContext);
}

void multiUpdateMax(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  const Operation max = Operation::MAX;
  update(graph, t, s, offsets, &max, nullptr, dims, sizes, prog, plan, options,
         false, opName(debugContext, "multiUpdateMax"));
}

void groupedMultiUpdateMax(poplar::Graph &graph, const Tensor &t,
                           const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog,
                           const SlicePlan &plan,
                           const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  const Operation max = Operation::MAX;
  update(graph, t, s, offsets, &max, nullptr, dims, sizes, prog, plan, options,
         true, opName(debugContext, "groupedMultiUpdateMax"));
}

void multiUpdateMul(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  const Operation mul = Operation::MUL;
  update(graph, t, s, offsets, &mul, nullptr, dims, sizes, prog, plan, options,
         false, opName(debugContext, "multiUpdateMul"));
}

void groupedMultiUpdateMul(poplar::Graph &graph, const Tensor &t,
                           const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog,
                           const SlicePlan &plan,
                           const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  const Operation mul = Operation::MUL;
  update(graph, t, s, offsets, &mul, nullptr, dims, sizes, prog, plan, options,
         true, opName(debugContext, "groupedMultiUpdateMul"));
}

} // namespace popops
