// The matmul planner: popsolver chooses the splits of m, n and k.
#include "MatMulPlan.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <popsolver/Model.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace poplin {
namespace detail {

namespace {

constexpr std::uint64_t vertexOverheadCycles = 30;
constexpr std::uint64_t rowOverheadCycles = 6;
constexpr std::uint64_t exchangeBytesPerCycle = 4;

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

// The true/false options, by name.
bool *booleanOption(MatMulOptions &o, const std::string &key) {
  if (key == "inputRHSIsPreArranged")
    return &o.inputRHSIsPreArranged;
  if (key == "use128BitConvUnitLoad")
    return &o.use128BitConvUnitLoad;
  if (key == "enableMultiStageReduce")
    return &o.enableMultiStageReduce;
  if (key == "enableFastReduce")
    return &o.enableFastReduce;
  if (key == "remapOutputTensor")
    return &o.remapOutputTensor;
  if (key == "gatherOutput")
    return &o.gatherOutput;
  if (key == "disableSRForAMPVertices")
    return &o.disableSRForAMPVertices;
  return nullptr;
}

} // namespace

MatMulOptions parseMatMulOptions(const poplar::OptionFlags &options) {
  MatMulOptions result;
  for (const auto &[key, value] : options) {
    if (key == "availableMemoryProportion") {
      char *end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || end == nullptr || *end != '\0' || !(v > 0) ||
          v > 1)
        throw poplar::invalid_option(
            "poplin: option availableMemoryProportion must be a number in "
            "(0, 1], not '" +
            value + "'");
      result.availableMemoryProportion = v;
    } else if (key == "partialsType") {
      if (value == "float")
        result.partialsType = poplar::FLOAT;
      else if (value == "half")
        result.partialsType = poplar::HALF;
      else
        throw poplar::invalid_option(
            "poplin: option partialsType must be half or float, not '" +
            value + "'");
    } else if (key == "fullyConnectedPass") {
      static const char *const passes[] = {"NONE", "INFERENCE_FWD",
                                           "TRAINING_FWD", "TRAINING_BWD",
                                           "TRAINING_WU"};
      if (std::find(std::begin(passes), std::end(passes), value) ==
          std::end(passes))
        throw poplar::invalid_option(
            "poplin: option fullyConnectedPass must be one of NONE, "
            "INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, TRAINING_WU, not '" +
            value + "'");
      result.fullyConnectedPass = value;
    } else if (auto flag = booleanOption(result, key)) {
      if (value != "true" && value != "false")
        throw poplar::invalid_option("poplin: option " + key +
                                     " must be true or false, not '" + value +
                                     "'");
      *flag = value == "true";
    } else if (key == "planConstraints") {
      const auto json = nlohmann::json::parse(value, nullptr, false);
      if (json.is_discarded() || !json.is_object())
        throw poplar::invalid_option(
            "poplin: option planConstraints must be a JSON object, not '" +
            value + "'");
      result.planConstraints = value;
    } else {
      throw poplar::invalid_option("poplin: unknown matmul option '" + key +
                                   "'");
    }
  }
  return result;
}

unsigned ampMacsPerCycle(const poplar::Target &target,
                         const poplar::Type &inputType) {
  const bool mk1 = target.getTargetArchString() == "ipu1";
  const bool half = inputType == poplar::HALF;
  if (mk1)
    return half ? 32 : 8;
  return half ? 64 : 16;
}

std::uint64_t matMulPartialCycles(const poplar::Target &target,
                                  const poplar::Type &inputType,
                                  std::size_t mb, std::size_t nb,
                                  std::size_t kb) {
  const std::uint64_t macs = std::uint64_t(mb) * nb * kb;
  return vertexOverheadCycles + rowOverheadCycles * mb +
         ceilDiv(macs, ampMacsPerCycle(target, inputType));
}

poplar::Type matMulPartialsType(const poplar::Type &inputType,
                                const MatMulOptions &options) {
  return inputType == poplar::FLOAT ? poplar::FLOAT : options.partialsType;
}

