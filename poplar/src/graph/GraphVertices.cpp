// Vertices: adding them to compute sets, connecting their fields to
// tensors, vertex state, tile mapping and performance estimates. Each call
// checks what it can at once, so errors point at the line that caused them;
// the compiler checks what needs the whole graph (unconnected fields,
// unmapped vertices, races).
#include "graph/GraphImpl.hpp"
#include "graph/TensorImpl.hpp"
#include "graph/TensorLayout.hpp"

#include "codelet/CodeletLibrary.hpp"
#include "core/ElementConversion.hpp"
#include "core/TypeInfo.hpp"

#include <poplar/exceptions.hpp>

namespace poplar {
namespace {

using codelet_interface::FieldInfo;
using codelet_interface::FieldKind;
using codelet_interface::FieldShape;

const char *kindName(FieldKind kind) {
  switch (kind) {
  case FieldKind::Input:
    return "Input";
  case FieldKind::Output:
    return "Output";
  case FieldKind::InOut:
    return "InOut";
  case FieldKind::State:
    return "state";
  }
  return "?";
}

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::string s = "{";
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

// The vertex and field a FieldRef names, found and checked.
struct FieldTarget {
  unsigned vertexId;
  VertexData &vertex;
  const VertexType &type;
  std::size_t index;
  const FieldInfo &info;
  VertexFieldValue &value;
  const Graph::Impl &graph;
  /// "field 'in' of vertex 3 (SumVertex) in compute set 'cs'", made only
  /// for a message: graphs connect millions of fields.
  std::string where() const {
    return "field '" + std::string(info.name) + "' of " +
           graph.describeVertex(vertexId);
  }
};

} // namespace

std::string Graph::Impl::describeVertex(unsigned id) const {
  const VertexData &v = vertices[id];
  return "vertex " + std::to_string(id) + " (" + vertexTypes[v.type].name +
         ") in compute set '" + computeSets[v.computeSet].name + "'";
}

namespace {

VertexData &findVertex(Graph::Impl &g, const VertexRef &v, const char *what) {
  if (!v.valid() || v.getGraphId() != g.id || v.getId() >= g.vertices.size())
    throw graph_connection_error(std::string(what) +
                                 ": the vertex does not belong to this graph");
  return g.vertices[v.getId()];
}

FieldTarget findField(Graph::Impl &g, const FieldRef &field, const char *what) {
  const VertexRef vref = field.getVertex();
  VertexData &vertex = findVertex(g, vref, what);
  const VertexType &type = g.vertexTypes[vertex.type];
  for (std::size_t f = 0; f != type.info->numFields; ++f) {
    const FieldInfo &info = type.info->fields[f];
    if (field.getFieldName() == info.name)
      return {vref.getId(), vertex, type, f, info, vertex.field(f), g};
  }
  std::string names;
  for (std::size_t f = 0; f != type.info->numFields; ++f)
    names += std::string(f ? ", " : "") + type.info->fields[f].name;
  throw unknown_field(std::string(what) + ": " + g.describeVertex(vref.getId()) +
                      " has no field '" + field.getFieldName() +
                      "' (its fields: " + (names.empty() ? "none" : names) +
                      ")");
}

// Checks that t can be an edge of the given shape for the field;
// where() names the field in messages.
template <class Where>
void checkEdgeTensor(Graph::Impl &g, const FieldTarget &target, FieldShape shape,
                     const Tensor &t, const Where &where) {
  if (!t.valid() || t.getImpl().graphId != g.id)
    g.checkOwnership(t, "connect(" + where() + ")");
  const Type expected = target.type.fieldTypes[target.index];
  if (t.elementType() != expected)
    throw graph_connection_error(
        "connect: " + where() + " has element type " + expected.toString().str() +
        " but tensor '" + t.getDebugStr() + "' has type " +
        t.elementType().toString().str());
  if (shape == FieldShape::Scalar && t.numElements() != 1)
    throw graph_connection_error(
        "connect: " + where() + " is a scalar and needs a tensor of one "
        "element, but tensor '" + t.getDebugStr() + "' has shape " +
        shapeString(t.shape()));
  if (shape == FieldShape::Vector && t.rank() != 1)
    throw graph_connection_error(
        "connect: " + where() + " is a vector and needs a 1-D tensor, but "
        "tensor '" + t.getDebugStr() + "' has shape " + shapeString(t.shape()));
  if (target.info.kind != FieldKind::Input) {
    if (t.containsConstant())
      throw graph_connection_error("connect: " + where() + " is an " +
                                   kindName(target.info.kind) +
                                   " but tensor '" + t.getDebugStr() +
                                   "' is a constant");
    // One element cannot alias. An edge is asked once here and once when
    // compiled: its boxes are not kept.
    if (t.numElements() > 1 &&
        layout::containsAliases(
            layout::storageRanges(layout::edgeLayout(t).layout.get()),
            t.numElements()))
      throw graph_connection_error(
          "connect: " + where() + " is an " + kindName(target.info.kind) +
          " but tensor '" + t.getDebugStr() +
          "' refers to some elements more than once");
  }
}

} // namespace

ComputeSet Graph::addComputeSet(const DebugContext &debugContext) {
  impl->computeSets.push_back({debugContext.getPathName(), {}});
  return ComputeSet(static_cast<unsigned>(impl->computeSets.size() - 1));
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType) {
  if (!cs.valid() || cs.getId() >= impl->computeSets.size())
    throw poplar_error("addVertex: compute set " + std::to_string(cs.getId()) +
                       " does not belong to this graph");
  const std::string name = normaliseVertexName(vertexType.str());
  auto it = impl->vertexTypeIndex.find(name);
  if (it == impl->vertexTypeIndex.end())
    throw unknown_vertex_type("addVertex: unknown vertex type '" + name +
                              "' (add the codelets that define it with "
                              "addCodelets first)");
  if (impl->vertices.size() >= std::numeric_limits<unsigned>::max() - 1)
    throw poplar_error("addVertex: too many vertices");
  const auto id = static_cast<unsigned>(impl->vertices.size());
  VertexData &v = impl->vertices.emplace_back(
      impl->vertexArena, it->second, cs.getId(),
      static_cast<std::uint32_t>(
          impl->vertexTypes[it->second].info->numFields));
  if (view->tiles.size() == 1)
    v.tile = view->tiles[0]; // a one-tile graph has only one choice
  impl->computeSets[cs.getId()].vertices.push_back(id);
  return VertexRef(impl->id, id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           ArrayRef<ConnectionDesc> connections) {
  VertexRef v = addVertex(cs, vertexType);
  try {
    for (const auto &c : connections) {
      if (c.isList)
        connect(v[c.field], ArrayRef<Tensor>(c.tensors));
      else
        connect(v[c.field], c.tensors.front());
    }
  } catch (...) {
    // A connection refused takes the vertex with it: a half-connected
    // vertex left in the compute set would fail every later compile.
    impl->computeSets[cs.getId()].vertices.pop_back();
    impl->vertices.pop_back();
    throw;
  }
  return v;
}

void Graph::connect(FieldRef field, const Tensor &tensor) {
  FieldTarget target = findField(*impl, field, "connect");
  if (target.info.kind == FieldKind::State)
    throw graph_connection_error("connect: " + target.where() +
                                 " is vertex state, not an edge; give it a "
                                 "value with setInitialValue");
  if (field.isIndexed()) {
    if (target.info.shape != FieldShape::List)
      throw graph_connection_error("connect: " + target.where() +
                                   " is not a list, so it has no item " +
                                   std::to_string(field.getIndex()));
    if (!target.value.sizeSet())
      throw no_size_specified("connect: " + target.where() +
                              " has no size; call setFieldSize before "
                              "connecting its items");
    if (field.getIndex() >= target.value.size())
      throw index_error("connect: item " + std::to_string(field.getIndex()) +
                        " of " + target.where() + ", which has " +
                        std::to_string(target.value.size()) + " items");
    const auto where = [&] {
      return "item " + std::to_string(field.getIndex()) + " of " + target.where();
    };
    checkEdgeTensor(*impl, target, target.info.itemShape, tensor, where);
    target.value.getExtra().items[field.getIndex()] = tensor;
    return;
  }
  if (target.info.shape == FieldShape::List)
    throw graph_connection_error(
        "connect: " + target.where() +
        " is a list; connect a list of tensors or each item (field[i])");
  checkEdgeTensor(*impl, target, target.info.shape, tensor,
                  [&] { return target.where(); });
  const Tensor::Impl &view = tensor.getImpl();
  if (view.kind == Tensor::Impl::Kind::Index) {
    // The element's tensor and index stand for the view (edge()).
    target.value.tensor = Tensor(view.inputs[0]);
    target.value.index = view.params[0];
  } else {
    target.value.tensor = tensor;
    target.value.index = VertexFieldValue::notIndexed;
  }
}

void Graph::connect(FieldRef field, ArrayRef<Tensor> tensors) {
  if (field.isIndexed())
    throw graph_connection_error("connect: a list of tensors goes to a whole "
                                 "list field, not to item " +
                                 std::to_string(field.getIndex()));
  setFieldSize(field, tensors.size());
  for (std::size_t i = 0; i != tensors.size(); ++i)
    connect(field[i], tensors[i]);
}

void Graph::setFieldSize(FieldRef field, std::size_t size) {
  FieldTarget target = findField(*impl, field, "setFieldSize");
  const bool isList = target.info.shape == FieldShape::List;
  const bool isStateVector = target.info.kind == FieldKind::State &&
                             target.info.shape == FieldShape::Vector;
  if (field.isIndexed() || !(isList || isStateVector))
    throw graph_connection_error(
        "setFieldSize: " + target.where() +
        " has no size of its own (only list fields and state vectors do; an "
        "edge takes its size from the tensor connected)");
  auto &extra = target.value.getExtra();
  extra.size = size;
  extra.sizeSet = true;
  if (isList) {
    extra.items.resize(size);
  } else {
    extra.state.resize(size * typeSize(target.type.fieldTypes[target.index]));
    extra.stateSet = true;
  }
}

void Graph::setFieldValueFromHost(const FieldRef &field, const Type &hostType,
                                  const void *values, std::size_t numValues,
                                  bool isVector) {
  FieldTarget target = findField(*impl, field, "setInitialValue");
  if (target.info.kind != FieldKind::State)
    throw graph_connection_error(
        "setInitialValue: " + target.where() + " is an " +
        kindName(target.info.kind) +
        " edge; connect a tensor to it instead of giving it a value");
  const FieldShape wanted = isVector ? FieldShape::Vector : FieldShape::Scalar;
  if (field.isIndexed() || target.info.shape != wanted)
    throw graph_connection_error(
        "setInitialValue: " + target.where() + " is a " +
        (target.info.shape == FieldShape::Vector ? "vector" : "scalar") +
        " but " + (isVector ? "a list of values" : "one value") +
        " was given");
  const Type type = target.type.fieldTypes[target.index];
  auto &state = target.value.getExtra().state;
  state.resize(numValues * typeSize(type));
  convertElements(hostType, values, type, state.data(), numValues);
  target.value.extra->size = numValues;
  target.value.extra->sizeSet = true;
  target.value.extra->stateSet = true;
}

void Graph::setTileMapping(VertexRef v, unsigned tileNum) {
  VertexData &vertex = findVertex(*impl, v, "setTileMapping");
  if (tileNum >= view->tiles.size())
    throw invalid_tile_mapping(
        "setTileMapping: " + impl->describeVertex(v.getId()) +
        " mapped to tile " + std::to_string(tileNum) + " but the graph has " +
        std::to_string(view->tiles.size()) + " tiles");
  vertex.tile = view->tiles[tileNum];
}

void Graph::setPerfEstimate(const VertexRef &v, std::uint64_t cycles,
                            std::uint64_t flops) {
  VertexData &vertex = findVertex(*impl, v, "setPerfEstimate");
  vertex.cycles = cycles;
  vertex.flops = flops;
  vertex.hasPerfEstimate = true;
}

void Graph::setCycleEstimate(const VertexRef &v, std::uint64_t cycles) {
  setPerfEstimate(v, cycles, 0);
}

} // namespace poplar
