// Exchange cycles: the bytes each tile sends and receives, turned into
// the cycles of an internal exchange (between tiles of one IPU), an
// external one (between IPUs) or a host exchange (streams and remote
// buffers). The formulas are in README.md in this folder.
#ifndef POPLAR_SRC_MODEL_EXCHANGEMODEL_HPP
#define POPLAR_SRC_MODEL_EXCHANGEMODEL_HPP

#include "graph/TileMapping.hpp"
#include "model/Estimates.hpp"

#include <poplar/Target.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace poplar::model {

/// Bytes moved from tile to tile during one exchange phase.
class Traffic {
public:
  void add(unsigned srcTile, unsigned dstTile, std::uint64_t bytes);
  /// Of the bytes dstTile receives (from tiles of its IPU), `bytes` are
  /// the same data that every other tile of its supertile receives in
  /// this phase: with supportsSuperTileSendReceive they arrive at the
  /// whole supertile's rate.
  void addSharedReceive(unsigned dstTile, std::uint64_t bytes);
  /// srcTile broadcasts: of what add() counted it sending to each
  /// destination, only `bytes` (each element once) leave the tile.
  void setBroadcastSend(unsigned srcTile, std::uint64_t bytes);
  bool empty() const { return pairs.empty(); }
  /// The part between tiles of the same IPU.
  ExchangeEstimate internalExchange(const Target &target,
                                    std::string name) const;
  /// The part between IPUs; empty (no tiles) when there is none.
  ExchangeEstimate externalExchange(const Target &target,
                                    std::string name) const;

private:
  std::unordered_map<std::uint64_t, std::uint64_t> pairs; // src<<32 | dst
  std::unordered_map<unsigned, std::uint64_t> sharedReceived;
  std::unordered_map<unsigned, std::uint64_t> broadcastSent;
};

/// One step of an exchange between replicas: tile t sends sent[t] bytes to
/// the same tile of another replica and receives received[t] from one, over
/// the IPU-Links, then spends combine[t] cycles on what it received.
struct ReplicaTileTraffic {
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  std::uint64_t combine = 0;
};
ExchangeEstimate
crossReplicaExchange(const Target &target, std::string name,
                     const std::map<unsigned, ReplicaTileTraffic> &tiles);

/// A host exchange moving bytes[tile] to or from each tile, in `pieces`
/// transfers per tile.
ExchangeEstimate
hostExchange(const Target &target, std::string name,
             const std::map<unsigned, std::pair<std::uint64_t, unsigned>> &bytesAndPieces,
             bool toDevice);

/// Calls f(tile, n) for the pieces of storage elements start,
/// start + stride, ... (length of them) that lie on one tile each.
template <class F>
void forEachTilePiece(const TileMapping &mapping, std::int64_t start,
                      std::int64_t stride, std::size_t length, F &&f) {
  std::size_t i = 0;
  while (i < length) {
    const std::int64_t pos = start + std::int64_t(i) * stride;
    std::size_t begin = 0, end = 0;
    const unsigned tile = mapping.tileOf(static_cast<std::size_t>(pos), begin, end);
    std::size_t n = length - i;
    if (stride > 0)
      n = std::min<std::size_t>(
          n, (end - static_cast<std::size_t>(pos) + std::size_t(stride) - 1) /
                 std::size_t(stride));
    else if (stride < 0)
      n = std::min<std::size_t>(
          n, (static_cast<std::size_t>(pos) - begin) / std::size_t(-stride) + 1);
    f(tile, n);
    i += n;
  }
}

/// Calls f(srcTile, dstTile, n) for the pieces of a copy of `length`
/// elements within which neither the source's nor the destination's tile
/// changes.
template <class F>
void forEachCopyPiece(const TileMapping &src, std::int64_t srcStart,
                      std::int64_t srcStride, const TileMapping &dst,
                      std::int64_t dstStart, std::int64_t dstStride,
                      std::size_t length, F &&f) {
  // One side's current piece of constant tile, looked up again only when
  // the walk leaves it.
  struct Side {
    const TileMapping &mapping;
    std::int64_t start, stride;
    std::size_t begin = 1, end = 0;
    unsigned tile = 0;
    std::size_t run(std::size_t i, std::size_t left) {
      const auto pos = static_cast<std::size_t>(start + std::int64_t(i) * stride);
      if (pos < begin || pos >= end)
        tile = mapping.tileOf(pos, begin, end);
      if (stride > 0)
        return std::min<std::size_t>(
            left, (end - pos + std::size_t(stride) - 1) / std::size_t(stride));
      if (stride < 0)
        return std::min<std::size_t>(left, (pos - begin) / std::size_t(-stride) + 1);
      return left;
    }
  };
  Side s{src, srcStart, srcStride};
  Side d{dst, dstStart, dstStride};
  std::size_t i = 0;
  while (i < length) {
    const std::size_t left = length - i;
    const std::size_t n = std::min(s.run(i, left), d.run(i, left));
    f(s.tile, d.tile, n);
    i += n;
  }
}

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_EXCHANGEMODEL_HPP
