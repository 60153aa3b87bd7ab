// PrintTensor with a PrintTensorFmt: the values in nested brackets as
// numpy prints them, each of one width (right-aligned):
//
//   t: [[ 1.0000000 -2.5000000]
//       ...
//
// A summarised dimension shows edgeItems values at each end with "..."
// between (on a line of its own for an outer dimension); outer dimensions
// are separated by as many line breaks as they have inner dimensions, the
// next line indented by its depth; a line of values longer than
// maxLineWidth (less a closing bracket per dimension) carries on,
// indented, on the next line; an empty tensor is "[]".
#include "runtime/EngineImpl.hpp"

#include "core/ElementConversion.hpp"
#include "core/TypeInfo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace poplar {
namespace {

enum class FloatFormat { Auto = 0, Fixed = 1, Scientific = 2, None = 3 };

std::string printf1(const char *fmt, int precision, double v) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, fmt, precision, v);
  return buffer;
}

// How the floating-point values print: the format and digits after the
// point, chosen from the values shown.
struct FloatStyle {
  FloatFormat format = FloatFormat::None;
  int precision = 0;

  FloatStyle(const exec::PrintFormat &f, const std::vector<double> &values) {
    format = f.digits == 0 ? FloatFormat::None
                           : static_cast<FloatFormat>(f.floatFormat);
    if (format == FloatFormat::None)
      return;
    const int digits = static_cast<int>(f.digits);
    double maxAbs = 0, minNonZero = 0;
    for (double v : values)
      if (std::isfinite(v) && v != 0) {
        maxAbs = std::max(maxAbs, std::fabs(v));
        minNonZero = minNonZero == 0 ? std::fabs(v)
                                     : std::min(minNonZero, std::fabs(v));
      }
    // The digits before the point of the largest value (one for 0.x).
    const int intDigits =
        maxAbs < 1 ? 1 : static_cast<int>(printf1("%.*f", 0, std::floor(maxAbs)).size());
    const int fixedPrecision = std::max(digits - intDigits, 0);
    if (format == FloatFormat::Auto) {
      const bool tooLarge = intDigits > digits;
      const bool vanishes =
          minNonZero != 0 && minNonZero < 0.5 * std::pow(10.0, -fixedPrecision);
      format = tooLarge || vanishes ? FloatFormat::Scientific
                                    : FloatFormat::Fixed;
    }
    precision = format == FloatFormat::Fixed ? fixedPrecision
                                             : std::max(digits - 1, 0);
  }

  std::string text(double v) const {
    if (std::isnan(v))
      return "nan";
    if (std::isinf(v))
      return v < 0 ? "-inf" : "inf";
    switch (format) {
    case FloatFormat::Fixed:
      return printf1("%.*f", precision, v);
    case FloatFormat::Scientific:
      return printf1("%.*e", precision, v);
    default: {
      std::ostringstream s;
      s << static_cast<float>(v);
      return s.str();
    }
    }
  }
};

class Formatter {
public:
  Formatter(const exec::PrintFormat &f, const exec::TensorAccess &a,
            const unsigned char *data)
      : f(f), a(a), data(data), strides(a.shape.size(), 1) {
    for (std::size_t d = a.shape.size(); d-- > 1;)
      strides[d - 1] = strides[d] * a.shape[d];
    const bool summarise =
        f.summariseThreshold != 0 && a.numElements > f.summariseThreshold;
    for (std::size_t n : a.shape)
      shown.push_back(indices(n, summarise));
    texts.assign(a.numElements, std::string());
    formatShown();
  }

  std::string values() {
    if (a.shape.empty())
      return texts[0];
    if (a.numElements == 0) // as numpy prints any empty array
      return {f.openBracket, f.closeBracket};
    printDim(0, 0);
    return out;
  }

private:
  // The indices shown along a dimension of n elements (-1: the ellipsis).
  std::vector<long long> indices(std::size_t n, bool summarise) const {
    std::vector<long long> v;
    const std::size_t edge = f.edgeItems;
    if (summarise && n > 2 * edge) {
      for (std::size_t i = 0; i < edge; ++i)
        v.push_back(static_cast<long long>(i));
      v.push_back(-1);
      for (std::size_t i = n - edge; i < n; ++i)
        v.push_back(static_cast<long long>(i));
    } else {
      for (std::size_t i = 0; i < n; ++i)
        v.push_back(static_cast<long long>(i));
    }
    return v;
  }

