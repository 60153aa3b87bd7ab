// UniqueOp: its outputs (computed by setup from the constant input) as
// constants copied into tensors of their own.
#include "lowering/Lowering.hpp"
#include "ops/UniqueOp.hpp"

namespace popart {

void growUnique(const Op &op, LoweringContext &ctx,
                poplar::program::Sequence &prog) {
  const auto &u = static_cast<const UniqueOp &>(op);
  const poplar::Type type = deviceType(op.outInfo(0).dataType());
  const auto shape = dims(op.outShape(0));
  const poplar::Tensor y =
      type == poplar::FLOAT || type == poplar::HALF
          ? hostConstant(ctx, type, shape,
                         std::vector<float>(u.values.begin(), u.values.end()),
                         op.name() + "/Y")
          : hostConstant(ctx, type, shape,
                         std::vector<int>(u.values.begin(), u.values.end()),
                         op.name() + "/Y");
  ctx.set(op.outputs[0], copyOf(ctx, y, prog, op.name()));
  const std::vector<int> *indices[] = {&u.firstIndices, &u.inverseIndices,
                                       &u.counts};
  for (OutIndex i = 1; i <= 3; ++i)
    if (op.hasOutput(i))
      ctx.set(op.outputs[i],
              copyOf(ctx,
                     hostConstant(ctx, poplar::INT, dims(op.outShape(i)),
                                  *indices[i - 1], op.name()),
                     prog, op.name()));
}

} // namespace popart
