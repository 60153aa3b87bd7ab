#include "model/ExchangeModel.hpp"

#include "model/ModelConstants.hpp"

#include <cmath>
#include <vector>

namespace poplar::model {
namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

std::uint64_t ceilDiv(std::uint64_t a, double b) {
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(a) / b));
}

struct TileTotals {
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  unsigned pieces = 0;
  std::uint64_t combine = 0; // cycles of work on what the tile received
};

// Per tile totals of the pairs for which keep(srcIpu != dstIpu) holds.
// They are added up in an array indexed by tile (the pairs come in no
// order) and handed over in tile order.
std::map<unsigned, TileTotals>
tileTotals(const std::unordered_map<std::uint64_t, std::uint64_t> &pairs,
           const Target &target, bool external) {
  std::vector<TileTotals> byTile;
  std::vector<bool> seen;
  auto at = [&](unsigned tile) -> TileTotals & {
    if (tile >= byTile.size()) {
      byTile.resize(std::max<std::size_t>(std::size_t(tile) + 1, target.getNumTiles()));
      seen.resize(byTile.size(), false);
    }
    seen[tile] = true;
    return byTile[tile];
  };
  const unsigned perIpu = target.getTilesPerIPU();
  for (const auto &[key, bytes] : pairs) {
    const unsigned src = static_cast<unsigned>(key >> 32);
    const unsigned dst = static_cast<unsigned>(key & 0xffffffffu);
    if ((src / perIpu != dst / perIpu) != external)
      continue;
    auto &s = at(src);
    s.sent += bytes;
    ++s.pieces;
    auto &d = at(dst);
    d.received += bytes;
    ++d.pieces;
  }
  std::map<unsigned, TileTotals> tiles;
  for (unsigned t = 0; t != byTile.size(); ++t)
    if (seen[t])
      tiles.emplace_hint(tiles.end(), t, byTile[t]);
  return tiles;
}

// Whether the other tiles of t's supertile move nothing in one direction,
// so that t may use the whole supertile's bus (IPUModel
// supportsSuperTileSendReceive).
bool superTileIdle(const std::map<unsigned, TileTotals> &tiles, unsigned tile,
                   const Target &target, bool sending) {
  const unsigned size = target.getTilesPerSuperTile();
  if (!target.getSupportsSuperTileSendReceive() || size < 2)
    return false;
  const unsigned perIpu = target.getTilesPerIPU();
  const unsigned ipuBase = tile / perIpu * perIpu;
  const unsigned first = ipuBase + (tile - ipuBase) / size * size;
  for (unsigned t = first; t != first + size && t < ipuBase + perIpu; ++t) {
    if (t == tile)
      continue;
    auto it = tiles.find(t);
    if (it != tiles.end() && (sending ? it->second.sent : it->second.received) != 0)
      return false;
  }
  return true;
}

// An exchange between IPUs: each tile limited by its own exchange port
// (then its `combine` cycles), each IPU by its links.
ExchangeEstimate overIpuLinks(const Target &target, std::string name,
                              const std::map<unsigned, TileTotals> &tiles) {
  ExchangeEstimate e;
  e.name = std::move(name);
  const unsigned perIpu = target.getTilesPerIPU();
  std::map<unsigned, std::pair<std::uint64_t, std::uint64_t>> ipus; // out, in
  std::uint64_t tileCycles = 0;
  for (const auto &[tile, t] : tiles) {
    auto &io = ipus[tile / perIpu];
    io.first += t.sent;
    io.second += t.received;
    tileCycles = std::max(
        tileCycles, ceilDiv(std::max(t.sent, t.received),
                            std::uint64_t(target.getExchangeBytesPerCycle())) +
                        t.combine);
    e.totalBytes += t.received;
  }
  const double linkRate =
      constants::ipuLinkBytesPerSecond / target.getTileClockFrequency();
  std::uint64_t linkCycles = 0;
  for (const auto &[ipu, io] : ipus)
    linkCycles = std::max(linkCycles, ceilDiv(std::max(io.first, io.second), linkRate));
  e.cycles = constants::exchangeLatencyCycles + std::max(tileCycles, linkCycles);
  for (const auto &[tile, t] : tiles)
    e.tiles.push_back({tile, t.sent, t.received, e.cycles, t.pieces});
  return e;
}

} // namespace

