// The IPU Model's view of compiled programs: each lowered step becomes the
// programs the graph profile lists and the BSP steps it simulates (syncs,
// exchanges, compute), with cycles from the cycle and exchange models.
#ifndef POPLAR_SRC_MODEL_PROGRAMMODEL_HPP
#define POPLAR_SRC_MODEL_PROGRAMMODEL_HPP

#include "compile/ExecutableImpl.hpp"
#include "model/Estimates.hpp"
#include "model/Liveness.hpp"

#include <functional>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>

#include <array>
#include <map>
#include <memory>

namespace poplar::model {

/// Buffers live during one step, per tile: bytes received for vertices
/// (message), bytes of outputs waiting to be sent (outputEdge) and edges
/// gathered from non-contiguous storage (rearrangement).
struct PhaseBuffers {
  unsigned computeSet = 0;
  std::map<unsigned, std::array<std::uint64_t, 3>> perTile;
};

/// The on-tile copy vertices of a generated compute set: pieces per tile.
struct CopyVertices {
  unsigned computeSet = 0;
  std::map<unsigned, std::uint64_t> piecesPerTile;
};

/// What the memory model needs besides the graph and the estimates.
struct MemoryInputs {
  std::vector<bool> computeSetUsed; // graph compute sets run by a program
  std::vector<PhaseBuffers> phases;  // one per compute set used
  std::vector<CopyVertices> copies;
  std::vector<unsigned> profileType; // graph vertex type -> profile index
  LivenessInputs liveness;
};

/// Works out the estimates of an executable compiled for an IPU target
/// and marks each of its lowered steps with the range of simulated steps
/// it runs. Memory is included (model/MemoryModel.cpp).
/// The compile's progress: onSteps(n) says n more steps are done, one
/// after each compute set's estimate and after the program model, and
/// memoryModelSteps(graph) after the memory model (its liveness analysis
/// takes about as long as the rest together).
std::shared_ptr<const Estimates>
estimateExecutable(const Graph::Impl &graph, Executable::Impl &exe,
                   const OptionFlags &options,
                   const std::function<void(unsigned)> &onSteps = {});
unsigned memoryModelSteps(const Graph::Impl &graph);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_PROGRAMMODEL_HPP
