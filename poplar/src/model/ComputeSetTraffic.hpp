// What a compute set moves: the exchanges before and after its vertices
// run (the edges they connect to data on other tiles), the storage it
// reads and writes, and the buffers its vertices hold, per tile.
#ifndef POPLAR_SRC_MODEL_COMPUTESETTRAFFIC_HPP
#define POPLAR_SRC_MODEL_COMPUTESETTRAFFIC_HPP

#include "compile/ExecutableImpl.hpp"
#include "graph/TileMapping.hpp"
#include "model/ExchangeModel.hpp"
#include "model/Liveness.hpp"
#include "model/ProgramModel.hpp"

#include <poplar/Graph.hpp>

#include <memory>
#include <vector>

namespace poplar::model {

struct ComputeSetTraffic {
  Traffic pre, post;
  StepAccess access;
  PhaseBuffers buffers;
};

/// Working memory that computeSetTraffic reuses from call to call: one
/// per thread.
class TrafficScratch {
public:
  TrafficScratch();
  ~TrafficScratch();
  struct Buffers;
  std::unique_ptr<Buffers> buffers;
};

/// The traffic of compute set `cs` of a compiled graph, with `mappings`
/// the graph's variables' tile mappings, by variable. Reads only its
/// arguments and writes only `scratch`: compute sets can be worked out
/// side by side, each thread with its own scratch.
ComputeSetTraffic computeSetTraffic(const Graph::Impl &graph,
                                    const Executable::Impl &exe,
                                    const std::vector<FlatTileMapping> &mappings,
                                    unsigned cs, TrafficScratch &scratch);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_COMPUTESETTRAFFIC_HPP
