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
  // before compute (every field: outputs keep the elements a vertex leaves
  // alone) and scattered back after (outputs). Its runs are copied in
  // groups, planned when the instance is built.
  struct Transfer {
    unsigned char *buffer;
    const std::vector<layout::FlatRun> *runs;
    std::size_t elementBytes;
    std::uint32_t firstGroup;
    std::uint32_t numGroups;
    bool out;
  };
  // Consecutive runs of a region copied together: one contiguous run
  // (a memcpy), or strided runs (or single elements) of one variable with
  // the same length and stride, copied element by element, gathered in
  // order of their start in storage (`order` into runOrder, or noOrder
  // when they are in that order already).
  static constexpr std::uint32_t noOrder = ~std::uint32_t(0);
  struct RunGroup {
    std::uint32_t first;
    std::uint32_t count;
    std::uint32_t order;
    bool contiguous;
  };
  struct Vertex {
    void *object;
    const codelet_interface::VertexInfo *info;
    std::uint32_t firstTransfer;
    std::uint32_t numTransfers;
  };

  // Appends the region's groups to `groups`; orders those from firstGroup.
  void planGroups(const std::vector<layout::FlatRun> &runs);
  void orderGroups(const std::vector<layout::FlatRun> &runs,
                   std::size_t firstGroup);
  template <bool ToBuffer> void transfer(const Transfer &t);
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
  std::size_t fieldBytes = 0; // of every vertex's edges, for execute()
  Arena arena;
  std::vector<Vertex> vertices;
  std::vector<Transfer> transfers;
  std::vector<RunGroup> groups;
  // Per ordered group: its runs' indices from its first run, in order.
  std::vector<std::uint32_t> runOrder;
};

} // namespace poplar

#endif // POPLAR_SRC_RUNTIME_VERTEXEXECUTION_HPP