void Traffic::add(unsigned srcTile, unsigned dstTile, std::uint64_t bytes) {
  if (bytes == 0 || srcTile == dstTile)
    return;
  pairs[(std::uint64_t(srcTile) << 32) | dstTile] += bytes;
}

void Traffic::addSharedReceive(unsigned dstTile, std::uint64_t bytes) {
  if (bytes != 0)
    sharedReceived[dstTile] += bytes;
}

void Traffic::setBroadcastSend(unsigned srcTile, std::uint64_t bytes) {
  broadcastSent[srcTile] = bytes;
}

ExchangeEstimate Traffic::internalExchange(const Target &target,
                                           std::string name) const {
  ExchangeEstimate e;
  e.name = std::move(name);
  auto tiles = tileTotals(pairs, target, false);
  const std::uint64_t rate = target.getExchangeBytesPerCycle();
  const std::uint64_t wide = rate * target.getTilesPerSuperTile();
  for (auto &[tile, t] : tiles) {
    // A broadcast leaves the tile once, however many tiles receive it.
    auto once = broadcastSent.find(tile);
    if (once != broadcastSent.end())
      t.sent = std::min(t.sent, once->second);
  }
  for (const auto &[tile, t] : tiles) {
    const std::uint64_t sendRate = superTileIdle(tiles, tile, target, true) ? wide : rate;
    std::uint64_t receiveCycles = 0;
    if (superTileIdle(tiles, tile, target, false)) {
      receiveCycles = ceilDiv(t.received, wide);
    } else {
      // Data the whole supertile receives comes at the supertile's rate.
      auto shared = sharedReceived.find(tile);
      const std::uint64_t same =
          target.getSupportsSuperTileSendReceive() && shared != sharedReceived.end()
              ? std::min(shared->second, t.received)
              : 0;
      receiveCycles = ceilDiv(same, wide) + ceilDiv(t.received - same, rate);
    }
    const std::uint64_t cycles =
        constants::exchangeLatencyCycles +
        std::max(ceilDiv(t.sent, sendRate), receiveCycles);
    e.tiles.push_back({tile, t.sent, t.received, cycles, t.pieces});
    e.cycles = std::max(e.cycles, cycles);
    e.totalBytes += t.received;
  }
  return e;
}

ExchangeEstimate Traffic::externalExchange(const Target &target,
                                           std::string name) const {
  const auto tiles = tileTotals(pairs, target, true);
  if (tiles.empty()) {
    ExchangeEstimate e;
    e.name = std::move(name);
    return e;
  }
  return overIpuLinks(target, std::move(name), tiles);
}

ExchangeEstimate
crossReplicaExchange(const Target &target, std::string name,
                     const std::map<unsigned, ReplicaTileTraffic> &tiles) {
  // As between IPUs of one replica; a tile then combines what it received.
  std::map<unsigned, TileTotals> totals;
  for (const auto &[tile, t] : tiles)
    totals[tile] = {t.sent, t.received, 1, t.combine};
  return overIpuLinks(target, std::move(name), totals);
}

ExchangeEstimate
hostExchange(const Target &target, std::string name,
             const std::map<unsigned, std::pair<std::uint64_t, unsigned>> &bytesAndPieces,
             bool toDevice) {
  ExchangeEstimate e;
  e.name = std::move(name);
  std::uint64_t tileCycles = 0;
  for (const auto &[tile, bp] : bytesAndPieces) {
    e.totalBytes += bp.first;
    tileCycles = std::max(tileCycles, ceilDiv(bp.first,
                                              std::uint64_t(target.getExchangeBytesPerCycle())));
  }
  const double hostRate =
      constants::hostLinkBytesPerSecond / target.getTileClockFrequency();
  e.cycles = std::max(tileCycles, ceilDiv(e.totalBytes, hostRate));
  for (const auto &[tile, bp] : bytesAndPieces) {
    TileTraffic t;
    t.tile = tile;
    (toDevice ? t.received : t.sent) = bp.first;
    t.cycles = e.cycles;
    t.pieces = bp.second;
    e.tiles.push_back(t);
  }
  return e;
}

} // namespace poplar::model
