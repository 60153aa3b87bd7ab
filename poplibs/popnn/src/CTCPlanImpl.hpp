// What a CTC plan holds: the problem it was made for and the options,
// and how it maps a batch entry to a tile.
#ifndef POPNN_SRC_CTCPLANIMPL_HPP
#define POPNN_SRC_CTCPLANIMPL_HPP

#include <popnn/CTCPlan.hpp>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>

#include <string>
#include <tuple>

namespace popnn {
namespace ctc {

class Plan::Impl {
public:
  enum class Kind { Loss, Inference };
  Kind kind = Kind::Loss;
  poplar::Type inType = poplar::FLOAT;
  poplar::Type outType = poplar::FLOAT;
  poplar::Type partialsType = poplar::FLOAT;
  unsigned batchSize = 0;
  unsigned maxTime = 0;
  unsigned maxLabelLength = 0; // loss only
  unsigned numClasses = 0;
  unsigned beamWidth = 0; // inference only
  double availableMemoryProportion = 0.6;
  unsigned numTiles = 1;

  /// Each batch entry's work and data on one tile, the entries dealt out
  /// over the tiles.
  unsigned tileOf(unsigned batchEntry) const { return batchEntry % numTiles; }

  auto key() const {
    return std::make_tuple(int(kind), inType, outType, partialsType, batchSize,
                           maxTime, maxLabelLength, numClasses, beamWidth,
                           availableMemoryProportion, numTiles);
  }
};

/// The plan's options parsed; invalid_option naming a bad one.
void parsePlanOptions(Plan::Impl &impl, const poplar::OptionFlags &options,
                      const std::string &opName);

/// The plan's numbers checked (all positive; blank and classes...), and
/// the data and labels they describe able to fit in `memoryBytes` (the
/// target's memory).
void checkPlanSizes(const Plan::Impl &impl, std::uint64_t memoryBytes,
                    const std::string &opName);

/// A [maxTime][batchSize][numClasses] tensor, each entry on its tile.
poplar::Tensor createPlannedData(poplar::Graph &graph, const poplar::Type &type,
                                 std::size_t batchSize, std::size_t maxTime,
                                 std::size_t numClasses, const Plan::Impl &plan,
                                 const poplar::DebugContext &dc,
                                 const std::string &opName);

/// Throws a poplibs_error naming the tensor unless it has this shape and
/// one of the types.
void checkCtcTensor(const poplar::Tensor &t,
                    const std::vector<std::size_t> &shape,
                    const std::vector<poplar::Type> &types,
                    const std::string &what, const std::string &opName);

} // namespace ctc
} // namespace popnn

#endif // POPNN_SRC_CTCPLANIMPL_HPP
