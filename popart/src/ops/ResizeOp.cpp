#include "ops/ResizeOp.hpp"

#include <popart/error.hpp>

#include <algorithm>
#include <cmath>

namespace popart {

ResizeOp::ResizeOp(const OperatorIdentifier &id, const Op::Settings &settings,
                   const Attributes &a)
    : Op(id, settings), mode(a.getString("mode", "nearest")),
      // Upsample and Resize-10 map coordinates as x / scale and take the
      // floor for the nearest.
      transform(id.type == "Upsample" || id.version < 11
                    ? "asymmetric"
                    : a.getString("coordinate_transformation_mode",
                                  "half_pixel")),
      nearestMode(id.type == "Upsample" || id.version < 11
                      ? "floor"
                      : a.getString("nearest_mode", "round_prefer_floor")),
      cubicA(a.getFloat("cubic_coeff_a", -0.75f)),
      extrapolation(a.getFloat("extrapolation_value", 0.0f)),
      excludeOutside(a.getInt("exclude_outside", 0) != 0) {
  if (mode == "bilinear")
    mode = "linear";
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    throw error("{} '{}': mode '{}' is not supported", id.type, name(), mode);
  if (transform != "half_pixel" && transform != "pytorch_half_pixel" &&
      transform != "align_corners" && transform != "asymmetric" &&
      transform != "tf_crop_and_resize" && transform != "tf_half_pixel_for_nn")
    throw error("{} '{}': coordinate_transformation_mode '{}' is not "
                "supported",
                id.type, name(), transform);
  if (nearestMode != "round_prefer_floor" && nearestMode != "round_prefer_ceil" &&
      nearestMode != "floor" && nearestMode != "ceil")
    throw error("{} '{}': nearest_mode '{}' is not supported", id.type, name(),
                nearestMode);
  if (id.type == "Upsample" && id.version < 9)
    for (float s : a.getFloats("scales"))
      scales.push_back(s);
}

void ResizeOp::setup() {
  const Shape in = inShape(0);
  const std::size_t rank = in.size();
  // Present, non-empty constant inputs.
  auto given = [&](InIndex i) {
    return hasInput(i) && inInfo(i).nelms() > 0;
  };
  const bool older = opid.type == "Upsample" || opid.version < 11;
  const InIndex scalesIn = older ? 1 : 2, sizesIn = 3, roiIn = 1;
  roiStart.assign(rank, 0.0);
  roiEnd.assign(rank, 1.0);
  if (!older && given(roiIn) && transform == "tf_crop_and_resize") {
    const auto roi = constInputValues(roiIn, "roi");
    if (roi.size() != 2 * rank)
      throw error("{}: the roi has {} values, not {}", str(), roi.size(),
                  2 * rank);
    roiStart.assign(roi.begin(), roi.begin() + rank);
    roiEnd.assign(roi.begin() + rank, roi.end());
  }
  Shape out(rank);
  if (!older && given(sizesIn)) {
    const auto sizes = constInputInts(sizesIn, "sizes");
    if (sizes.size() != rank)
      throw error("{}: {} sizes for rank {}", str(), sizes.size(), rank);
    scales.clear();
    for (std::size_t d = 0; d < rank; ++d) {
      out[d] = sizes[d];
      scales.push_back(static_cast<double>(sizes[d]) / static_cast<double>(in[d]));
    }
  } else {
    if (given(scalesIn)) {
      scales.clear();
      for (double s : constInputValues(scalesIn, "scales"))
        scales.push_back(static_cast<float>(s));
    }
    if (scales.size() != rank)
      throw error("{}: {} scales for rank {} (neither scales nor sizes?)",
                  str(), scales.size(), rank);
    for (std::size_t d = 0; d < rank; ++d)
      out[d] = static_cast<int64_t>(std::floor(
          static_cast<double>(in[d]) * (roiEnd[d] - roiStart[d]) * scales[d]));
  }
  for (std::size_t d = 0; d < rank; ++d)
    if (scales[d] <= 0)
      throw error("{}: scale {} is not positive", str(), scales[d]);
  const auto t = inInfo(0).dataType();
  if (t != DataType::FLOAT && t != DataType::FLOAT16 && t != DataType::DOUBLE)
    throw error("{}: the input must be floating point, not {}", str(),
                inInfo(0).data_type());
  outInfo(0) = TensorInfo(t, out);
}

std::vector<float> ResizeOp::weights(std::size_t d,
                                     std::vector<bool> &outside) const {
  const int64_t inSize = inShape(0)[d], outSize = outShape(0)[d];
  const double s = scales[d];
  const double outWidth = s * static_cast<double>(inSize);
  const double last = static_cast<double>(inSize - 1);
  std::vector<float> w(static_cast<std::size_t>(outSize * inSize), 0.0f);
  outside.assign(static_cast<std::size_t>(outSize), false);
  const int n = mode == "cubic" ? 4 : 2;
  for (int64_t o = 0; o < outSize; ++o) {
    const double x = static_cast<double>(o);
    double xo = 0;
    if (transform == "align_corners")
      xo = outWidth == 1 ? 0.0 : x * last / (outWidth - 1);
    else if (transform == "asymmetric")
      xo = x / s;
    else if (transform == "tf_half_pixel_for_nn")
      xo = (x + 0.5) / s;
    else if (transform == "pytorch_half_pixel")
      xo = outWidth == 1 ? -0.5 : (x + 0.5) / s - 0.5;
    else if (transform == "half_pixel")
      xo = (x + 0.5) / s - 0.5;
    else { // tf_crop_and_resize
      const double span = roiEnd[d] - roiStart[d];
      xo = outWidth == 1 ? span * last / 2 : x * span * last / (outWidth - 1);
      xo += roiStart[d] * last;
      if (xo < 0 || xo > last) {
        outside[o] = true;
        continue;
      }
    }
    const double floorX = std::floor(xo);
    const double ratio = xo == floorX ? 1.0 : xo - floorX;
    std::vector<double> c;
    if (mode == "nearest") {
      if (xo == floorX)
        c = {0, 1};
      else if (nearestMode == "round_prefer_floor")
        c = {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
      else if (nearestMode == "round_prefer_ceil")
        c = {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
      else if (nearestMode == "floor")
        c = {1, 0};
      else
        c = {0, 1};
    } else if (mode == "linear") {
      c = {1 - ratio, ratio};
    } else {
      const double a = cubicA, r = ratio, q = 1 - ratio;
      c = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
           ((a + 2) * r - (a + 3)) * r * r + 1,
           ((a + 2) * q - (a + 3)) * q * q + 1,
           ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a};
    }
    // The n positions nearest xo (the smaller first on a tie) among the
    // input's, extended by its edge values on both sides.
    const int64_t pad = (n + 1) / 2;
    std::vector<int64_t> near;
    for (int64_t i = -pad; i < inSize + pad; ++i)
      near.push_back(i);
    std::stable_sort(near.begin(), near.end(), [&](int64_t a, int64_t b) {
      return std::fabs(xo - static_cast<double>(a)) <
             std::fabs(xo - static_cast<double>(b));
    });
    near.resize(static_cast<std::size_t>(n));
    std::sort(near.begin(), near.end());
    if (excludeOutside) {
      double sum = 0;
      for (int i = 0; i < n; ++i) {
        if (near[i] < 0 || near[i] >= inSize)
          c[i] = 0;
        sum += c[i];
      }
      for (auto &v : c)
        v /= sum;
    }
    for (int i = 0; i < n; ++i) {
      const int64_t at = std::min(std::max<int64_t>(near[i], 0), inSize - 1);
      w[o * inSize + at] += static_cast<float>(c[i]);
    }
  }
  return w;
}

} // namespace popart
