#ifndef POPOPS_NORMALISEIMAGE_HPP
#define POPOPS_NORMALISEIMAGE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/popops_export.hpp>

namespace popops {

/// A tensor for 3-channel images (UNSIGNED_CHAR, HALF or FLOAT; the inner
/// dimension 3), mapped linearly in whole pixels.
POPOPS_API poplar::Tensor
createNormaliseImageInput(poplar::Graph &graph, const poplar::Type &type,
                          const poplar::ArrayRef<std::size_t> shape,
                          const poplar::DebugContext &debugContext = {});

/// The image with a fourth channel of zeros and each channel c < 3
/// normalised: (in[c] * inScale - offsets[c]) * scales[c]. UNSIGNED_CHAR
/// input gives HALF, other types their own; offsets and scales are {3} of
/// the output type.
POPOPS_API poplar::Tensor
normaliseImage(poplar::Graph &graph, poplar::program::Sequence &seq,
               poplar::Tensor tIn, float inScale, poplar::Tensor offsets,
               poplar::Tensor scales,
               const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_NORMALISEIMAGE_HPP
