// Lowering compute sets: every vertex is checked (fields connected, state
// given, a tile on IPU targets) and its fields are planned as pointers into
// storage or as gathered buffers. Within one compute set no element may be
// written by one vertex and read or written by another: that is a race on
// the IPU, where all vertices of a compute set run at once.
#include "compile/ExecutableImpl.hpp"

#include "codelet/CodeletLibrary.hpp"
#include "core/TypeInfo.hpp"
#include "graph/GraphImpl.hpp"
#include "graph/TensorLayout.hpp"
#include "runtime/ParallelFor.hpp"

#include <poplar/exceptions.hpp>

#include <algorithm>
#include <exception>
#include <iterator>

namespace poplar {
namespace {

using codelet_interface::FieldInfo;
using codelet_interface::FieldKind;
using codelet_interface::FieldShape;

// Elements [begin, end) of a variable that a vertex field touches.
struct Access {
  std::size_t var;
  std::size_t begin;
  std::size_t end;
  unsigned vertex;
  unsigned field;
  bool operator<(const Access &o) const {
    return var != o.var ? var < o.var : begin < o.begin;
  }
};

// The index of a variable in an edge's plan.
std::uint32_t planVariable(std::size_t var) {
  if (var > ~std::uint32_t(0))
    throw graph_program_compilation_error(
        "a vertex edge refers to variable " + std::to_string(var) +
        ": compute sets are planned for at most 2^32 variables");
  return static_cast<std::uint32_t>(var);
}

// An edge's plan: the piece of storage it is, if its runs make one, else
// its runs, gathered (appended to `gathered`, which r then indexes).
void planRegion(exec::EdgeRegion &r, std::vector<layout::FlatRun> runs,
                std::size_t numElements,
                std::vector<exec::GatheredEdge> &gathered) {
  r.numElements = numElements;
  const bool contiguous =
      runs.size() == 1 && (runs[0].stride == 1 || runs[0].length == 1);
  if (runs.empty() || contiguous) {
    if (!runs.empty()) {
      r.var = planVariable(runs[0].var);
      r.offset = static_cast<std::size_t>(runs[0].start);
    }
    return;
  }
  r.gathered = static_cast<std::uint32_t>(gathered.size());
  gathered.emplace_back().runs = std::move(runs);
}

// Where a vertex's fields, regions and states start in the compute set's
// arrays.
struct PlanPosition {
  std::uint32_t field = 0;
  std::uint32_t region = 0;
  std::uint32_t state = 0;
};

// How many fields, regions and states a vertex's plan takes (its plan
// checks what this counts).
PlanPosition planSize(const VertexData &v, const VertexType &type) {
  PlanPosition n;
  n.field = static_cast<std::uint32_t>(v.numFields);
  for (std::size_t f = 0; f != v.numFields; ++f) {
    const FieldInfo &info = type.info->fields[f];
    if (info.kind == FieldKind::State)
      ++n.state;
    else if (info.shape == FieldShape::List)
      n.region +=
          v.field(f).extra
              ? static_cast<std::uint32_t>(v.field(f).extra->items.size())
              : 0;
    else
      ++n.region;
  }
  return n;
}

class ComputeSetChecker {
public:
  ComputeSetChecker(const Graph::Impl &graph, unsigned cs)
      : graph(graph), cs(cs) {}

  /// Plans vertex `index` of the compute set (graph vertex `id`) into
  /// `plan`, whose arrays have room for it from `at` (advanced past it),
  /// without its perf estimator's figures (see estimate). Its gathered
  /// edges go to `gathered`, which their regions index until
  /// lowerComputeSets moves them to the plan. Touches nothing shared, so
  /// vertices are planned side by side.
  void planVertex(unsigned id, exec::ComputeSetPlan &plan, std::size_t index,
                  PlanPosition &at,
                  std::vector<exec::GatheredEdge> &gathered) const {
    const VertexData &v = graph.vertices[id];
    const VertexType &type = graph.vertexTypes[v.type];
    if (graph.target.getTargetType() != TargetType::CPU &&
        v.tile == std::numeric_limits<unsigned>::max())
      throw invalid_tile_mapping(graph.describeVertex(id) +
                                 " has no tile: map it with "
                                 "Graph::setTileMapping(vertex, tile)");
    exec::VertexPlan &vp = plan.vertices[index];
    vp.id = id;
    vp.type = v.type;
    vp.tile = v.tile == std::numeric_limits<unsigned>::max() ? 0 : v.tile;
    vp.cycles = v.cycles;
    vp.flops = v.flops;
    vp.hasPerfEstimate = v.hasPerfEstimate;
    vp.firstField = at.field;
    vp.numFields = static_cast<std::uint32_t>(v.numFields);
    for (unsigned f = 0; f != v.numFields; ++f)
      planField(id, type.info->fields[f], v.field(f), plan,
                plan.fields[at.field++], at, gathered);
  }

