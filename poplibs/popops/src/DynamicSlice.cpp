// Slices and updates at offsets known only at run time. The tensor is seen
// as rows along the sliced dimension; on each tile one vertex copies the
// columns that tile holds for every row it needs.
#include <popops/DynamicSlice.hpp>

#include "DataMovementEstimates.hpp"
#include "OperationVertexName.hpp"
#include "RowVertices.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using poplar::Tensor;

void checkType(const std::string &op, const Tensor &t) {
  const auto type = t.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
      type != poplar::UNSIGNED_INT && type != poplar::BOOL)
    throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                 "' has type " + type.toString().str() +
                                 ", which is not supported");
}

void checkOffsets(const std::string &op, const Tensor &offset,
                  std::size_t expected) {
  if (offset.elementType() != poplar::UNSIGNED_INT &&
      offset.elementType() != poplar::INT)
    throw poputil::poplibs_error(op + ": offsets '" + offset.getDebugStr() +
                                 "' must be UNSIGNED_INT, not " +
                                 offset.elementType().toString().str());
  if (offset.numElements() != expected)
    throw poputil::poplibs_error(op + ": offsets '" + offset.getDebugStr() +
                                 "' have " +
                                 std::to_string(offset.numElements()) +
                                 " elements, " + std::to_string(expected) +
                                 " expected");
}

void checkDims(const std::string &op, const Tensor &t,
               const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes) {
  if (dims.size() != sizes.size())
    throw poputil::poplibs_error(op + ": " + std::to_string(dims.size()) +
                                 " dimensions but " +
                                 std::to_string(sizes.size()) + " sizes");
  for (std::size_t i = 0; i != dims.size(); ++i) {
    if (dims[i] >= t.rank())
      throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                   "' of shape " + shapeString(t.shape()) +
                                   " has no dimension " +
                                   std::to_string(dims[i]));
    if (sizes[i] > t.dim(dims[i]) || (sizes[i] == 0 && t.dim(dims[i]) != 0))
      throw poputil::poplibs_error(
          op + ": a slice of " + std::to_string(sizes[i]) +
          " along dimension " + std::to_string(dims[i]) + " of '" +
          t.getDebugStr() + "' " + shapeString(t.shape()));
  }
}

// One vertex per tile: rows of `base` by offset into rows of `sub`.
void addRowVertices(poplar::Graph &graph, poplar::ComputeSet cs,
                    const std::string &type, const Tensor &baseRows,
                    const Tensor &subRows, const Tensor &offsets,
                    const char *baseField, const char *subField,
                    const Tensor *scale) {
  for (const auto &[tile, cols] : columnsByTile(graph, baseRows)) {
    std::vector<Tensor> base, sub;
    for (std::size_t r = 0; r != baseRows.dim(0); ++r)
      base.push_back(rowColumns(baseRows, r, cols));
    for (std::size_t r = 0; r != subRows.dim(0); ++r)
      sub.push_back(rowColumns(subRows, r, cols));
    poplar::VertexRef v = graph.addVertex(cs, type);
    graph.connect(v[baseField], base);
    graph.connect(v[subField], sub);
    graph.connect(v[offsets.rank() == 0 ? "offset" : "offsets"], offsets);
    if (scale)
      graph.connect(v["scale"], *scale);
    graph.setTileMapping(v, tile);
    std::size_t columns = 0;
    for (const auto &c : cols)
      columns += c.size();
    const std::size_t rows = subRows.dim(0);
    graph.setPerfEstimate(v, scale ? detail::rowCombineCycles(rows, columns)
                                   : detail::rowCopyCycles(rows, columns));
  }
}

Tensor scalarOffset(const Tensor &offset, std::size_t i) {
  return offset.flatten()[i].reinterpret(poplar::UNSIGNED_INT);
}

} // namespace