unsigned reduceElemsPerCycle(const poplar::Type &partialsType) {
  // The accumulator registers take 4 floats or 8 halves a cycle; a 128-bit
  // load feeds them that many in one cycle only from interleaved memory,
  // which is where MatMulReduce's partials are placed.
  return partialsType == poplar::HALF ? 8 : 4;
}

std::uint64_t matMulReduceCycles(std::size_t rows, std::size_t cols,
                                 std::size_t partials,
                                 const poplar::Type &partialsType) {
  return vertexOverheadCycles + rowOverheadCycles * rows +
         ceilDiv(std::uint64_t(rows) * cols * partials,
                 reduceElemsPerCycle(partialsType));
}

unsigned superTileShare(const poplar::Target &target, bool groupAligned) {
  const unsigned size = target.getTilesPerSuperTile();
  return groupAligned && target.getSupportsSuperTileSendReceive() && size > 1
             ? size
             : 1;
}

MatMulPlan planMatMul(const poplar::Target &target,
                      const poplar::Type &inputType, std::size_t m,
                      std::size_t k, std::size_t n, unsigned numTiles,
                      const MatMulOptions &options, bool groupAligned) {
  if (m == 0 || k == 0 || n == 0)
    throw poputil::poplibs_error("poplin: matmul dimensions must be non-zero");
  numTiles = std::max(1u, numTiles);
  const std::uint64_t inBytes = target.getTypeSize(inputType);
  const poplar::Type partialsType = matMulPartialsType(inputType, options);
  const std::uint64_t partialBytes = target.getTypeSize(partialsType);
  const std::uint64_t macs = ampMacsPerCycle(target, inputType);
  const std::uint64_t memoryLimit = static_cast<std::uint64_t>(
      options.availableMemoryProportion * double(target.getBytesPerTile()));

  popsolver::Model model;
  using popsolver::Variable;
  const auto bound = [&](std::size_t size) {
    return std::min<std::uint64_t>(size, numTiles);
  };
  const Variable pm = model.addVariable(1, bound(m), "splitM");
  const Variable pn = model.addVariable(1, bound(n), "splitN");
  const Variable pk = model.addVariable(1, bound(k), "splitK");
  const Variable tiles = model.product({pm, pn, pk}, "tiles");
  model.lessOrEqual(tiles, numTiles);
  const Variable mb = model.ceildiv(model.addConstant(m), pm, "blockM");
  const Variable nb = model.ceildiv(model.addConstant(n), pn, "blockN");
  const Variable kb = model.ceildiv(model.addConstant(k), pk, "blockK");
  // Compute: the vertex of the largest block.
  const Variable blockMacs = model.product({mb, nb, kb});
  const Variable compute = model.sum(
      {model.addConstant(vertexOverheadCycles),
       model.product({model.addConstant(rowOverheadCycles), mb}),
       model.ceildiv(blockMacs, model.addConstant(macs))},
      "compute");
  // Exchange: the operand elements a tile receives, 4 bytes a cycle. Each
  // operand block is laid out over the tiles that read it, so a tile
  // already holds its share: 1/splitN of its block of A, 1/splitM of its
  // block of B.
  const Variable aReceived = model.ceildiv(
      model.product({mb, kb, model.sub(pn, model.one())}), pn);
  const Variable bReceived = model.ceildiv(
      model.product({kb, nb, model.sub(pm, model.one())}), pm);
  // With supertiles that share their exchange bus (Mk2: pairs of tiles),
  // the tiles of a supertile are neighbours in n when splitN is a multiple
  // of its size, so they read the same block of A: the part of it that
  // none of them holds, (splitN - S) / splitN of the block, arrives at S
  // times the rate.
  const std::uint64_t superTile = superTileShare(target, groupAligned);
  const Variable S = model.addConstant(superTile);
  const Variable aligned =
      model.reifiedEqual(model.mod(pn, S), model.zero());
  const Variable aShared =
      superTile == 1
          ? model.zero()
          : model.product(
                {aligned,
                 model.floordiv(model.product({mb, kb,
                                               model.sub(model.max({pn, S}),
                                                         S)}),
                                pn)});
  const Variable ownBytes = model.product(
      {model.sub(model.sum({aReceived, bReceived}), aShared),
       model.addConstant(inBytes)});
  const Variable sharedBytes =
      model.product({aShared, model.addConstant(inBytes)});
  const Variable exchange = model.sum(
      {model.ceildiv(ownBytes, model.addConstant(exchangeBytesPerCycle)),
       model.ceildiv(sharedBytes,
                     model.addConstant(exchangeBytesPerCycle * superTile))},
      "exchange");
  // Reduction of the k partials: the splitK tiles of an output block each
  // sum ceil(mb / splitK) of its rows, receiving those rows' partials from
  // the other splitK - 1 tiles (4 bytes a cycle) and adding them with one
  // MatMulReduce vertex.
  const Variable reduceRows = model.ceildiv(mb, pk, "reduceRows");
  const Variable otherPartials = model.sub(pk, model.one());
  const Variable reduceReceived =
      model.product({otherPartials, reduceRows, nb,
                     model.addConstant(partialBytes)});
  const Variable reduceExchange = model.ceildiv(
      reduceReceived, model.addConstant(exchangeBytesPerCycle));
  const Variable reduceVertex = model.sum(
      {model.addConstant(vertexOverheadCycles),
       model.product({model.addConstant(rowOverheadCycles), reduceRows}),
       model.ceildiv(model.product({reduceRows, nb, pk}),
                     model.addConstant(reduceElemsPerCycle(partialsType)))});
  const Variable hasReduce = model.reifiedLess(model.one(), pk);
  const Variable reduce = model.sum(
      {reduceExchange, model.product({hasReduce, reduceVertex})}, "reduce");
  // Memory: the operand blocks, the partials of one tile and the partials
  // it receives for its reduction.
  const Variable operandBytes =
      model.product({model.sum({model.product({mb, kb}),
                                model.product({kb, nb})}),
                     model.addConstant(inBytes)});
  const Variable bytes = model.sum(
      {operandBytes,
       model.product({mb, nb, model.addConstant(partialBytes)}),
       reduceReceived},
      "bytesPerTile");
  model.lessOrEqual(bytes, model.addConstant(memoryLimit));
  const Variable total = model.sum({compute, exchange, reduce}, "cycles");

  popsolver::Solution s;
  try {
    // Ties go to the plan using fewer tiles.
    s = model.minimize({total, tiles});
  } catch (const popsolver::NoSolution &) {
    throw poputil::poplibs_error(
        "poplin: no matmul plan for [" + std::to_string(m) + ", " +
        std::to_string(k) + "] x [" + std::to_string(k) + ", " +
        std::to_string(n) + "] fits in availableMemoryProportion " +
        std::to_string(options.availableMemoryProportion) + " of " +
        std::to_string(target.getBytesPerTile()) + " bytes per tile");
  }
  MatMulPlan plan;
  plan.splitM = s[pm].getAs<unsigned>();
  plan.splitN = s[pn].getAs<unsigned>();
  plan.splitK = s[pk].getAs<unsigned>();
  plan.blockM = s[mb].getAs<std::size_t>();
  plan.blockN = s[nb].getAs<std::size_t>();
  plan.blockK = s[kb].getAs<std::size_t>();
  plan.partialsType = partialsType;
  plan.computeCycles = s[compute].getAs<std::uint64_t>();
  plan.exchangeCycles = s[exchange].getAs<std::uint64_t>();
  plan.reduceCycles = s[reduce].getAs<std::uint64_t>();
  plan.bytesPerTile = s[bytes].getAs<std::uint64_t>();
  return plan;
}

void printPlan(std::ostream &out, const MatMulPlan &plan) {
  out << "  split m/n/k: " << plan.splitM << "/" << plan.splitN << "/"
      << plan.splitK << " (" << plan.tilesUsed() << " tiles)\n"
      << "  block m/n/k: " << plan.blockM << "/" << plan.blockN << "/"
      << plan.blockK << "\n"
      << "  partials: " << plan.partialsType << "\n"
      << "  estimated cycles: compute " << plan.computeCycles << ", exchange "
      << plan.exchangeCycles << ", reduce " << plan.reduceCycles << ", total "
      << plan.totalCycles() << "\n"
      << "  bytes per tile: " << plan.bytesPerTile << "\n";
}

} // namespace detail
} // namespace poplin
