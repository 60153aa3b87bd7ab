// What each tile did over some runs of the simulated steps, by activity:
// the execution profile and profile.pop both report it.
#ifndef POPLAR_SRC_MODEL_TILEACTIVITY_HPP
#define POPLAR_SRC_MODEL_TILEACTIVITY_HPP

#include "model/Estimates.hpp"

#include <cstdint>
#include <vector>

namespace poplar::model {

/// Cycles per tile; sync includes waiting for slower tiles.
struct TileActivity {
  std::vector<std::uint64_t> activeCompute, compute, doExchange,
      globalExchange, streamCopy, sync, control;
};

/// The activity when step k ran counts[k] times in `cycles` (the latest
/// IPU clock): a tile syncs or waits whenever it neither runs control code
/// nor computes nor exchanges.
TileActivity tileActivity(const Estimates &est,
                          const std::vector<std::uint64_t> &counts,
                          std::uint64_t cycles);

/// The exchange a DoExchange, GlobalExchange or StreamCopy step runs.
const ExchangeEstimate &exchangeOf(const Estimates &est, const SimStep &s);

} // namespace poplar::model

#endif // POPLAR_SRC_MODEL_TILEACTIVITY_HPP
