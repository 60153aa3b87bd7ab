// Running compute sets: the vertices of a compute set are constructed once
// per loaded engine, their fields bound to storage, and run in parallel on
// the host's threads (oneTBB) each time the compute set executes.
#ifndef POPLAR_SRC_RUNTIME_VERTEXEXECUTION_HPP
#define POPLAR_SRC_RUNTIME_VERTEXEXECUTION_HPP

#include "compile/ExecutableImpl.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

/// Memory handed out in pieces that never move, freed all at once.
class Arena {
public:
  void *allocate(std::size_t bytes, std::size_t align);

private:
  std::vector<std::unique_ptr<unsigned char[]>> blocks;
  unsigned char *next = nullptr;
  std::size_t left = 0;
};

/// The vertices of one compute set on a loaded engine.
class ComputeSetInstance {
public:
  /// `storage` is the engine's storage per variable; it must not move
  /// while this instance exists.
  ComputeSetInstance(const exec::ComputeSetPlan &plan,
                     const std::vector<exec::VertexTypePlan> &types,
                     std::vector<std::vector<unsigned char>> &storage,
                     std::vector<std::uint32_t> &tileBehaviour);
  ComputeSetInstance(const ComputeSetInstance &) = delete;
  ComputeSetInstance &operator=(const ComputeSetInstance &) = delete;
  ~ComputeSetInstance();

  /// Runs every vertex once. Throws poplar::application_runtime_error
  /// naming the vertex if one reports failure or raises a floating-point
  /// exception its tile's behaviour enables.
  void execute();

private:
  // A field whose elements are not contiguous: gathered into `buffer`
  // before compute (inputs) and scattered back after (outputs).
  struct Transfer {
    unsigned char *buffer;
    const exec::EdgeRegion *region;
    std::size_t elementBytes;
    bool in;
    bool out;
  };
  struct Vertex {
    void *object;
    const codelet_interface::VertexInfo *info;
    std::uint32_t firstTransfer;
    std::uint32_t numTransfers;
  };

  void runVertex(std::size_t index);
  std::string describeVertex(std::size_t index) const;

  const exec::ComputeSetPlan &plan;
  const std::vector<exec::VertexTypePlan> &types;
  std::vector<std::vector<unsigned char>> &storage;
  /// Per tile: the floating-point behaviour (CSRFunctions.hpp); vertices
  /// that change it write `newBehaviour`, applied after the compute set.
  std::vector<std::uint32_t> &tileBehaviour;
  std::vector<std::uint32_t> newBehaviour;
  std::vector<char> behaviourChanged;
  std::uint64_t runs = 0; // seeds stochastic rounding afresh each run
  unsigned numWorkers;
  Arena arena;
  std::vector<Vertex> vertices;
  std::vector<Transfer> transfers;
};

} // namespace poplar

#endif // POPLAR_SRC_RUNTIME_VERTEXEXECUTION_HPP
