// Tile memory: what each tile holds (variables, constants, vertex state,
// exchange and rearrangement buffers, stacks, and code when
// IPUModel::compileIPUCode is set), placed in the tile's non-interleaved
// and interleaved regions with alignment gaps; data that is not always
// live (model/Liveness.hpp) shares memory. The formulas are in README.md
// in this folder.
#ifndef POPLAR_SRC_MODEL_MEMORYMODEL_HPP
#define POPLAR_SRC_MODEL_MEMORYMODEL_HPP

#include "compile/ExecutableImpl.hpp"
#include "model/Estimates.hpp"
#include "model/ProgramModel.hpp"

#include <poplar/OptionFlags.hpp>
#include <poplar/detail/CodeletInterface.hpp>

#include <string>

namespace poplar::model {

/// The device size of a vertex type's state with no list items.
std::uint64_t vertexStateBytes(const codelet_interface::VertexInfo &info);

/// One allocation on a tile.
struct Allocation {
  MemoryCategory category = MemoryCategory::Variable;
  std::uint64_t bytes = 0;
  std::uint64_t alignment = 1;
  bool interleaved = false; // must be in interleaved memory
  /// The variable (index in the graph) this allocation holds elements of,
  /// or noVariable.
  std::size_t variable = noVariable;
  static constexpr std::size_t noVariable = ~std::size_t(0);
};

/// Where allocations land on one tile: bytes per category and region, and
/// the extent used with gaps.
struct TilePlacement {
  std::array<std::array<std::uint64_t, 3>, numMemoryCategories> bytes{};
  std::array<std::uint64_t, 3> extent{}; // per region, with gaps
  std::uint64_t end = 0;                 // end of the highest allocation
  /// Per allocation (in the order given): its address on the tile and
  /// the region it landed in. Empty allocations have address 0.
  std::vector<std::uint64_t> address;
  std::vector<MemoryRegion> region;
};

/// Places allocations in order: those that need interleaved memory from
/// its start, the others first-fit from address 0, moving to interleaved
/// memory when they do not fit below it; what ends beyond the tile's
/// memory has overflowed.
TilePlacement placeOnTile(const std::vector<Allocation> &allocations,
                          std::uint64_t interleavedBase,
                          std::uint64_t bytesPerTile);

/// The memory of every tile, and the liveness the profiles report.
MemoryReport computeMemory(const Graph::Impl &graph,
                           const Executable::Impl &exe, const Estimates &est,
                           const MemoryInputs &inputs,
                           const OptionFlags &options);

/// Empty if every tile's memory fits; otherwise what does not fit: the
/// number of tiles, and the worst tiles with what fills them.
std::string outOfMemoryReport(const Graph::Impl &graph, const Estimates &est);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_MEMORYMODEL_HPP
