// ROIAlign: features of regions of interest pooled from a feature map by
// bilinear interpolation (as torchvision.ops.roi_align with a fixed
// sampling ratio), and the gradient at the feature map.
#ifndef POPNN_EXPERIMENTAL_ROIALIGN_HPP
#define POPNN_EXPERIMENTAL_ROIALIGN_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/popnn_export.hpp>

namespace popnn {
namespace experimental {

/// How the regions are pooled:
///   - samplingRatio_: the points per bin in each direction (a grid of
///     samplingRatio_ x samplingRatio_, averaged); must be positive;
///   - alignedHeight_, alignedWidth_: the bins of each region (the pooled
///     output's height and width);
///   - aligned_: whether region coordinates are shifted by half a pixel
///     (-0.5) so that pixel centres sit at whole coordinates plus one half;
///     without it a region is at least a pixel wide and high;
///   - spatialScale_: the factor from region coordinates (the input image's)
///     to the feature map's; must be positive.
struct roiAlignParams {
  long unsigned int samplingRatio_, alignedHeight_, alignedWidth_;
  bool aligned_;
  float spatialScale_;
  roiAlignParams(long unsigned int samplingRatio, long unsigned int poolH,
                 long unsigned int poolW, bool aligned, float spatialScale)
      : samplingRatio_{samplingRatio}, alignedHeight_{poolH},
        alignedWidth_{poolW}, aligned_{aligned}, spatialScale_{spatialScale} {}
};

/// Pools each region of bottomRois ([numRois][4] rows [x1, y1, x2, y2], of
/// the type of the data) from the image bottomBatchIndex ([numRois], INT)
/// names of bottomData ([N][C][H][W], FLOAT or HALF). Returns
/// [numRois][C][alignedHeight_][alignedWidth_]. A point sampled more than a
/// pixel outside the feature map counts as zero. A batch index outside
/// [0, N) stops the run with poplar::application_runtime_error; bad shapes,
/// types or parameters throw poputil::poplibs_error.
POPNN_API poplar::Tensor
roiAlignFwd(poplar::Graph &graph, poplar::program::Sequence &prog,
            poplar::Tensor &bottomData, poplar::Tensor &bottomRois,
            poplar::Tensor &bottomBatchIndex, const roiAlignParams &params,
            const poplar::DebugContext &debugContext = {});

/// The gradient at bottomData ([N][C][H][W]) of roiAlignFwd's output, whose
/// gradient is topDataGrad ([numRois][C][alignedHeight_][alignedWidth_]).
POPNN_API poplar::Tensor
roiAlignInputGradient(poplar::Graph &graph, poplar::program::Sequence &prog,
                      poplar::Tensor &bottomData, poplar::Tensor &bottomRois,
                      poplar::Tensor &bottomBatchIndex,
                      poplar::Tensor &topDataGrad, const roiAlignParams &params,
                      const poplar::DebugContext &debugContext = {});

} // namespace experimental
} // namespace popnn

#endif // POPNN_EXPERIMENTAL_ROIALIGN_HPP
