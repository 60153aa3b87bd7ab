// The convolution planner and its cycle model (described in poplin's
// README).
#ifndef POPLIN_SRC_CONVPLAN_HPP
#define POPLIN_SRC_CONVPLAN_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

namespace poplin {
namespace detail {

struct ConvOptions {
  double availableMemoryProportion = 0.6;
  poplar::Type partialsType = poplar::FLOAT;
  std::string pass = "NONE";
  // The tiles of each IPU the convolution may use; 0 for all of them.
  unsigned tilesPerIPU = 0;
};

/// The tiles a convolution with these options uses: tilesPerIPU (at most
/// the target's) on each IPU, or every tile.
unsigned convTiles(const poplar::Target &target, const ConvOptions &options);

/// Validates the options; an unknown option or a bad value is a
/// poputil::poplibs_error naming it.
ConvOptions parseConvOptions(const poplar::OptionFlags &options);

/// A convolution with its input and kernel transforms folded in, in three
/// spatial dimensions (fewer are padded in front with size one). Output
/// position o (before output padding) of dimension d reads input element
/// base[d] + o * stride[d] + k * kernelDilation[d] of the transformed input
/// for kernel element k.
struct ConvGeometry {
  std::size_t groups = 1, batch = 1, inChans = 1, outChans = 1;
  std::array<std::size_t, 3> inSize{1, 1, 1};
  std::array<std::size_t, 3> kernel{1, 1, 1};
  std::array<std::size_t, 3> kernelDilation{1, 1, 1};
  std::array<std::size_t, 3> stride{1, 1, 1};
  std::array<std::size_t, 3> base{0, 0, 0};
  std::array<std::size_t, 3> outSize{1, 1, 1};

  std::size_t kernelElems() const { return kernel[0] * kernel[1] * kernel[2]; }
  std::size_t outElems() const { return outSize[0] * outSize[1] * outSize[2]; }
  /// The dimension the plan splits the field along: the first with more
  /// than one output.
  unsigned fieldDim() const {
    for (unsigned d = 0; d != 2; ++d)
      if (outSize[d] > 1)
        return d;
    return 2;
  }
  /// Input elements of dimension d read for `outputs` consecutive outputs.
  std::size_t inputSpan(unsigned d, std::size_t outputs) const {
    return (outputs - 1) * stride[d] + (kernel[d] - 1) * kernelDilation[d] + 1;
  }
};

/// Which computation a plan is for: the forward (or input-gradient)
/// convolution reduces over input channels; the weight update reduces
/// over the batch and the field.
enum class ConvPass { Forward, WeightUpdate };

/// Multiply-accumulates per cycle of one tile's matrix unit: 8 FLOAT or 32
/// HALF on Mk1 ("ipu1"), 16 and 64 on Mk2 and on every other target.
unsigned convMacsPerCycle(const poplar::Target &target,
                          const poplar::Type &inputType);

/// Channels the matrix unit takes as one group (8 FLOAT, 16 HALF): the
/// planner splits channels into blocks of whole groups.
unsigned convChanGrain(const poplar::Type &inputType);

/// The estimate of one ConvPartial vertex: start-up, an overhead per
/// output row and kernel element, and the MACs at the matrix unit's rate.
std::uint64_t convPartialCycles(const poplar::Target &target,
                                const poplar::Type &inputType,
                                std::size_t outRows, std::size_t outPositions,
                                std::size_t kernelElems, std::size_t inChans,
                                std::size_t outChans);

/// The estimate of one ConvWeightGradPartial vertex: start-up, an overhead
/// per weight row (kernel element and input channel) and the MACs.
std::uint64_t convWeightGradCycles(const poplar::Target &target,
                                   const poplar::Type &inputType,
                                   std::size_t outPositions,
                                   std::size_t kernelElems, std::size_t inChans,
                                   std::size_t outChans);

/// The estimate of one ConvReduce vertex adding `partials` float vectors
/// of `elems`: two additions a cycle.
std::uint64_t convReduceCycles(std::size_t elems, std::size_t partials);

struct ConvPlan {
  ConvPass pass = ConvPass::Forward;
  unsigned fieldDim = 2;
  // Splits of the batch, the output field (along fieldDim), the output
  // and the input channels; the blocks they make: ceil(size / split) for
  // the batch and field, that rounded up to whole channel groups for the
  // channels (so trailing channel blocks may be shorter).
  unsigned splitB = 1, splitF = 1, splitCo = 1, splitCi = 1;
  std::size_t blockB = 0, blockF = 0, blockCo = 0, blockCi = 0;
  std::uint64_t computeCycles = 0, exchangeCycles = 0, reduceCycles = 0;
  std::uint64_t bytesPerTile = 0;
  std::uint64_t totalCycles() const {
    return computeCycles + exchangeCycles + reduceCycles;
  }
  unsigned tilesUsed() const { return splitB * splitF * splitCo * splitCi; }
  // The tiles available and those each conv group gets (group g starts
  // at tile g * tilesPerGroup, modulo numTiles).
  unsigned numTiles = 1, tilesPerGroup = 1;
  unsigned groupTile(std::size_t g, unsigned local) const {
    return static_cast<unsigned>((g * tilesPerGroup + local) % numTiles);
  }
  /// Channel block i of `size` channels split into blocks of `block`.
  static std::size_t chanBegin(std::size_t size, std::size_t block,
                               unsigned i) {
    return std::min(size, block * i);
  }
  /// Partial results summed per output element.
  unsigned reductionDepth() const {
    return pass == ConvPass::Forward ? splitCi : splitB * splitF;
  }
  /// The tile of block (b, f, co, ci), counted from the group's first tile.
  unsigned tileOf(unsigned b, unsigned f, unsigned co, unsigned ci) const {
    return ((b * splitF + f) * splitCo + co) * splitCi + ci;
  }
};

/// The plan for one conv group on numTiles tiles minimising the estimated
/// cycles subject to the memory limit; no plan is a poplibs_error.
ConvPlan planConv(const poplar::Target &target, const poplar::Type &inputType,
                  const ConvGeometry &geometry, unsigned numTiles,
                  const ConvOptions &options, ConvPass pass);

void printPlan(std::ostream &out, const ConvPlan &plan);

} // namespace detail
} // namespace poplin

#endif // POPLIN_SRC_CONVPLAN_HPP
