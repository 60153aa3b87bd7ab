// The gradient through a normalisation of rows (layer and instance norm):
// with xhat = (x - mean) invStdDev along each row, y = xhat * scale + bias.
#ifndef POPART_SRC_LOWERING_NORMGRADIENT_HPP
#define POPART_SRC_LOWERING_NORMGRADIENT_HPP

#include "lowering/Lowering.hpp"

namespace popart {

struct RowNormGradients {
  poplar::Tensor dx;    // [rows, cols]
  poplar::Tensor gxhat; // g * xhat, [rows, cols] (for the scale's gradient)
};

/// g, x: [rows, cols] FLOAT; scale: per element [rows, cols] FLOAT. The
/// statistics are computed again from x.
RowNormGradients rowNormGradients(LoweringContext &ctx, const poplar::Tensor &g,
                                  const poplar::Tensor &x,
                                  const poplar::Tensor &scale, float epsilon,
                                  poplar::program::Sequence &prog,
                                  const std::string &name);

} // namespace popart

#endif
