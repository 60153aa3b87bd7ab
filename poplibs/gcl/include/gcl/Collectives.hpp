// Collective operations: between the replicas of a replicated graph
// (CrossReplica) and between the IPUs of one replica (WithinReplica).
#ifndef GCL_COLLECTIVES_HPP
#define GCL_COLLECTIVES_HPP

#include <gcl/gcl_export.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace gcl {

/// How the values of the replicas (or IPUs) combine. LOCAL keeps each
/// one's own value; MEAN is the sum divided by the number combined;
/// SQUARE_ADD is the sum of the squares.
enum class CollectiveOperator {
  ADD,
  MEAN,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND,
  LOGICAL_OR,
  SQUARE_ADD,
  LOCAL
};

GCL_API std::istream &operator>>(std::istream &is, CollectiveOperator &op);
GCL_API std::ostream &operator<<(std::ostream &os, const CollectiveOperator &op);

/// Which replicas communicate: all of them (ALL); groups of
/// replicaGroupSize replicas that are consecutive, or replicaGroupStride
/// apart (CONSECUTIVE); or the replicas at the same position of each
/// consecutive block of replicaGroupSize (ORTHOGONAL).
enum class CommGroupType { ALL, CONSECUTIVE, ORTHOGONAL };

struct GCL_API CommGroup {
  CommGroupType type = CommGroupType::ALL;
  unsigned replicaGroupSize = 0;
  unsigned replicaGroupStride = 1;

  CommGroup() = default;
  CommGroup(const CommGroupType &groupType, unsigned groupSize,
            unsigned groupStride = 1)
      : type(groupType), replicaGroupSize(groupSize),
        replicaGroupStride(groupStride) {}

  /// The groups of a graph of `replicationFactor` replicas, each listing
  /// its replicas in ring order. Throws poputil::poplibs_error when the
  /// group does not divide the replicas.
  std::vector<std::vector<unsigned>> groups(unsigned replicationFactor) const;
};

// ---------------------------------------------------------- cross replica
//
// `data` is the tensor of every replica; the collective combines the
// replicas' values element by element. On the IPU Model it runs as a ring
// over the IPU-Links, estimated step by step.

/// Every replica gets the combination of all replicas' `data` (a new
/// tensor mapped as `data`).
GCL_API poplar::Tensor
allReduceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                      CollectiveOperator op, poplar::program::Sequence &prog,
                      const CommGroup &group,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});
GCL_API poplar::Tensor
allReduceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                      CollectiveOperator op, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// As allReduceCrossReplica, the result written to `destination`.
GCL_API void allReduceWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allReduceWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allReduceToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allReduceToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// As allReduceCrossReplica, the result written back to `data`.
GCL_API void allReduceInPlaceCrossReplica(
    poplar::Graph &graph, poplar::Tensor &data, CollectiveOperator op,
    poplar::program::Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allReduceInPlaceCrossReplica(
    poplar::Graph &graph, poplar::Tensor &data, CollectiveOperator op,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// Replica k of a group of n gets part k of the combination of the
/// flattened `data`: ceil(numElements / n) elements (the last part padded
/// with zeros), a new 1-D tensor spread over the tiles of `data`.
GCL_API poplar::Tensor
reduceScatterCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                          CollectiveOperator op, poplar::program::Sequence &prog,
                          const CommGroup &group,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {});
GCL_API poplar::Tensor
reduceScatterCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                          CollectiveOperator op, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {});
GCL_API void reduceScatterWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void reduceScatterWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void reduceScatterToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog, const CommGroup &group,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void reduceScatterToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, CollectiveOperator op,
    poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// Every replica gets the `data` of every replica of its group, stacked in
/// group order: a new tensor of shape {n, data.shape()...}, each slice
/// mapped as `data`.
GCL_API poplar::Tensor
allGatherCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                      poplar::program::Sequence &prog, const CommGroup &group,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});
GCL_API poplar::Tensor
allGatherCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});
GCL_API void allGatherWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, poplar::program::Sequence &prog,
    const CommGroup &group, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allGatherWithOutputCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allGatherToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, poplar::program::Sequence &prog,
    const CommGroup &group, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});
GCL_API void allGatherToDestinationCrossReplica(
    poplar::Graph &graph, const poplar::Tensor &data,
    poplar::Tensor &destination, poplar::program::Sequence &prog,
    const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

// --------------------------------------------------------- within replica
//
// `data` has an outer dimension of one slice per IPU rank: slice i lives on
// IPU i. The collective runs as a ring of the IPUs of the graph.

/// A piece of a reduce-scattered tensor: the combined `tensor` of part
/// `index`, starting `offset` elements into the flattened slice.
struct GCL_API Chunk {
  poplar::Tensor tensor;
  unsigned index = 0;
  unsigned offset = 0;
  Chunk() = default;
  Chunk(poplar::Tensor tensor, unsigned index, unsigned offset)
      : tensor(std::move(tensor)), index(index), offset(offset) {}
};

/// The chunks of reduceScatterWithinReplica, one per rank (chunk i on
/// IPU i), with the input they came from.
struct GCL_API Chunks {
  poplar::Tensor originalInput;
  std::vector<Chunk> chunks;
  Chunks() = default;
  explicit Chunks(unsigned size) : chunks(size) {}
};

/// Slice i of the result (same shape as `data`, on IPU i) is the
/// combination of every slice.
GCL_API poplar::Tensor
allReduceWithinReplica(poplar::Graph &graph, const poplar::Tensor &data,
                       CollectiveOperator op, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {});

/// Chunk i (on IPU i) is part i of the combination of the flattened
/// slices.
GCL_API Chunks
reduceScatterWithinReplica(poplar::Graph &graph, const poplar::Tensor &data,
                           CollectiveOperator op,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {});

/// Every rank gets every chunk: slice i of the result (on IPU i) holds the
/// chunks in index order, in the shape of the original input's slice.
GCL_API poplar::Tensor
allGatherWithinReplica(poplar::Graph &graph, const Chunks &toGather,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {});

/// Tiles to use on each IPU: the `numTiles` tiles from `offset` (each
/// IPU's tile numbers, counting from 0), in ascending order (so `sorted`
/// has nothing to change). With `tilePairs`, offset and count must be even
/// so that both tiles of each pair are chosen.
GCL_API std::vector<unsigned> perIPUTiles(const poplar::Graph &graph,
                                          unsigned offset, unsigned numTiles,
                                          bool sorted = true,
                                          bool tilePairs = true);

} // namespace gcl

#endif // GCL_COLLECTIVES_HPP