SlicePlan embedding::plan(const poplar::Graph &, const poplar::Type &,
                          std::size_t, std::size_t,
                          const std::vector<std::size_t> &,
                          const poplar::OptionFlags &) {
  return SlicePlan();
}

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                             const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims,
                             const std::vector<std::size_t> &sizes,
                             std::size_t minGrainSize,
                             const poplar::DebugContext &debugContext) {
  Tensor t = graph.addVariable(type, shape, debugContext);
  checkDims(opName(debugContext, "createSliceableTensor"), t, dims, sizes);
  // Sliced dimensions outermost in storage order is not needed: mapping
  // the other dimensions' elements linearly per tile keeps every slice's
  // columns on the same tiles.
  std::vector<unsigned> perm;
  for (auto d : dims)
    perm.push_back(static_cast<unsigned>(d));
  for (unsigned d = 0; d != shape.size(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      perm.push_back(d);
  std::size_t sliced = 1;
  for (auto d : dims)
    sliced *= shape[d];
  const Tensor rows =
      t.dimShuffle(perm).reshape({sliced, sliced ? t.numElements() / sliced : 0});
  const auto columns = poputil::calcLinearTileMapping(
      graph, {rows.dim(1)}, 1, std::max<std::size_t>(1, minGrainSize));
  for (unsigned tile = 0; tile != columns.size(); ++tile)
    for (const auto &c : columns[tile])
      graph.setTileMapping(rows.slice(c.begin(), c.end(), 1), tile);
  return t;
}

Tensor dynamicSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offset,
                    const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &) {
  const std::string op = opName(debugContext, "dynamicSlice");
  checkType(op, t);
  checkDims(op, t, dims, sizes);
  checkOffsets(op, offset, dims.size());
  Tensor current = t;
  for (std::size_t i = 0; i != dims.size(); ++i) {
    const auto dim = static_cast<unsigned>(dims[i]);
    Tensor out = graph.clone(current.slice(0, sizes[i], dim), {op + "/out"});
    if (current.dim(dim) != 0 && out.numElements() != 0) {
      poplar::ComputeSet cs = graph.addComputeSet({op});
      addRowVertices(graph, cs,
                     poputil::templateVertex("popops::DynamicSlice",
                                             t.elementType()),
                     rowsAlong(current, dim), rowsAlong(out, dim),
                     scalarOffset(offset, i), "base", "sub", nullptr);
      prog.add(poplar::program::Execute(cs));
    }
    current = out;
  }
  return current;
}

void dynamicUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                   const Tensor &offset, const std::vector<std::size_t> &dims,
                   const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &) {
  const std::string op = opName(debugContext, "dynamicUpdate");
  checkType(op, t);
  checkDims(op, t, dims, sizes);
  checkOffsets(op, offset, dims.size());
  if (dims.size() != 1)
    throw poputil::poplibs_error(op + ": updates along " +
                                 std::to_string(dims.size()) +
                                 " dimensions at once are not supported; "
                                 "update one dimension at a time");
  const auto dim = static_cast<unsigned>(dims[0]);
  auto expected = t.shape();
  expected[dim] = sizes[0];
  if (s.shape() != expected || s.elementType() != t.elementType())
    throw poputil::poplibs_error(op + ": the update '" + s.getDebugStr() +
                                 "' " + shapeString(s.shape()) +
                                 " does not match a slice of '" +
                                 t.getDebugStr() + "', " +
                                 shapeString(expected));
  if (t.numElements() == 0)
    return;
  poplar::ComputeSet cs = graph.addComputeSet({op});
  addRowVertices(graph, cs,
                 poputil::templateVertex("popops::DynamicUpdate", t.elementType()),
                 rowsAlong(t, dim), rowsAlong(s, dim), scalarOffset(offset, 0),
                 "base", "sub", nullptr);
  prog.add(poplar::program::Execute(cs));
}

