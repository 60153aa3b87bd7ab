// IEEE 754 binary16 conversion, used for HALF data on the host side.
#ifndef POPLAR_SRC_CORE_HALF_HPP
#define POPLAR_SRC_CORE_HALF_HPP

#include <cstdint>

namespace poplar {

/// Rounds to nearest, ties to even; overflow gives infinity; NaN stays NaN.
std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t bits);

} // namespace poplar

#endif // POPLAR_SRC_CORE_HALF_HPP
