// The convolution planner: popsolver chooses how the batch, the output
// field and the channels are split over the tiles.
#include "ConvPlan.hpp"
#include "MatMulPlan.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <popsolver/Model.hpp>
#include <poplibs_support/logging.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <sstream>

namespace poplin {
namespace detail {

namespace {

constexpr std::uint64_t vertexOverheadCycles = 30;
constexpr std::uint64_t rowOverheadCycles = 6;
constexpr std::uint64_t exchangeBytesPerCycle = 4;
constexpr std::uint64_t reduceCyclesPerPartial = 2;

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

[[noreturn]] void badOption(const std::string &key, const std::string &value,
                            const std::string &allowed) {
  throw poplar::invalid_option("poplin: convolution option " + key +
                               " must be " + allowed + ", not '" + value + "'");
}

} // namespace

ConvOptions parseConvOptions(const poplar::OptionFlags &options) {
  static const char *const passes[] = {
      "NONE",          "INFERENCE_FWD",    "TRAINING_FWD",    "TRAINING_BWD",
      "TRAINING_WU",   "FC_INFERENCE_FWD", "FC_TRAINING_FWD", "FC_TRAINING_BWD",
      "FC_TRAINING_WU"};
  static const char *const flags[] = {
      "use128BitConvUnitLoad", "enableMultiStageReduce", "enableFastReduce",
      "remapOutputTensor", "enableConvDithering"};
  ConvOptions result;
  for (const auto &[key, value] : options) {
    if (key == "availableMemoryProportion") {
      char *end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(v > 0) || v > 1)
        badOption(key, value, "a number in (0, 1]");
      result.availableMemoryProportion = v;
    } else if (key == "partialsType") {
      if (value != "float" && value != "half")
        badOption(key, value, "half or float");
      result.partialsType = value == "half" ? poplar::HALF : poplar::FLOAT;
    } else if (key == "partialsType.interIPU" ||
               key == "partialsType.interTile") {
      // Partials cross tiles and IPUs in float whatever is asked.
      if (value != "float" && value != "half")
        badOption(key, value, "half or float");
    } else if (key == "tilesPerIPU") {
      char *end = nullptr;
      const long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v < 1)
        badOption(key, value, "a positive whole number");
      result.tilesPerIPU = static_cast<unsigned>(v);
    } else if (key == "pass") {
      if (std::find(std::begin(passes), std::end(passes), value) ==
          std::end(passes))
        badOption(key, value,
                  "one of NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, "
                  "TRAINING_WU or their FC_ forms");
      result.pass = value;
    } else if (std::find(std::begin(flags), std::end(flags), key) !=
               std::end(flags)) {
      if (value != "true" && value != "false")
        badOption(key, value, "true or false");
      if (key == "enableConvDithering" && value == "true") {
        // The original starts each convolution's layout on a tile chosen
        // from its params; here every layout starts on tile 0.
        static std::atomic<bool> logged{false};
        if (!logged.exchange(true))
          poplibs_support::logging::poplin::info(
              "poplin: enableConvDithering is accepted; convolution layouts "
              "start on tile 0 here, so it changes nothing");
      }
    } else {
      throw poplar::invalid_option("poplin: unknown convolution option '" +
                                   key + "'");
    }
  }
  return result;
}

unsigned convMacsPerCycle(const poplar::Target &target,
                          const poplar::Type &inputType) {
  // The same matrix unit as the matmul's.
  return ampMacsPerCycle(target, inputType);
}

unsigned convTiles(const poplar::Target &target, const ConvOptions &options) {
  if (options.tilesPerIPU == 0)
    return target.getNumTiles();
  return std::min(options.tilesPerIPU, target.getTilesPerIPU()) *
         target.getNumIPUs();
}

unsigned convChanGrain(const poplar::Type &inputType) {
  return inputType == poplar::HALF ? 16 : 8;
}

std::uint64_t convPartialCycles(const poplar::Target &target,
                                const poplar::Type &inputType,
                                std::size_t outRows, std::size_t outPositions,
                                std::size_t kernelElems, std::size_t inChans,
                                std::size_t outChans) {
  const std::uint64_t macs =
      std::uint64_t(outPositions) * kernelElems * inChans * outChans;
  return vertexOverheadCycles +
         rowOverheadCycles * std::uint64_t(outRows) * kernelElems +
         ceilDiv(macs, convMacsPerCycle(target, inputType));
}

