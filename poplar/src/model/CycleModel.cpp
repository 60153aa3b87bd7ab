#include "model/CycleModel.hpp"

#include "model/ModelConstants.hpp"

#include "core/Logging.hpp"

#include <poplar/detail/CodeletInterface.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <string>

namespace poplar::model {
namespace {

// Warns once per process about each vertex type that has no estimate, so
// a large graph does not repeat it per vertex or per compile.
void warnNoEstimate(const std::string &typeName, std::uint64_t cycles) {
  // The vertices of a type usually come together: the type this thread
  // saw last has been warned about, without the lock.
  thread_local std::string lastSeen;
  if (typeName == lastSeen)
    return;
  lastSeen = typeName;
  static std::mutex mutex;
  static std::set<std::string> warned;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!warned.insert(typeName).second)
      return;
  }
  logging::warn(logging::Module::Compiler,
                "Vertex type '{}' has no cycle estimate (use "
                "Graph::setPerfEstimate); the IPU Model uses a default "
                "from its field sizes ({} cycles for the first such vertex)",
                typeName, cycles);
}

} // namespace

TileSchedule scheduleTile(const std::vector<ScheduledVertex> &vertices,
                          unsigned numWorkerContexts) {
  const unsigned workers = std::max(1u, numWorkerContexts);
  std::vector<std::uint64_t> freeAt(workers, 0); // per context, its cycles
  TileSchedule s;
  std::uint64_t allWorkers = 0;
  for (const auto &v : vertices) {
    s.active += v.cycles;
    if (v.kind == VertexKind::AllWorkers) {
      allWorkers += v.cycles;
      continue;
    }
    auto it = std::min_element(freeAt.begin(), freeAt.end());
    *it += v.cycles;
  }
  s.cycles = workers * *std::max_element(freeAt.begin(), freeAt.end()) +
             allWorkers;
  return s;
}

std::uint64_t defaultVertexCycles(VertexKind kind, std::uint64_t regions,
                                  std::uint64_t elements,
                                  unsigned numWorkerContexts) {
  const std::uint64_t work = regions * constants::defaultRegionCycles +
                             elements * constants::defaultElementCycles;
  if (kind == VertexKind::Worker)
    return constants::defaultVertexCycles + work;
  const std::uint64_t workers = std::max(1u, numWorkerContexts);
  return constants::defaultVertexCycles + workers * ((work + workers - 1) / workers);
}

VertexKind vertexKind(const exec::VertexTypePlan &type) {
  if (type.info &&
      type.info->base != codelet_interface::VertexBase::Vertex)
    return VertexKind::AllWorkers;
  return VertexKind::Worker;
}

std::uint64_t vertexCycles(const exec::ComputeSetPlan &plan,
                           const exec::VertexPlan &vertex,
                           const exec::VertexTypePlan &type,
                           unsigned numWorkerContexts) {
  if (vertex.hasPerfEstimate)
    return vertex.cycles;
  std::uint64_t regions = 0, elements = 0;
  for (const auto &field : plan.fieldsOf(vertex))
    for (const auto &region : plan.regionsOf(field)) {
      ++regions;
      elements += region.numElements;
    }
  const std::uint64_t cycles =
      defaultVertexCycles(vertexKind(type), regions, elements, numWorkerContexts);
  warnNoEstimate(type.name, cycles);
  return cycles;
}

ComputeSetEstimate
estimateComputeSet(const exec::ComputeSetPlan &plan,
                   const std::vector<exec::VertexTypePlan> &types,
                   const std::vector<unsigned> &profileType,
                   unsigned numWorkerContexts) {
  ComputeSetEstimate e;
  e.name = plan.name;
  e.numVertices = plan.vertices.size();
  // Vertices by tile, keeping the order they were added in on each tile.
  std::vector<std::uint32_t> order(plan.vertices.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return plan.vertices[a].tile < plan.vertices[b].tile;
  });
  std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>> byType; // count, active
  std::vector<ScheduledVertex> onTile;
  for (std::size_t i = 0; i != order.size();) {
    const unsigned tile = plan.vertices[order[i]].tile;
    onTile.clear();
    for (; i != order.size() && plan.vertices[order[i]].tile == tile; ++i) {
      const exec::VertexPlan &v = plan.vertices[order[i]];
      const exec::VertexTypePlan &type = types[v.type];
      const ScheduledVertex sv{vertexKind(type),
                               vertexCycles(plan, v, type, numWorkerContexts)};
      onTile.push_back(sv);
      auto &t = byType[profileType[v.type]];
      ++t.first;
      t.second += sv.cycles;
    }
    const TileSchedule s = scheduleTile(onTile, numWorkerContexts);
    e.tiles.push_back({tile, s.cycles, s.active});
    e.cycles = std::max(e.cycles, s.cycles);
    e.totalCycles += s.cycles;
    e.totalActive += s.active;
  }
  for (const auto &[type, countActive] : byType) {
    e.vertexTypes.push_back(type);
    e.vertexCounts.push_back(countActive.first);
    e.activeCyclesByType.push_back(countActive.second);
  }
  return e;
}

} // namespace poplar::model