  // The flattened indices of the elements shown.
  void collect(std::size_t dim, std::size_t offset,
               std::vector<std::size_t> &into) const {
    if (dim == a.shape.size()) {
      into.push_back(offset);
      return;
    }
    for (long long i : shown[dim])
      if (i >= 0)
        collect(dim + 1, offset + static_cast<std::size_t>(i) * strides[dim],
                into);
  }

  void formatShown() {
    std::vector<std::size_t> elements;
    collect(0, 0, elements);
    const Type &type = a.type;
    const auto at = [&](std::size_t i) { return data + i * a.elementBytes; };
    if (isFloatingPoint(type)) {
      std::vector<double> values;
      for (std::size_t i : elements)
        values.push_back(elementAsDouble(type, at(i)));
      const FloatStyle style(f, values);
      for (std::size_t k = 0; k < elements.size(); ++k)
        texts[elements[k]] = style.text(values[k]);
    } else {
      for (std::size_t i : elements) {
        if (type == BOOL) {
          texts[i] = *at(i) != 0 ? "1" : "0";
        } else if (isSigned(type)) {
          texts[i] = std::to_string(elementAsInteger(type, at(i)));
        } else {
          unsigned long long v;
          convertElements(type, at(i), UNSIGNED_LONGLONG, &v, 1);
          texts[i] = std::to_string(v);
        }
      }
    }
    const bool aligned =
        f.digits != 0 &&
        !(isFloatingPoint(type) &&
          static_cast<FloatFormat>(f.floatFormat) == FloatFormat::None);
    if (!aligned)
      return;
    std::size_t width = 0;
    for (std::size_t i : elements)
      width = std::max(width, texts[i].size());
    for (std::size_t i : elements)
      texts[i].insert(0, width - texts[i].size(), ' ');
  }

  void put(const std::string &s) {
    out += s;
    const auto nl = s.rfind('\n');
    column = nl == std::string::npos ? column + s.size() : s.size() - nl - 1;
  }

  void newLines(std::size_t count, std::size_t indent) {
    put(std::string(count, '\n') + std::string(indent, ' '));
  }

  void printDim(std::size_t dim, std::size_t offset) {
    put(std::string(1, f.openBracket));
    const bool inner = dim + 1 == a.shape.size();
    const auto &idx = shown[dim];
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::string text =
          idx[k] < 0 ? "..."
          : inner ? texts[offset + static_cast<std::size_t>(idx[k]) * strides[dim]]
                  : std::string();
      if (k > 0) {
        if (inner) {
          // As numpy: room is kept for a closing bracket per dimension.
          const bool wrap =
              f.maxLineWidth != 0 &&
              column + 1 + text.size() + a.shape.size() > f.maxLineWidth;
          if (!wrap || f.separator != ' ')
            put(std::string(1, f.separator));
          if (wrap)
            newLines(1, dim + 1);
        } else {
          if (f.separator != ' ')
            put(std::string(1, f.separator));
          newLines(a.shape.size() - dim - 1, dim + 1);
        }
      }
      if (inner || idx[k] < 0)
        put(text);
      else
        printDim(dim + 1,
                 offset + static_cast<std::size_t>(idx[k]) * strides[dim]);
    }
    put(std::string(1, f.closeBracket));
  }

  const exec::PrintFormat &f;
  const exec::TensorAccess &a;
  const unsigned char *data;
  std::vector<std::size_t> strides;
  std::vector<std::vector<long long>> shown;
  std::vector<std::string> texts;
  std::string out;
  std::size_t column = 0;
};

} // namespace

void printFormattedTensor(std::ostream &out, const std::string &title,
                          const exec::PrintFormat &format,
                          const exec::TensorAccess &a,
                          const unsigned char *data) {
  out << title << ": " << Formatter(format, a, data).values() << '\n';
}

} // namespace poplar
