// What an Opx sees of the lowering: the context holding the poplar graph
// and the poplar tensor of each IR tensor lowered so far.
#ifndef POPART_SRC_LOWERING_DEVICEX_HPP
#define POPART_SRC_LOWERING_DEVICEX_HPP

#include "lowering/Lowering.hpp"

namespace popart {
namespace popx {

class Devicex {
public:
  explicit Devicex(LoweringContext &ctx) : ctx(ctx) {}
  LoweringContext &ctx;
};

} // namespace popx
} // namespace popart

#endif