std::uint64_t convWeightGradCycles(const poplar::Target &target,
                                   const poplar::Type &inputType,
                                   std::size_t outPositions,
                                   std::size_t kernelElems, std::size_t inChans,
                                   std::size_t outChans) {
  const std::uint64_t macs =
      std::uint64_t(outPositions) * kernelElems * inChans * outChans;
  return vertexOverheadCycles +
         rowOverheadCycles * std::uint64_t(kernelElems) * inChans +
         ceilDiv(macs, convMacsPerCycle(target, inputType));
}

std::uint64_t convReduceCycles(std::size_t elems, std::size_t partials) {
  return vertexOverheadCycles +
         ceilDiv(std::uint64_t(elems) * partials, reduceCyclesPerPartial);
}

ConvPlan planConv(const poplar::Target &target, const poplar::Type &inputType,
                  const ConvGeometry &g, unsigned numTiles,
                  const ConvOptions &options, ConvPass pass) {
  numTiles = std::max(1u, numTiles);
  const unsigned fd = g.fieldDim();
  const std::uint64_t inBytes = target.getTypeSize(inputType);
  const std::uint64_t memoryLimit = static_cast<std::uint64_t>(
      options.availableMemoryProportion * double(target.getBytesPerTile()));
  // Sizes of the dimensions that are not split.
  std::uint64_t otherOut = 1, otherIn = 1;
  for (unsigned d = 0; d != 3; ++d)
    if (d != fd) {
      otherOut *= g.outSize[d];
      otherIn *= g.inSize[d];
    }
  const std::uint64_t kernelElems = g.kernelElems();

  popsolver::Model m;
  using popsolver::Variable;
  const auto bound = [&](std::size_t size) {
    return std::max<std::uint64_t>(1, std::min<std::uint64_t>(size, numTiles));
  };
  const auto k = [&](std::uint64_t v) { return m.addConstant(v); };
  const Variable sB = m.addVariable(1, bound(g.batch), "splitB");
  const Variable sF = m.addVariable(1, bound(g.outSize[fd]), "splitF");
  const Variable sCo = m.addVariable(1, bound(g.outChans), "splitCo");
  const Variable sCi = m.addVariable(1, bound(g.inChans), "splitCi");
  const Variable tiles = m.product({sB, sF, sCo, sCi}, "tiles");
  m.lessOrEqual(tiles, numTiles);
  const Variable bB = m.ceildiv(k(g.batch), sB, "blockB");
  const Variable bF = m.ceildiv(k(g.outSize[fd]), sF, "blockF");
  // Channel blocks are whole groups of the matrix unit, and every split
  // part holds at least one channel.
  const std::uint64_t grain = convChanGrain(inputType);
  const auto chanBlock = [&](std::size_t size, Variable split,
                             const char *name) {
    const Variable groups = m.ceildiv(m.ceildiv(k(size), split), k(grain));
    const Variable block =
        m.min({k(size), m.product({groups, k(grain)})}, name);
    if (size > 0)
      m.less(m.product({m.sub(split, m.one()), block}), k(size));
    return block;
  };
  const Variable bCo = chanBlock(g.outChans, sCo, "blockCo");
  const Variable bCi = chanBlock(g.inChans, sCi, "blockCi");

  // The positions a tile computes, and its MACs.
  const Variable positions = m.product({bB, bF, k(otherOut)});
  const Variable macs = m.product({positions, bCo, bCi, k(kernelElems)});
  const Variable macCycles =
      m.ceildiv(macs, k(convMacsPerCycle(target, inputType)));
  // Forward: an overhead per output row (along dimension 2) and kernel
  // element; weight update: per kernel element and input channel.
  const Variable outRows = fd == 2 ? m.product({bB, k(otherOut)})
                                   : m.ceildiv(positions, k(g.outSize[2]));
  const Variable overhead =
      m.product({k(rowOverheadCycles * kernelElems),
                 pass == ConvPass::Forward ? outRows : bCi});
  const Variable compute =
      m.sum({k(vertexOverheadCycles), overhead, macCycles}, "compute");

  // Operands a tile receives: its input slab (the rows of the field its
  // outputs read, all of the other dimensions) and its weights (forward)
  // or output gradients (weight update).
  const std::uint64_t spanConst = (g.kernel[fd] - 1) * g.kernelDilation[fd] + 1;
  const Variable slabRows =
      m.sum({m.product({m.sub(bF, m.one()), k(g.stride[fd])}), k(spanConst)});
  const Variable slab = m.product({bB, slabRows, k(otherIn), bCi});
  const Variable second = pass == ConvPass::Forward
                              ? m.product({k(kernelElems), bCi, bCo})
                              : m.product({positions, bCo});
  const Variable operandBytes = m.product({m.sum({slab, second}), k(inBytes)});
  const Variable exchange =
      m.ceildiv(operandBytes, k(exchangeBytesPerCycle), "exchange");
  // The float partials a tile writes.
  const Variable partials = pass == ConvPass::Forward
                                ? m.product({positions, bCo})
                                : m.product({k(kernelElems), bCi, bCo});
  // Reduction: the extra partials of every result, spread over the tiles.
  const Variable depth = pass == ConvPass::Forward ? sCi : m.product({sB, sF});
  const std::uint64_t results =
      pass == ConvPass::Forward
          ? std::uint64_t(g.batch) * g.outElems() * g.outChans
          : std::uint64_t(kernelElems) * g.inChans * g.outChans;
  const Variable reduce = m.ceildiv(
      m.product({m.sub(depth, m.one()), k(results * reduceCyclesPerPartial)}),
      k(numTiles), "reduce");
  // Memory: the operands, the float partials and, when partials are
  // summed across tiles, about one block of them received for the sum.
  const Variable received =
      m.product({partials, k(4), m.min({m.sub(depth, m.one()), m.one()})});
  const Variable bytes = m.sum(
      {operandBytes, m.product({partials, k(4)}), received}, "bytesPerTile");
  m.lessOrEqual(bytes, k(memoryLimit));
  const Variable total = m.sum({compute, exchange, reduce}, "cycles");

  popsolver::Solution s;
  try {
    s = m.minimize({total, tiles});
  } catch (const popsolver::NoSolution &) {
    std::ostringstream os;
    os << "poplin: no convolution plan for batch " << g.batch << ", "
       << g.inChans << " -> " << g.outChans << " channels, output field {"
       << g.outSize[0] << "," << g.outSize[1] << "," << g.outSize[2]
       << "} fits in availableMemoryProportion "
       << options.availableMemoryProportion << " of "
       << target.getBytesPerTile() << " bytes per tile";
    throw poputil::poplibs_error(os.str());
  }
  ConvPlan plan;
  plan.pass = pass;
  plan.fieldDim = fd;
  plan.splitB = s[sB].getAs<unsigned>();
  plan.splitF = s[sF].getAs<unsigned>();
  plan.splitCo = s[sCo].getAs<unsigned>();
  plan.splitCi = s[sCi].getAs<unsigned>();
  plan.blockB = s[bB].getAs<std::size_t>();
  plan.blockF = s[bF].getAs<std::size_t>();
  plan.blockCo = s[bCo].getAs<std::size_t>();
  plan.blockCi = s[bCi].getAs<std::size_t>();
  plan.computeCycles = s[compute].getAs<std::uint64_t>();
  plan.exchangeCycles = s[exchange].getAs<std::uint64_t>();
  plan.reduceCycles = s[reduce].getAs<std::uint64_t>();
  plan.bytesPerTile = s[bytes].getAs<std::uint64_t>();
  return plan;
}

void printPlan(std::ostream &out, const ConvPlan &plan) {
  out << "  pass: "
      << (plan.pass == ConvPass::Forward ? "forward" : "weight update")
      << ", field split along dimension " << plan.fieldDim << "\n"
      << "  split batch/field/outChans/inChans: " << plan.splitB << "/"
      << plan.splitF << "/" << plan.splitCo << "/" << plan.splitCi << " ("
      << plan.tilesUsed() << " tiles)\n"
      << "  block batch/field/outChans/inChans: " << plan.blockB << "/"
      << plan.blockF << "/" << plan.blockCo << "/" << plan.blockCi << "\n"
      << "  estimated cycles: compute " << plan.computeCycles << ", exchange "
      << plan.exchangeCycles << ", reduce " << plan.reduceCycles << ", total "
      << plan.totalCycles() << "\n"
      << "  bytes per tile: " << plan.bytesPerTile << "\n";
}

} // namespace detail
} // namespace poplin
