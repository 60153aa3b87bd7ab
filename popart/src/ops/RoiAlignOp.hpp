#ifndef POPART_SRC_OPS_ROIALIGNOP_HPP
#define POPART_SRC_OPS_ROIALIGNOP_HPP

#include <popart/attributes.hpp>
#include <popart/op.hpp>

#include <memory>
#include <string>

namespace popart {

/// RoiAlign (X [N, C, H, W], rois [R, 4] of (x1, y1, x2, y2), batch_indices
/// [R]): each region of X scaled by spatial_scale is split into
/// output_height x output_width bins, and each bin is the average of
/// sampling_ratio x sampling_ratio bilinear samples at evenly spread
/// points of it (points more than a pixel outside X count as zero).
/// coordinate_transformation_mode half_pixel shifts the regions by half a
/// pixel; output_half_pixel (opset 10's only mode) does not, and makes
/// every region at least a pixel wide. Output [R, C, output_height,
/// output_width].
///
/// Mode max (ONNX's reference semantics, as onnxruntime's): each sample is
/// the largest of its four bilinear terms (weight times corner pixel, not
/// their sum), each bin the largest of its samples.
///
/// An adaptive sampling_ratio (0, whose number of samples follows from the
/// regions' values) is not supported: an error naming the op.
class RoiAlignOp : public Op {
public:
  std::unique_ptr<Op> clone() const override {
    return std::make_unique<RoiAlignOp>(*this);
  }
  RoiAlignOp(const OperatorIdentifier &id, const Op::Settings &settings,
             const Attributes &a);
  void setup() override;
  enum class Mode { Avg, Max };
  Mode mode;
  bool halfPixel;
  int64_t outputHeight, outputWidth, samplingRatio;
  float spatialScale;
};

} // namespace popart

#endif
