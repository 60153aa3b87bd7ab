// The public conversions. The target does not change the format: every IPU
// stores IEEE binary16.
#include "core/Half.hpp"

#include <poplar/Target.hpp>

namespace poplar {

void copyFloatToDeviceHalf(const Target &, const float *src, void *dst,
                           std::size_t numElements) {
  auto *out = static_cast<std::uint16_t *>(dst);
  for (std::size_t i = 0; i != numElements; ++i)
    out[i] = floatToHalf(src[i]);
}

void copyDeviceHalfToFloat(const Target &, const void *src, float *dst,
                           std::size_t numElements) {
  const auto *in = static_cast<const std::uint16_t *>(src);
  for (std::size_t i = 0; i != numElements; ++i)
    dst[i] = halfToFloat(in[i]);
}

void copyDoubleToDeviceHalf(const Target &, const double *src, void *dst,
                            std::size_t numElements) {
  auto *out = static_cast<std::uint16_t *>(dst);
  for (std::size_t i = 0; i != numElements; ++i)
    out[i] = floatToHalf(static_cast<float>(src[i]));
}

void copyDeviceHalfToDouble(const Target &, const void *src, double *dst,
                            std::size_t numElements) {
  const auto *in = static_cast<const std::uint16_t *>(src);
  for (std::size_t i = 0; i != numElements; ++i)
    dst[i] = halfToFloat(in[i]);
}

} // namespace poplar
