#include <popart/commgroup.hpp>
#include <popart/error.hpp>
#include <popart/tensorlocation.hpp>

#include <ostream>

namespace popart {

TensorLocation::TensorLocation()
    : TensorLocation(TensorStorage::OnChip, TileSet::Compute, TileSet::Compute,
                     ReplicatedTensorSharding::Off) {}

TensorLocation::TensorLocation(TensorStorage storage_)
    : TensorLocation(storage_, TileSet::Compute, TileSet::Compute,
                     ReplicatedTensorSharding::Off) {}

TensorLocation::TensorLocation(TensorStorage storage_,
                               ReplicatedTensorSharding rts)
    : TensorLocation(storage_, TileSet::Compute, TileSet::Compute, rts) {}

TensorLocation::TensorLocation(TensorStorage storage_,
                               ReplicatedTensorSharding rts,
                               CommGroup domain)
    : TensorLocation(storage_, TileSet::Compute, TileSet::Compute, rts,
                     domain) {}

TensorLocation::TensorLocation(TensorStorage storage_, TileSet load,
                               TileSet store, ReplicatedTensorSharding rts)
    : TensorLocation(storage_, load, store, rts, CommGroup()) {}

TensorLocation::TensorLocation(TensorStorage storage_, TileSet load,
                               TileSet store, ReplicatedTensorSharding rts,
                               CommGroup domain)
    : storage(storage_), loadTileSet(load), storageTileSet(store),
      replicatedTensorSharding(rts), shardingDomain(domain) {}

TensorLocation::TensorLocation(std::vector<int64_t> s) {
  if (s.size() != 6)
    throw error("TensorLocation: a serialised location has 6 values, not {}",
                s.size());
  storage = static_cast<TensorStorage>(s[0]);
  loadTileSet = static_cast<TileSet>(s[1]);
  storageTileSet = static_cast<TileSet>(s[2]);
  replicatedTensorSharding = static_cast<ReplicatedTensorSharding>(s[3]);
  shardingDomain = CommGroup(static_cast<CommGroupType>(s[4]),
                             static_cast<unsigned>(s[5]));
}

std::vector<int64_t> TensorLocation::serialize() const {
  return {static_cast<int64_t>(storage),
          static_cast<int64_t>(loadTileSet),
          static_cast<int64_t>(storageTileSet),
          static_cast<int64_t>(replicatedTensorSharding),
          static_cast<int64_t>(shardingDomain.type),
          static_cast<int64_t>(shardingDomain.replicaGroupSize)};
}

bool TensorLocation::operator==(const TensorLocation &rhs) const {
  return serialize() == rhs.serialize();
}

bool TensorLocation::operator!=(const TensorLocation &rhs) const {
  return !(*this == rhs);
}

bool TensorLocation::isRemote() const {
  return replicatedTensorSharding == ReplicatedTensorSharding::On ||
         storage == TensorStorage::OffChip;
}

std::ostream &operator<<(std::ostream &os, const TensorStorage &s) {
  switch (s) {
  case TensorStorage::OnChip:
    return os << "OnChip";
  case TensorStorage::OffChip:
    return os << "OffChip";
  default:
    throw error("Unexpected value for TensorStorage {}", static_cast<int>(s));
  }
}

std::ostream &operator<<(std::ostream &os, const TileSet &t) {
  switch (t) {
  case TileSet::Compute:
    return os << "Compute";
  case TileSet::IO:
    return os << "IO";
  case TileSet::Undefined:
    return os << "Undefined";
  default:
    throw error("Unexpected value for TileSet {}", static_cast<int>(t));
  }
}

std::ostream &operator<<(std::ostream &os, const ReplicatedTensorSharding &r) {
  switch (r) {
  case ReplicatedTensorSharding::Off:
    return os << "Off";
  case ReplicatedTensorSharding::On:
    return os << "On";
  default:
    throw error("Unexpected value for ReplicatedTensorSharding {}",
                static_cast<int>(r));
  }
}

std::ostream &operator<<(std::ostream &os, const TensorLocation &l) {
  os << "(" << l.storage << ", loadTileSet=" << l.loadTileSet
     << ", storageTileSet=" << l.storageTileSet
     << ", RTS=" << l.replicatedTensorSharding;
  if (l.replicatedTensorSharding == ReplicatedTensorSharding::On)
    os << ", shardingDomain=" << l.shardingDomain;
  return os << ")";
}

} // namespace popart