  /// Calls f(access) for each piece of non-constant storage that the edges
  /// of the plan's vertices read (writes false) or write (writes true), in
  /// vertex order. Nothing writes a constant, so reading one cannot race.
  template <class F>
  void forEachAccess(const exec::ComputeSetPlan &plan, bool writes, F &&f) const {
    for (const exec::VertexPlan &v : plan.vertices) {
      const auto &info = *graph.vertexTypes[v.type].info;
      const auto fields = plan.fieldsOf(v);
      for (unsigned i = 0; i != fields.size(); ++i) {
        const FieldKind kind = info.fields[i].kind;
        if (kind == FieldKind::State || (kind != FieldKind::Input) != writes)
          continue;
        for (const auto &region : plan.regionsOf(fields[i]))
          plan.forEachStorageRange(region, [&](const layout::StorageRange &s) {
            if (!graph.variables[s.var].isConstant)
              f(Access{s.var, s.begin, s.end, v.id, i});
          });
      }
    }
  }

  /// Runs the vertex's perf estimator, if it has one and no estimate was
  /// given: estimators are the user's code, called one at a time.
  void estimate(exec::VertexPlan &plan) const {
    const VertexData &v = graph.vertices[plan.id];
    if (v.hasPerfEstimate)
      return;
    auto it = graph.perfEstimators.find(graph.vertexTypes[v.type].name);
    if (it == graph.perfEstimators.end())
      return;
    const VertexPerfEstimate e = runEstimator(plan.id, it->second);
    plan.cycles = e.cycles;
    plan.flops = e.flops;
    plan.hasPerfEstimate = true;
  }

  /// Throws graph_connection_error naming both vertices if two vertices
  /// of the plan touch an element and one of them writes it.
  void checkRaces(const exec::ComputeSetPlan &plan) const {
    std::size_t numWrites = 0;
    forEachAccess(plan, true, [&](const Access &) { ++numWrites; });
    std::vector<Access> w;
    w.reserve(numWrites);
    forEachAccess(plan, true, [&](const Access &a) { w.push_back(a); });
    std::sort(w.begin(), w.end());
    // Merge overlapping writes, in place; an overlap between two vertices
    // is a race. Every merged interval then belongs to one vertex.
    std::size_t n = 0;
    for (std::size_t i = 0; i != w.size(); ++i) {
      const Access a = w[i];
      Access *last = n != 0 ? &w[n - 1] : nullptr;
      if (last && last->var == a.var && a.begin < last->end) {
        if (a.vertex != last->vertex)
          race(*last, a, a.begin, "writes", "writes");
        last->end = std::max(last->end, a.end);
      } else {
        w[n++] = a;
      }
    }
    w.resize(n);
    // With writes disjoint between vertices, a read races with any write
    // by another vertex that it overlaps.
    forEachAccess(plan, false, [&](const Access &r) { checkRead(w, r); });
  }

private:
  void checkRead(const std::vector<Access> &w, const Access &r) const {
    auto it = std::lower_bound(
        w.begin(), w.end(), r, [](const Access &a, const Access &b) {
          return a.var != b.var ? a.var < b.var : a.end <= b.begin;
        });
    for (; it != w.end() && it->var == r.var && it->begin < r.end; ++it)
      if (it->vertex != r.vertex)
        race(*it, r, std::max(it->begin, r.begin), "writes", "reads");
  }

  VertexPerfEstimate runEstimator(unsigned id, const PerfEstimateFunc &f) const {
    const VertexData &v = graph.vertices[id];
    const VertexType &type = graph.vertexTypes[v.type];
    std::vector<std::string> names;
    std::vector<FieldData> fields;
    for (std::size_t i = 0; i != v.numFields; ++i) {
      const FieldInfo &info = type.info->fields[i];
      const VertexFieldValue &value = v.field(i);
      names.push_back(info.name);
      std::size_t size = 1;
      std::vector<std::size_t> itemSizes;
      std::vector<unsigned char> state;
      if (info.kind == FieldKind::State) {
        size = value.size();
        state = value.extra ? value.extra->state : std::vector<unsigned char>{};
        if (info.shape == FieldShape::Scalar)
          size = 1;
      } else if (info.shape == FieldShape::List) {
        size = value.size();
        for (const auto &item : value.extra->items)
          itemSizes.push_back(item.numElements());
      } else {
        size = value.edge().numElements();
      }
      fields.emplace_back(size, std::move(itemSizes), type.fieldTypes[i],
                          std::move(state), profilerLayout(info));
    }
    try {
      return f(VertexIntrospector(std::move(names), std::move(fields),
                                  ComputeSet(v.computeSet)),
               graph.target);
    } catch (const std::exception &e) {
      throw graph_program_compilation_error(
          "the cycle estimator of " + graph.describeVertex(id) +
          " failed: " + e.what());
    }
  }

