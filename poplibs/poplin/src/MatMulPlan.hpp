// The matmul planner and its cycle model (described in poplin's README).
#ifndef POPLIN_SRC_MATMULPLAN_HPP
#define POPLIN_SRC_MATMULPLAN_HPP

#include <poplin/MatMul.hpp>

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

namespace poplin {
namespace detail {

struct MatMulOptions {
  double availableMemoryProportion = 0.6;
  poplar::Type partialsType = poplar::FLOAT;
  std::string fullyConnectedPass = "NONE";
  bool inputRHSIsPreArranged = false;
  bool use128BitConvUnitLoad = false;
  bool enableMultiStageReduce = true;
  bool enableFastReduce = false;
  bool remapOutputTensor = true;
  bool gatherOutput = false;
  bool disableSRForAMPVertices = false;
  std::string planConstraints; // a JSON object, "" when not given
};

/// Validates the options; an unknown option or a bad value is a
/// poputil::poplibs_error naming it.
MatMulOptions parseMatMulOptions(const poplar::OptionFlags &options);

/// Multiply-accumulates per cycle of one tile's matrix unit: 8 FLOAT or 32
/// HALF on Mk1 ("ipu1"), 16 and 64 on Mk2 and on every other target.
unsigned ampMacsPerCycle(const poplar::Target &target,
                         const poplar::Type &inputType);

/// The estimate of one MatMulPartial vertex computing an [mb, nb] block
/// over kb: vertex start-up, a per-row overhead and the MACs at the
/// matrix unit's rate.
std::uint64_t matMulPartialCycles(const poplar::Target &target,
                                  const poplar::Type &inputType,
                                  std::size_t mb, std::size_t nb,
                                  std::size_t kb);

/// The type the partial sums are kept and exchanged in: the option's
/// `partialsType` for HALF operands; always FLOAT for FLOAT operands.
poplar::Type matMulPartialsType(const poplar::Type &inputType,
                                const MatMulOptions &options);

/// Partials one tile's accumulators add a cycle: 4 FLOAT or 8 HALF, read
/// with 128-bit loads from interleaved memory.
unsigned reduceElemsPerCycle(const poplar::Type &partialsType);

/// The estimate of one MatMulReduce vertex summing `partials` rows of
/// `cols` partial sums into each of `rows` output rows.
std::uint64_t matMulReduceCycles(std::size_t rows, std::size_t cols,
                                 std::size_t partials,
                                 const poplar::Type &partialsType);

struct MatMulPlan {
  // The splits of m, n and k, and the blocks they make (ceil of size/split).
  unsigned splitM = 1, splitN = 1, splitK = 1;
  std::size_t blockM = 0, blockN = 0, blockK = 0;
  poplar::Type partialsType = poplar::FLOAT;
  // The estimates of the model.
  std::uint64_t computeCycles = 0, exchangeCycles = 0, reduceCycles = 0;
  std::uint64_t bytesPerTile = 0;
  std::uint64_t totalCycles() const {
    return computeCycles + exchangeCycles + reduceCycles;
  }
  unsigned tilesUsed() const { return splitM * splitN * splitK; }
  /// The tile of block (im, in, ik), counted from the first tile of the
  /// group.
  unsigned tileOf(unsigned im, unsigned in, unsigned ik) const {
    return (ik * splitM + im) * splitN + in;
  }
};

/// The tiles of a supertile that receive shared data at the supertile's
/// rate (1 when the target has no such supertiles, or when the plan's
/// first tile is not the first of a supertile: !groupAligned).
unsigned superTileShare(const poplar::Target &target, bool groupAligned);

/// The plan for [m, k] x [k, n] on numTiles tiles, minimising the
/// estimated cycles subject to the memory limit. `groupAligned`: the plan's
/// tiles start at the first tile of a supertile.
MatMulPlan planMatMul(const poplar::Target &target,
                      const poplar::Type &inputType, std::size_t m,
                      std::size_t k, std::size_t n, unsigned numTiles,
                      const MatMulOptions &options, bool groupAligned = true);

void printPlan(std::ostream &out, const MatMulPlan &plan);

/// Plans the products into `cache` (poplin::preplan and preplanMatMuls).
void preplanMatMulsInto(const std::set<MatMulPlanParams> &matmuls,
                        PlanningCache &cache);

} // namespace detail
} // namespace poplin

#endif // POPLIN_SRC_MATMULPLAN_HPP
