#include "model/TileActivity.hpp"

namespace poplar::model {

const ExchangeEstimate &exchangeOf(const Estimates &est, const SimStep &s) {
  using Kind = SimStep::Kind;
  return s.kind == Kind::DoExchange       ? est.exchanges[s.index]
         : s.kind == Kind::GlobalExchange ? est.externalExchanges[s.index]
                                          : est.hostExchanges[s.index];
}

TileActivity tileActivity(const Estimates &est,
                          const std::vector<std::uint64_t> &counts,
                          std::uint64_t cycles) {
  using Kind = SimStep::Kind;
  const unsigned numTiles = est.target.getNumTiles();
  TileActivity a;
  for (auto *v : {&a.activeCompute, &a.compute, &a.doExchange,
                  &a.globalExchange, &a.streamCopy, &a.sync, &a.control})
    v->assign(numTiles, 0);
  std::vector<std::uint64_t> busy(numTiles, 0);
  std::uint64_t everyTileControl = 0;
  for (std::size_t k = 0; k != est.steps.size() && k != counts.size(); ++k) {
    const std::uint64_t n = counts[k];
    if (n == 0)
      continue;
    const auto &s = est.steps[k];
    switch (s.kind) {
    case Kind::Sync:
      break;
    case Kind::Control:
      everyTileControl += n * s.cycles;
      break;
    case Kind::OnTileExecute:
      for (const auto &t : est.computeSets[s.index].tiles) {
        a.compute[t.tile] += n * t.cycles;
        a.activeCompute[t.tile] += n * t.active;
        busy[t.tile] += n * t.cycles;
      }
      break;
    default: {
      auto &into = s.kind == Kind::DoExchange       ? a.doExchange
                   : s.kind == Kind::GlobalExchange ? a.globalExchange
                                                    : a.streamCopy;
      for (const auto &t : exchangeOf(est, s).tiles) {
        into[t.tile] += n * t.cycles;
        busy[t.tile] += n * t.cycles;
      }
      break;
    }
    }
  }
  for (unsigned t = 0; t != numTiles; ++t) {
    // Syncs, and waiting for other tiles and, on several IPUs, for other IPUs.
    a.sync[t] = cycles - everyTileControl - busy[t];
    a.control[t] = everyTileControl;
  }
  return a;
}

} // namespace poplar::model
