// IpuCopy: a new tensor on the destination IPU's virtual graph (the
// context the op is lowered in), spread over its tiles, and a copy into
// it: poplar's exchange between IPUs.
#include "lowering/Lowering.hpp"

#include <poputil/TileMapping.hpp>

namespace popart {

void growIpuCopy(const Op &op, LoweringContext &ctx,
                 poplar::program::Sequence &prog) {
  const poplar::Tensor src = ctx.get(op.inTensor(0));
  poplar::Tensor dst =
      ctx.graph.addVariable(src.elementType(), src.shape(), op.name());
  poputil::mapTensorLinearly(ctx.graph, dst);
  prog.add(poplar::program::Copy(src, dst));
  ctx.set(op.outputs[0], dst);
}

} // namespace popart
