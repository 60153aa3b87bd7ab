// Compute cycles: how the vertices of a compute set are scheduled on a
// tile's worker contexts, and the default estimate of a vertex that has
// none. The formulas are in README.md in this folder.
#ifndef POPLAR_SRC_MODEL_CYCLEMODEL_HPP
#define POPLAR_SRC_MODEL_CYCLEMODEL_HPP

#include "compile/ExecutableImpl.hpp"
#include "model/Estimates.hpp"

#include <cstdint>
#include <vector>

namespace poplar::model {

/// How a vertex runs: on one worker context (Vertex: its estimate counts
/// the context's own cycles), or on all of them (MultiVertex,
/// SupervisorVertex: the estimate counts tile cycles).
enum class VertexKind { Worker, AllWorkers };

struct ScheduledVertex {
  VertexKind kind = VertexKind::Worker;
  std::uint64_t cycles = 0;
};

struct TileSchedule {
  std::uint64_t cycles = 0; // the tile's time, idle issue slots included
  std::uint64_t active = 0; // issue slots in which a vertex runs
};

/// The time one tile takes to run its vertices of a compute set.
/// Worker vertices are started in order, each on the context that becomes
/// free first (round robin when all take the same time); the barrel gives
/// each context one issue slot in numWorkerContexts, so a context's cycles
/// last numWorkerContexts times longer on the tile. The all-worker
/// vertices run alone, one after another.
TileSchedule scheduleTile(const std::vector<ScheduledVertex> &vertices,
                          unsigned numWorkerContexts);

/// The estimate used for a vertex without one: thread cycles for a
/// worker vertex, tile cycles for the others (the work split evenly over
/// the workers). `regions` and `elements` count the vertex's edges.
std::uint64_t defaultVertexCycles(VertexKind kind, std::uint64_t regions,
                                  std::uint64_t elements,
                                  unsigned numWorkerContexts);

VertexKind vertexKind(const exec::VertexTypePlan &type);

/// The estimate of one vertex: its perf estimate if it has one, else the
/// default (a warning is logged once per vertex type name). `vertex` is
/// one of `plan`'s.
std::uint64_t vertexCycles(const exec::ComputeSetPlan &plan,
                           const exec::VertexPlan &vertex,
                           const exec::VertexTypePlan &type,
                           unsigned numWorkerContexts);

/// The compute set's cycles per tile. profileType maps graph vertex types
/// to the profile's vertex type indices.
ComputeSetEstimate estimateComputeSet(const exec::ComputeSetPlan &plan,
                                      const std::vector<exec::VertexTypePlan> &types,
                                      const std::vector<unsigned> &profileType,
                                      unsigned numWorkerContexts);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_CYCLEMODEL_HPP