namespace {

// The [K, 1, rest] result shape of slicing t at K offsets along dim.
std::vector<std::size_t> multiSliceShape(const Tensor &t, std::size_t dim,
                                         std::size_t k) {
  std::vector<std::size_t> shape{k, 1};
  for (std::size_t d = 0; d != t.rank(); ++d)
    if (d != dim)
      shape.push_back(t.dim(d));
  return shape;
}

void checkMulti(const std::string &op, const Tensor &t, const Tensor &offsets,
                const std::vector<std::size_t> &dims,
                const std::vector<std::size_t> &sizes) {
  checkType(op, t);
  checkDims(op, t, dims, sizes);
  if (dims.size() != 1 || sizes[0] != 1)
    throw poputil::poplibs_error(op + ": only slices of size 1 along one "
                                      "dimension are supported");
  if (offsets.elementType() != poplar::UNSIGNED_INT &&
      offsets.elementType() != poplar::INT)
    throw poputil::poplibs_error(op + ": offsets '" + offsets.getDebugStr() +
                                 "' must be UNSIGNED_INT");
}

// `combine` is null for a plain update; ADD uses `scale`, MAX and MUL none.
void multiUpdateImpl(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                     const Tensor &offsets, const Operation *combine,
                     const Tensor *scale, const std::vector<std::size_t> &dims,
                     const std::vector<std::size_t> &sizes,
                     poplar::program::Sequence &prog, const std::string &op) {
  checkMulti(op, t, offsets, dims, sizes);
  const std::size_t k = offsets.numElements();
  if (s.shape() != multiSliceShape(t, dims[0], k) ||
      s.elementType() != t.elementType())
    throw poputil::poplibs_error(
        op + ": the slices '" + s.getDebugStr() + "' " + shapeString(s.shape()) +
        " should be " + shapeString(multiSliceShape(t, dims[0], k)));
  if (scale && (scale->numElements() != 1 ||
                scale->elementType() != poplar::FLOAT))
    throw poputil::poplibs_error(op + ": the scale must be one FLOAT");
  if (combine && t.elementType() == poplar::BOOL)
    throw poputil::poplibs_error(op + ": tensor '" + t.getDebugStr() +
                                 "' of type bool cannot be combined with "
                                 "slices");
  if (t.numElements() == 0 || k == 0)
    return;
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const Tensor sRows = s.reshape({k, s.numElements() / k});
  Tensor scaleElement;
  if (combine) {
    if (scale) {
      scaleElement = scale->reshape({});
    } else {
      scaleElement =
          graph.addConstant(poplar::FLOAT, {}, 1.0f, {op + "/scale"});
      graph.setTileMapping(scaleElement, 0);
    }
  }
  const std::string type =
      combine ? poputil::templateVertex("popops::MultiUpdateOp", *combine,
                                        t.elementType())
              : poputil::templateVertex("popops::MultiUpdate", t.elementType());
  addRowVertices(graph, cs, type, rowsAlong(t, static_cast<unsigned>(dims[0])),
                 sRows, offsets.flatten().reinterpret(poplar::UNSIGNED_INT),
                 "base", "sub", combine ? &scaleElement : nullptr);
  prog.add(poplar::program::Execute(cs));
}

} // namespace

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offsets,
                  const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes,
                  poplar::program::Sequence &prog, const SlicePlan &,
                  const poplar::OptionFlags &,
                  const poplar::DebugContext &debugContext) {
  const std::string op = opName(debugContext, "multiSlice");
  checkMulti(op, t, offsets, dims, sizes);
  const std::size_t k = offsets.numElements();
  const auto shape = multiSliceShape(t, dims[0], k);
  Tensor out = graph.addVariable(t.elementType(), shape, {op + "/out"});
  poputil::mapTensorLinearly(graph, out, 1, 1);
  if (out.numElements() == 0)
    return out;
  poplar::ComputeSet cs = graph.addComputeSet({op});
  const Tensor outRows = out.reshape({k, out.numElements() / k});
  addRowVertices(graph, cs,
                 poputil::templateVertex("popops::MultiSlice", t.elementType()),
                 rowsAlong(t, static_cast<unsigned>(dims[0])), outRows,
                 offsets.flatten().reinterpret(poplar::UNSIGNED_INT), "base",
                 "out", nullptr);
  prog.add(poplar::program::Execute(cs));
  return out;
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t,
                  poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                  poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext,
                  const poplar::OptionFlags &options) {
  const std::string op = opName(debugContext, "multiSlice");
  Tensor constOffsets = graph.addConstant<unsigned>(
      poplar::UNSIGNED_INT, {offsets.size(), 1}, offsets, {op + "/offsets"});
  graph.setTileMapping(constOffsets, 0);
  return multiSlice(graph, t, constOffsets, {dim}, {1}, prog, SlicePlan(),
                    options, debugContext);
}

void multiUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                 const Tensor &offsets, const std::vector<std::size_t> &dims,
                 const std::vector<std::size_t> &sizes,
                 poplar::program::Sequence &prog, const SlicePlan &,
                 const poplar::OptionFlags &,
                 const poplar::DebugContext &debugContext) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, nullptr, dims, sizes, prog,
                  opName(debugContext, "multiUpdate"));
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const Tensor &scale,
                    const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &,
                    const poplar::OptionFlags &,
                    const poplar::DebugContext &debugContext) {
  const Operation add = Operation::ADD;
  multiUpdateImpl(graph, t, s, offsets, &add, &scale, dims, sizes, prog,
                  opName(debugContext, "multiUpdateAdd"));
}

void multiUpdateMax(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &,
                    const poplar::OptionFlags &,
                    const poplar::DebugContext &debugContext) {
  const Operation max = Operation::MAX;
  multiUpdateImpl(graph, t, s, offsets, &max, nullptr, dims, sizes, prog,
                  opName(debugContext, "multiUpdateMax"));
}

void multiUpdateMul(poplar::Graph &graph, const Tensor &t, const Tensor &s,
                    const Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &,
                    const poplar::OptionFlags &,
                    const poplar::DebugContext &debugContext) {
  const Operation mul = Operation::MUL;
  multiUpdateImpl(graph, t, s, offsets, &mul, nullptr, dims, sizes, prog,
                  opName(debugContext, "multiUpdateMul"));
}

} // namespace popops
