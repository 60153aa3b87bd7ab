// The poprand seed and modifier a random op draws with (ops/RandomOps.hpp,
// RandomSeedChoice): its seed attribute's words, or the session's seed.
#ifndef POPART_SRC_OPS_RANDOMSEEDLOWERING_HPP
#define POPART_SRC_OPS_RANDOMSEEDLOWERING_HPP

#include "lowering/Lowering.hpp"
#include "ops/RandomOps.hpp"

#include <popart/error.hpp>

#include <string>
#include <vector>

namespace popart {

struct DrawSeed {
  poplar::Tensor seed; // [2] UNSIGNED_INT
  uint32_t modifier;
};

inline DrawSeed drawSeed(LoweringContext &ctx, const RandomSeedChoice &choice,
                         const Op &op) {
  if (choice.fromAttribute) {
    const std::vector<unsigned> words = {choice.words[0], choice.words[1]};
    poplar::Tensor seed = ctx.graph.addConstant<unsigned>(
        poplar::UNSIGNED_INT, {2}, words, op.name() + "/seed");
    ctx.graph.setTileMapping(seed, 0);
    return {seed, 0u};
  }
  if (!ctx.hasSeed())
    throw internal_error("{}: the session has no random seed", op.str());
  return {ctx.seed, choice.modifier};
}

} // namespace popart

#endif
