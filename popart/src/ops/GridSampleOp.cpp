#include "ops/GridSampleOp.hpp"

#include <popart/error.hpp>

namespace popart {

GridSampleOp::GridSampleOp(const OperatorIdentifier &id,
                           const Op::Settings &settings, const Attributes &a)
    : Op(id, settings), alignCorners(a.getInt("align_corners", 0) != 0),
      mode(a.getString("mode", "bilinear")),
      paddingMode(a.getString("padding_mode", "zeros")) {
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    throw error("GridSample '{}': mode '{}' is not bilinear, nearest or "
                "bicubic",
                settings.name, mode);
  if (paddingMode != "zeros" && paddingMode != "border" &&
      paddingMode != "reflection")
    throw error("GridSample '{}': padding_mode '{}' is not zeros, border or "
                "reflection",
                settings.name, paddingMode);
}

void GridSampleOp::setup() {
  const Shape x = inShape(0), grid = inShape(1);
  if (x.size() != 4 || grid.size() != 4 || grid[0] != x[0] || grid[3] != 2)
    throw error("{}: input of shape {} and grid of shape {} are not [N, C, H, "
                "W] and [N, H_out, W_out, 2]",
                str(), x, grid);
  if (inInfo(0).dataType() != DataType::FLOAT ||
      inInfo(1).dataType() != DataType::FLOAT)
    throw error("{}: the input and grid must be FLOAT, not {} and {}", str(),
                inInfo(0).data_type(), inInfo(1).data_type());
  outInfo(0) = TensorInfo(DataType::FLOAT, {x[0], x[1], grid[1], grid[2]});
}

} // namespace popart
