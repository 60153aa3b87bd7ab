// Where a tensor lives: on chip or in streaming memory, on which tiles, and
// whether it is sharded over the replicas (replicated tensor sharding).
// SessionOptions' *TensorLocationSettings hold one per kind of tensor.
#ifndef POPART_TENSORLOCATION_HPP
#define POPART_TENSORLOCATION_HPP

#include <popart/commgroup.hpp>
#include <popart/popart_export.hpp>

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace popart {

/// OnChip: in the IPUs' memory; OffChip: in streaming memory, loaded when
/// used.
enum class TensorStorage { OnChip = 0, OffChip = 1, N = 2 };

/// Compute: the tiles that compute; IO: the tiles set aside for host and
/// streaming-memory transfers.
enum class TileSet { Compute = 0, IO = 1, Undefined = 2, N = 3 };

/// On: each replica holds 1 / replicas of the tensor.
enum class ReplicatedTensorSharding { Off = 0, On = 1, N = 2 };

class POPART_API TensorLocation {
public:
  /// OnChip, Compute tiles, not sharded.
  TensorLocation();
  TensorLocation(TensorStorage storage);
  TensorLocation(TensorStorage storage,
                 ReplicatedTensorSharding replicatedTensorSharding);
  TensorLocation(TensorStorage storage,
                 ReplicatedTensorSharding replicatedTensorSharding,
                 CommGroup shardingDomain);
  TensorLocation(TensorStorage storage, TileSet loadTileSet,
                 TileSet storageTileSet,
                 ReplicatedTensorSharding replicatedTensorSharding);
  TensorLocation(TensorStorage storage, TileSet loadTileSet,
                 TileSet storageTileSet,
                 ReplicatedTensorSharding replicatedTensorSharding,
                 CommGroup shardingDomain);
  /// From serialize()'s list.
  TensorLocation(std::vector<int64_t> serialized);

  bool operator==(const TensorLocation &rhs) const;
  bool operator!=(const TensorLocation &rhs) const;
  /// storage, loadTileSet, storageTileSet, replicatedTensorSharding,
  /// shardingDomain's type and group size.
  std::vector<int64_t> serialize() const;
  /// Off chip or sharded over the replicas.
  bool isRemote() const;

  TensorStorage storage;
  TileSet loadTileSet;
  TileSet storageTileSet;
  ReplicatedTensorSharding replicatedTensorSharding;
  /// The replicas a sharded tensor is spread over (all by default).
  CommGroup shardingDomain;
};

POPART_API std::ostream &operator<<(std::ostream &, const TensorStorage &);
POPART_API std::ostream &operator<<(std::ostream &, const TileSet &);
POPART_API std::ostream &operator<<(std::ostream &,
                                    const ReplicatedTensorSharding &);
POPART_API std::ostream &operator<<(std::ostream &, const TensorLocation &);

} // namespace popart

#endif
