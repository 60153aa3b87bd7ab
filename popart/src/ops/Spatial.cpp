#include "ops/Spatial.hpp"

#include <popart/error.hpp>

namespace popart {

void SpatialAttributes::read(const Attributes &a, const std::string &opName,
                             bool readCeilMode, bool readDilations) {
  kernelShape = a.getInts("kernel_shape", {});
  strides = a.getInts("strides", {});
  pads = a.getInts("pads", {});
  if (readDilations)
    dilations = a.getInts("dilations", {});
  autoPad = a.getString("auto_pad", "NOTSET");
  if (readCeilMode)
    ceilMode = a.getInt("ceil_mode", 0) != 0;
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER" && autoPad != "VALID")
    throw error("'{}': auto_pad '{}' is not NOTSET, SAME_UPPER, SAME_LOWER "
                "or VALID",
                opName, autoPad);
  if (autoPad != "NOTSET" && !pads.empty())
    throw error("'{}': pads and auto_pad {} are both given", opName, autoPad);
}

std::vector<int64_t> orDefault(const std::vector<int64_t> &v, std::size_t n,
                               int64_t def) {
  return v.empty() ? std::vector<int64_t>(n, def) : v;
}

std::vector<SpatialDim> resolveSpatial(const SpatialAttributes &attrs,
                                       const Shape &field, const Shape &kernel,
                                       const Op &op) {
  const std::size_t n = field.size();
  const auto strides = orDefault(attrs.strides, n, 1);
  const auto dilations = orDefault(attrs.dilations, n, 1);
  const auto pads = orDefault(attrs.pads, 2 * n, 0);
  if (kernel.size() != n || strides.size() != n || dilations.size() != n ||
      pads.size() != 2 * n)
    throw error("{}: {} spatial dimensions, but kernel_shape {}, strides {}, "
                "dilations {} and pads {}",
                op.str(), n, kernel, strides, dilations, pads);
  std::vector<SpatialDim> dims(n);
  for (std::size_t d = 0; d < n; ++d) {
    if (strides[d] < 1 || dilations[d] < 1 || kernel[d] < 1)
      throw error("{}: kernel sizes, strides and dilations must be positive "
                  "(kernel {}, strides {}, dilations {})",
                  op.str(), kernel, strides, dilations);
    if (pads[d] < 0 || pads[d + n] < 0)
      throw error("{}: negative pads {} are not supported", op.str(), pads);
    const int64_t in = field[d], s = strides[d];
    const int64_t k = (kernel[d] - 1) * dilations[d] + 1;
    SpatialDim &r = dims[d];
    if (attrs.autoPad == "SAME_UPPER" || attrs.autoPad == "SAME_LOWER") {
      r.outSize = (in + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (r.outSize - 1) * s + k - in);
      const int64_t small = total / 2;
      r.paddingLower = attrs.autoPad == "SAME_UPPER" ? small : total - small;
      r.paddingUpper = total - r.paddingLower;
      continue;
    }
    if (attrs.autoPad == "NOTSET") {
      r.paddingLower = pads[d];
      r.paddingUpper = pads[d + n];
    }
    const int64_t span = in + r.paddingLower + r.paddingUpper - k;
    if (span < 0)
      throw error("{}: the kernel ({} elements with dilation) is larger than "
                  "the padded input ({}) in spatial dimension {}",
                  op.str(), k, in + r.paddingLower + r.paddingUpper, d);
    r.outSize = (attrs.ceilMode ? (span + s - 1) / s : span / s) + 1;
    if (attrs.ceilMode) {
      // A window must start inside the input or its lower padding.
      if ((r.outSize - 1) * s >= in + r.paddingLower)
        --r.outSize;
      r.paddingUpper += std::max<int64_t>(0, (r.outSize - 1) * s + k - (in + r.paddingLower + r.paddingUpper));
    }
  }
  return dims;
}

} // namespace popart
