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

exec::EdgeRegion planRegion(std::vector<layout::FlatRun> runs,
                            std::size_t numElements) {
  exec::EdgeRegion r;
  r.numElements = numElements;
  r.runs = std::move(runs);
  const bool contiguous =
      r.runs.size() == 1 && (r.runs[0].stride == 1 || r.runs[0].length == 1);
  if (r.runs.empty() || contiguous) {
    r.direct = true;
    if (!r.runs.empty()) {
      r.var = r.runs[0].var;
      r.offset = static_cast<std::size_t>(r.runs[0].start);
    }
    r.runs.clear();
  } else {
    r.direct = false;
  }
  return r;
}

class ComputeSetChecker {
public:
  ComputeSetChecker(const Graph::Impl &graph, unsigned cs)
      : graph(graph), cs(cs) {}

  /// A vertex's plan without its perf estimator's figures (see
  /// estimate), and the storage its edges read and write. Touches nothing
  /// shared, so vertices are planned side by side.
  exec::VertexPlan planVertex(unsigned id, std::vector<Access> &reads,
                              std::vector<Access> &writes) const {
    const VertexData &v = graph.vertices[id];
    const VertexType &type = graph.vertexTypes[v.type];
    if (graph.target.getTargetType() != TargetType::CPU &&
        v.tile == std::numeric_limits<unsigned>::max())
      throw invalid_tile_mapping(graph.describeVertex(id) +
                                 " has no tile: map it with "
                                 "Graph::setTileMapping(vertex, tile)");
    exec::VertexPlan plan;
    plan.id = id;
    plan.type = v.type;
    plan.tile = v.tile == std::numeric_limits<unsigned>::max() ? 0 : v.tile;
    plan.cycles = v.cycles;
    plan.flops = v.flops;
    plan.hasPerfEstimate = v.hasPerfEstimate;
    plan.fields.resize(v.fields.size());
    for (unsigned f = 0; f != v.fields.size(); ++f)
      plan.fields[f] =
          planField(id, f, type.info->fields[f], v.fields[f], reads, writes);
    return plan;
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

  /// Takes what some vertices' edges read and write, for checkRaces.
  void addAccesses(std::vector<Access> &&reads, std::vector<Access> &&writes) {
    allReads.push_back(std::move(reads));
    allWrites.push_back(std::move(writes));
  }

  /// Throws graph_connection_error naming both vertices if two vertices
  /// touch an element and one of them writes it.
  void checkRaces() const {
    std::vector<Access> sorted;
    std::size_t numWrites = 0;
    for (const auto &part : allWrites)
      numWrites += part.size();
    sorted.reserve(numWrites);
    for (const auto &part : allWrites)
      sorted.insert(sorted.end(), part.begin(), part.end());
    std::sort(sorted.begin(), sorted.end());
    // Merge overlapping writes; an overlap between two vertices is a race.
    // Every merged interval then belongs to one vertex.
    std::vector<Access> w;
    for (const Access &a : sorted) {
      if (!w.empty() && w.back().var == a.var && a.begin < w.back().end) {
        if (a.vertex != w.back().vertex)
          race(w.back(), a, a.begin, "writes", "writes");
        w.back().end = std::max(w.back().end, a.end);
      } else {
        w.push_back(a);
      }
    }
    // With writes disjoint between vertices, a read races with any write
    // by another vertex that it overlaps.
    for (const auto &part : allReads) {
      for (const Access &r : part) {
        auto it = std::lower_bound(
            w.begin(), w.end(), r, [](const Access &a, const Access &b) {
              return a.var != b.var ? a.var < b.var : a.end <= b.begin;
            });
        for (; it != w.end() && it->var == r.var && it->begin < r.end; ++it)
          if (it->vertex != r.vertex)
            race(*it, r, std::max(it->begin, r.begin), "writes", "reads");
      }
    }
  }

private:
  VertexPerfEstimate runEstimator(unsigned id, const PerfEstimateFunc &f) const {
    const VertexData &v = graph.vertices[id];
    const VertexType &type = graph.vertexTypes[v.type];
    std::vector<std::string> names;
    std::vector<FieldData> fields;
    for (std::size_t i = 0; i != v.fields.size(); ++i) {
      const FieldInfo &info = type.info->fields[i];
      const VertexFieldValue &value = v.fields[i];
      names.push_back(info.name);
      std::size_t size = 1;
      std::vector<std::size_t> itemSizes;
      std::vector<unsigned char> state;
      if (info.kind == FieldKind::State) {
        size = value.size;
        state = value.extra ? value.extra->state : std::vector<unsigned char>{};
        if (info.shape == FieldShape::Scalar)
          size = 1;
      } else if (info.shape == FieldShape::List) {
        size = value.size;
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

  exec::VertexFieldPlan planField(unsigned id, unsigned f, const FieldInfo &info,
                                  const VertexFieldValue &value,
                                  std::vector<Access> &reads,
                                  std::vector<Access> &writes) const {
    exec::VertexFieldPlan plan;
    auto where = [&] {
      return graph.describeVertex(id) + ": field '" + info.name + "'";
    };
    if (info.kind == FieldKind::State) {
      if (!value.stateSet)
        throw graph_connection_error(
            where() + " (vertex state) has no value: give it one with "
                      "Graph::setInitialValue" +
            (info.shape == FieldShape::Vector ? " or setFieldSize" : ""));
      plan.state = value.extra->state;
      plan.stateElements = value.size;
      return plan;
    }
    if (info.shape == FieldShape::List) {
      if (!value.sizeSet)
        throw no_size_specified(where() +
                                " (a list) has no size: call "
                                "Graph::setFieldSize or connect a list");
      const auto &items = value.extra->items;
      for (std::size_t i = 0; i != items.size(); ++i) {
        if (!items[i].valid())
          throw graph_connection_error(where() + ": item " + std::to_string(i) +
                                       " of " + std::to_string(items.size()) +
                                       " is not connected");
        plan.regions.push_back(planEdge(id, f, info.kind, items[i], reads, writes));
      }
      return plan;
    }
    if (!value.tensor.valid())
      throw graph_connection_error(where() + " is not connected to a tensor");
    plan.regions.push_back(planEdge(id, f, info.kind, value.edge(), reads, writes));
    return plan;
  }

  exec::EdgeRegion planEdge(unsigned id, unsigned f, FieldKind kind,
                            const Tensor &t, std::vector<Access> &reads,
                            std::vector<Access> &writes) const {
    // Edges are views made for the vertex: their boxes are not kept.
    const layout::EdgeLayout edge = layout::edgeLayout(t);
    const layout::Layout &boxes = edge.layout.get();
    exec::EdgeRegion region = planRegion(
        layout::flatRuns(boxes, *edge.shape), t.numElements());
    // A direct edge's storage is its one piece.
    if (!region.direct)
      region.storage = layout::storageRanges(boxes);
    region.forEachStorageRange([&](const layout::StorageRange &r) {
      if (graph.variables[r.var].isConstant)
        return; // nothing writes a constant, so reading it cannot race
      const Access a{r.var, r.begin, r.end, id, f};
      if (kind != FieldKind::Input)
        writes.push_back(a);
      else
        reads.push_back(a);
    });
    return region;
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
  // What the vertices planned read and write, in vertex order.
  std::vector<std::vector<Access>> allWrites;
  std::vector<std::vector<Access>> allReads;
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
  // consecutive vertices; what the blocks found (accesses, the first
  // error) is then taken in vertex order, so the plan and any error are
  // those of a plan made in order, whatever the number of threads.
  constexpr std::size_t blockSize = 256;
  struct Block {
    std::vector<Access> reads, writes;
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
    plan.vertices.resize(n);
    blocks.clear();
    blocks.resize((n + blockSize - 1) / blockSize);
    runtime::parallelFor(std::size_t(0), blocks.size(), [&](std::size_t b) {
      Block &block = blocks[b];
      const std::size_t end = std::min(n, (b + 1) * blockSize);
      for (std::size_t i = b * blockSize; i != end; ++i) {
        try {
          plan.vertices[i] =
              checker.planVertex(info.vertices[i], block.reads, block.writes);
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
      checker.addAccesses(std::move(blocks[b].reads), std::move(blocks[b].writes));
    }
    checker.checkRaces();
    if (onComputeSet)
      onComputeSet();
  }
}

} // namespace poplar
