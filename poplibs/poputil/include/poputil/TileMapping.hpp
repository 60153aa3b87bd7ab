#ifndef POPUTIL_TILEMAPPING_HPP
#define POPUTIL_TILEMAPPING_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/poputil_export.hpp>

#include <cstddef>
#include <vector>

namespace poputil {

/// A mapping that spreads the flattened elements of a tensor of `shape`
/// over the tiles in order: every tile with elements has the same number
/// (a multiple of grainSize, at least minElementsPerTile) except the last.
/// `offset` starts at that tile; ascendingOrder false counts tiles down.
POPUTIL_API std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph &graph,
                      std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize,
                      unsigned offset = 0, bool ascendingOrder = true);
POPUTIL_API std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target &target,
                      std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize,
                      unsigned offset = 0, bool ascendingOrder = true);
/// With the defaults for the tensor's type: at least 128 bytes per tile
/// in grains of the type's vector width.
POPUTIL_API std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                      unsigned offset = 0, bool ascendingOrder = true);
POPUTIL_API std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target &target,
                      std::vector<std::size_t> shape,
                      const poplar::Type &elementType, unsigned offset = 0,
                      bool ascendingOrder = true);

POPUTIL_API void mapTensorLinearly(poplar::Graph &graph,
                                   const poplar::Tensor &t,
                                   unsigned minElementsPerTile,
                                   unsigned grainSize);
POPUTIL_API void mapTensorLinearly(poplar::Graph &graph,
                                   const poplar::Tensor &t);
POPUTIL_API void mapTensorLinearlyWithOffset(poplar::Graph &graph,
                                             const poplar::Tensor &t,
                                             unsigned minElementsPerTile,
                                             unsigned grainSize,
                                             unsigned offset,
                                             bool ascendingOrder = true);
POPUTIL_API void mapTensorLinearlyWithOffset(poplar::Graph &graph,
                                             const poplar::Tensor &t,
                                             unsigned offset,
                                             bool ascendingOrder = true);

/// The largest number of elements on one tile above the balanced number
/// (an even spread in whole grains, at least minElementsPerTile).
POPUTIL_API unsigned
getTileImbalance(const poplar::Graph::TileToTensorMapping &mapping,
                 unsigned minElementsPerTile = 0, unsigned grainSize = 1);
POPUTIL_API unsigned getTileImbalance(const poplar::Graph &graph,
                                      const poplar::Tensor &t,
                                      unsigned minElementsPerTile = 0,
                                      unsigned grainSize = 1);

/// Whether the elements of t along `dimension` are on more than one tile.
POPUTIL_API bool dimIsSplitOverTiles(const poplar::Graph &graph,
                                     const poplar::Tensor &t,
                                     unsigned dimension);

/// A tensor of `type` with the shape of full's dimension `dim` only (the
/// other dimensions 1), mapped to the tiles where that slice of `full`
/// lives, so that broadcasting it against full needs little exchange.
POPUTIL_API poplar::Tensor
createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &full,
                       const poplar::Type &type, unsigned dim,
                       bool ditherMapping = false,
                       const poplar::DebugContext &debugContext = {});

// ------------------------------------------------------ multi-IPU helpers

/// A clone of t on IPU dstIPU of `graph` (a graph of several IPUs): each
/// element goes to the same tile number within dstIPU as it had within its
/// own IPU. poplibs_error when dstIPU is not an IPU of the graph.
POPUTIL_API poplar::Tensor
cloneToIpu(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIPU,
           const poplar::DebugContext &debugContext = {},
           poplar::TensorCloneMethod method =
               poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// A clone of t (of srcGraph) in dstGraph, each element on the tile of
/// dstGraph with the number its tile has in srcGraph. poplibs_error when
/// dstGraph has too few tiles.
POPUTIL_API poplar::Tensor
cloneToGraph(poplar::Graph &srcGraph, poplar::Graph &dstGraph,
             const poplar::Tensor &t,
             const poplar::DebugContext &debugContext = {},
             poplar::TensorCloneMethod method =
                 poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// cloneToIpu, and a Copy of t to the clone added to prog.
POPUTIL_API poplar::Tensor
copyToIpu(poplar::Graph &masterGraph, const poplar::Tensor &t,
          poplar::program::Sequence &prog, unsigned dstIPU,
          const poplar::DebugContext &debugContext = {},
          poplar::TensorCloneMethod method =
              poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// cloneToIpu without the copy: copySrc and copyDst are set to the tensors
/// a Copy must move (each element of the clone once, when it aliases).
POPUTIL_API poplar::Tensor
createIpuCopy(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIpu,
              poplar::Tensor &copySrc, poplar::Tensor &copyDst,
              const poplar::DebugContext &debugContext = {},
              poplar::TensorCloneMethod method =
                  poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);

/// Whether the elements of t along `dimension` are on more than one IPU.
POPUTIL_API bool dimIsSplitOverIPUs(const poplar::Graph &graph,
                                    const poplar::Tensor &t,
                                    unsigned dimension);

} // namespace poputil

#endif // POPUTIL_TILEMAPPING_HPP