  static layout::Vector profilerLayout(const FieldInfo &info) {
    if (info.shape == FieldShape::Scalar)
      return layout::Vector::NotAVector;
    switch (static_cast<VectorLayout>(info.layout)) {
    case VectorLayout::ONE_PTR:
      return layout::Vector::OnePtr;
    case VectorLayout::SHORT_SPAN:
      return layout::Vector::ShortSpan;
    case VectorLayout::SCALED_PTR32:
      return layout::Vector::ScaledPtr32;
    case VectorLayout::SCALED_PTR64:
    case VectorLayout::COMPACT_PTR:
      return layout::Vector::ScaledPtr64;
    case VectorLayout::SCALED_PTR128:
      return layout::Vector::ScaledPtr128;
    default:
      return layout::Vector::Span;
    }
  }

  void planField(unsigned id, const FieldInfo &info,
                 const VertexFieldValue &value, exec::ComputeSetPlan &plan,
                 exec::VertexFieldPlan &fp, PlanPosition &next,
                 std::vector<exec::GatheredEdge> &gathered) const {
    auto where = [&] {
      return graph.describeVertex(id) + ": field '" + info.name + "'";
    };
    fp.first = next.region;
    if (info.kind == FieldKind::State) {
      if (!value.stateSet())
        throw graph_connection_error(
            where() + " (vertex state) has no value: give it one with "
                      "Graph::setInitialValue" +
            (info.shape == FieldShape::Vector ? " or setFieldSize" : ""));
      fp.first = next.state++;
      fp.count = exec::VertexFieldPlan::stateField;
      exec::FieldState &state = plan.states[fp.first];
      state.bytes = value.extra->state;
      state.elements = value.size();
      return;
    }
    if (info.shape == FieldShape::List) {
      if (!value.sizeSet())
        throw no_size_specified(where() +
                                " (a list) has no size: call "
                                "Graph::setFieldSize or connect a list");
      const auto &items = value.extra->items;
      for (std::size_t i = 0; i != items.size(); ++i) {
        if (!items[i].valid())
          throw graph_connection_error(where() + ": item " + std::to_string(i) +
                                       " of " + std::to_string(items.size()) +
                                       " is not connected");
        planEdge(items[i], plan.regions[next.region++], gathered);
      }
      fp.count = static_cast<std::uint32_t>(items.size());
      return;
    }
    if (!value.tensor.valid())
      throw graph_connection_error(where() + " is not connected to a tensor");
    exec::EdgeRegion &region = plan.regions[next.region++];
    fp.count = 1;
    // An element of a tensor (t[i]) found without making its view.
    layout::StorageRange element;
    if (value.index != VertexFieldValue::notIndexed &&
        layout::elementStorage(value.tensor, value.index, element)) {
      region.numElements = 1;
      region.var = planVariable(element.var);
      region.offset = element.begin;
      return;
    }
    planEdge(value.edge(), region, gathered);
  }

  void planEdge(const Tensor &t, exec::EdgeRegion &region,
                std::vector<exec::GatheredEdge> &gathered) const {
    // Edges are views made for the vertex: their boxes are not kept.
    const layout::EdgeLayout edge = layout::edgeLayout(t);
    const layout::Layout &boxes = edge.layout.get();
    planRegion(region, layout::flatRuns(boxes, *edge.shape), t.numElements(),
               gathered);
    // A direct edge's storage is its one piece.
    if (!region.direct())
      gathered[region.gathered].storage = layout::storageRanges(boxes);
  }

  [[noreturn]] void race(const Access &a, const Access &b, std::size_t element,
                         const char *aDoes, const char *bDoes) const {
    const auto fieldName = [&](const Access &x) {
      const VertexData &v = graph.vertices[x.vertex];
      return std::string(graph.vertexTypes[v.type].info->fields[x.field].name);
    };
    const auto vertexName = [&](const Access &x) {
      const VertexData &v = graph.vertices[x.vertex];
      return "vertex " + std::to_string(x.vertex) + " (" +
             graph.vertexTypes[v.type].name + ")";
    };
    throw graph_connection_error(
        "Race in compute set '" + graph.computeSets[cs].name + "': " +
        vertexName(a) + " field '" + fieldName(a) + "' " + aDoes +
        " element " + std::to_string(element) + " of '" +
        graph.variables[a.var].name + "', which " + vertexName(b) +
        " field '" + fieldName(b) + "' " + bDoes +
        "; vertices of one compute set run in parallel");
  }

