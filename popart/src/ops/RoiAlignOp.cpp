#include "ops/RoiAlignOp.hpp"

#include <popart/error.hpp>

namespace popart {

RoiAlignOp::RoiAlignOp(const OperatorIdentifier &id,
                       const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), outputHeight(a.getInt("output_height", 1)),
      outputWidth(a.getInt("output_width", 1)),
      samplingRatio(a.getInt("sampling_ratio", 0)),
      spatialScale(a.getFloat("spatial_scale", 1.0f)) {
  const std::string modeName = a.getString("mode", "avg");
  const std::string transformation =
      id.version >= 16
          ? a.getString("coordinate_transformation_mode", "half_pixel")
          : "output_half_pixel";
  if (modeName != "avg" && modeName != "max")
    throw error("RoiAlign '{}': mode '{}' is not avg or max", settings.name,
                modeName);
  mode = modeName == "max" ? Mode::Max : Mode::Avg;
  if (transformation != "half_pixel" && transformation != "output_half_pixel")
    throw error("RoiAlign '{}': coordinate_transformation_mode '{}' is not "
                "half_pixel or output_half_pixel",
                settings.name, transformation);
  halfPixel = transformation == "half_pixel";
  if (samplingRatio <= 0)
    throw error("RoiAlign '{}': sampling_ratio {} is not supported: an "
                "adaptive ratio (0) gives each region a number of samples "
                "that follows from its coordinates' values, and the IR's "
                "shapes are static; give a positive ratio",
                settings.name, samplingRatio);
  if (outputHeight < 1 || outputWidth < 1)
    throw error("RoiAlign '{}': output_height and output_width must be "
                "positive, not {} and {}",
                settings.name, outputHeight, outputWidth);
}

void RoiAlignOp::setup() {
  const Shape x = inShape(0), rois = inShape(1), indices = inShape(2);
  if (x.size() != 4 || rois.size() != 2 || rois[1] != 4 ||
      indices.size() != 1 || indices[0] != rois[0])
    throw error("{}: X of shape {}, rois of shape {} and batch_indices of "
                "shape {} are not [N, C, H, W], [R, 4] and [R]",
                str(), x, rois, indices);
  if (inInfo(0).dataType() != DataType::FLOAT ||
      inInfo(1).dataType() != DataType::FLOAT)
    throw error("{}: X and rois must be FLOAT, not {} and {}", str(),
                inInfo(0).data_type(), inInfo(1).data_type());
  if (inInfo(2).dataType() != DataType::INT64 &&
      inInfo(2).dataType() != DataType::INT32)
    throw error("{}: batch_indices must be INT64 or INT32, not {}", str(),
                inInfo(2).data_type());
  outInfo(0) =
      TensorInfo(DataType::FLOAT, {rois[0], x[1], outputHeight, outputWidth});
}

} // namespace popart
