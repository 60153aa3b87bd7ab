// Helpers on ConvParams that the passes of training use.
#ifndef POPLIN_CONVUTIL_HPP
#define POPLIN_CONVUTIL_HPP

#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/poplin_export.hpp>

namespace poplin {

/// The params of the convolution that takes the output gradient of the
/// convolution `params` describes to its input gradient, to be run with
/// transposeAndFlipWeights = true on the forward weights. Its input is the
/// forward output ([B, outChans, outField...]) and its output has the
/// forward input's shape.
POPLIN_API ConvParams getGradientParams(const ConvParams &params);

} // namespace poplin

#endif // POPLIN_CONVUTIL_HPP