  const Graph::Impl &graph;
  unsigned cs;
};

} // namespace

void lowerComputeSets(const Graph::Impl &graph, Executable::Impl &exe,
                      const std::function<void()> &onComputeSet) {
  for (const auto &type : graph.vertexTypes) {
    exec::VertexTypePlan plan;
    plan.name = type.name;
    plan.info = type.info;
    plan.library = type.library;
    for (const auto &t : type.fieldTypes)
      plan.elementBytes.push_back(typeSize(t));
    exe.vertexTypes.push_back(std::move(plan));
  }
  exe.computeSets.resize(graph.computeSets.size());
  // The vertices of a compute set are planned side by side in blocks of
  // consecutive vertices; the first error is then taken in vertex order,
  // so the plan and any error are those of a plan made in order, whatever
  // the number of threads.
  constexpr std::size_t blockSize = 256;
  struct Block {
    PlanPosition start; // where its first vertex's fields etc. go
    std::vector<exec::GatheredEdge> gathered;
    std::size_t failed = ~std::size_t(0); // the vertex that threw
    std::exception_ptr error;
  };
  std::vector<Block> blocks;
  for (unsigned cs = 0; cs != graph.computeSets.size(); ++cs) {
    const auto &info = graph.computeSets[cs];
    auto &plan = exe.computeSets[cs];
    plan.name = info.name;
    ComputeSetChecker checker(graph, cs);
    const std::size_t n = info.vertices.size();
    blocks.clear();
    blocks.resize((n + blockSize - 1) / blockSize);
    std::uint64_t fields = 0, regions = 0, states = 0;
    for (std::size_t i = 0; i != n; ++i) {
      if (i % blockSize == 0)
        blocks[i / blockSize].start = {static_cast<std::uint32_t>(fields),
                                       static_cast<std::uint32_t>(regions),
                                       static_cast<std::uint32_t>(states)};
      const VertexData &v = graph.vertices[info.vertices[i]];
      const PlanPosition size = planSize(v, graph.vertexTypes[v.type]);
      fields += size.field;
      regions += size.region;
      states += size.state;
      // (~0 itself marks a state field: VertexFieldPlan::stateField.)
      if (std::max({fields, regions, states}) >= ~std::uint32_t(0))
        throw graph_program_compilation_error(
            "compute set '" + info.name +
            "' has too many vertex fields or edges (at most 2^32 - 2)");
    }
    plan.vertices.resize(n);
    plan.fields.resize(fields);
    plan.regions.resize(regions);
    plan.states.resize(states);
    runtime::parallelFor(std::size_t(0), blocks.size(), [&](std::size_t b) {
      Block &block = blocks[b];
      PlanPosition at = block.start;
      const std::size_t end = std::min(n, (b + 1) * blockSize);
      for (std::size_t i = b * blockSize; i != end; ++i) {
        try {
          checker.planVertex(info.vertices[i], plan, i, at, block.gathered);
        } catch (...) {
          block.failed = i;
          block.error = std::current_exception();
          return;
        }
      }
    });
    for (std::size_t b = 0; b != blocks.size(); ++b) {
      const std::size_t end = std::min(n, (b + 1) * blockSize);
      for (std::size_t i = b * blockSize; i != end; ++i) {
        if (i == blocks[b].failed)
          std::rethrow_exception(blocks[b].error);
        checker.estimate(plan.vertices[i]);
      }
      // The block's gathered edges join the plan's, after those of the
      // blocks before it.
      Block &block = blocks[b];
      if (block.gathered.empty())
        continue;
      const auto base = static_cast<std::uint32_t>(plan.gathered.size());
      const std::size_t endRegion =
          b + 1 != blocks.size() ? blocks[b + 1].start.region : plan.regions.size();
      for (std::size_t r = block.start.region; r != endRegion; ++r)
        if (!plan.regions[r].direct())
          plan.regions[r].gathered += base;
      std::move(block.gathered.begin(), block.gathered.end(),
                std::back_inserter(plan.gathered));
      std::vector<exec::GatheredEdge>().swap(block.gathered);
    }
    checker.checkRaces(plan);
    if (onComputeSet)
      onComputeSet();
  }
}

} // namespace poplar
