// How PrintTensor lays out a tensor's values (PrintTensorFmt): in nested
// brackets, numpy's way, each value of one width.
#ifndef POPLAR_PRINTTENSOR_HPP
#define POPLAR_PRINTTENSOR_HPP

#include <poplar/poplar_export.hpp>

namespace poplar {

class POPLAR_API PrintTensorFmt {
public:
  enum class FloatFormat {
    /// Fixed, unless the values need more than `digits` digits before the
    /// point, or the smallest non-zero one shows no digit in fixed form:
    /// then scientific.
    Auto = 0,
    /// -100.00: `digits` digits in all, those after the point the same
    /// for every value.
    Fixed = 1,
    /// -1.0000000e+02: `digits` digits in the mantissa.
    Scientific = 2,
    /// Each value in its shortest form, unaligned.
    None = 3
  };

  /// summariseThreshold: above this many elements only edgeItems values
  /// show at each end of each dimension ("..." between), 0: never.
  /// maxLineWidth: longer lines of values are split, 0: never. digits:
  /// digits shown (integers show all theirs), 0: no alignment (as
  /// FloatFormat::None).
  PrintTensorFmt(unsigned summariseThreshold = 1000, unsigned edgeItems = 3,
                 unsigned maxLineWidth = 75, unsigned digits = 8,
                 FloatFormat floatFormat = FloatFormat::Auto,
                 char separator = ' ', char openBracket = '[',
                 char closeBracket = ']')
      : summariseThreshold(summariseThreshold), edgeItems(edgeItems),
        maxLineWidth(maxLineWidth), digits(digits), floatFormat(floatFormat),
        separator(separator), openBracket(openBracket),
        closeBracket(closeBracket) {}

  unsigned summariseThreshold;
  unsigned edgeItems;
  unsigned maxLineWidth;
  unsigned digits;
  FloatFormat floatFormat;
  char separator;
  char openBracket;
  char closeBracket;
};

} // namespace poplar

#endif
