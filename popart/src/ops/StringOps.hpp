// The ops that take or give STRING tensors, computed on the host: Cast and
// CastLike to and from STRING, and StringNormalizer. Poplar has no string
// type, so these never become device ops; the session runs them at its
// boundary (session/StringBoundary.hpp).
#ifndef POPART_SRC_OPS_STRINGOPS_HPP
#define POPART_SRC_OPS_STRINGOPS_HPP

#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>

#include <locale>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace popart {
namespace stringops {

/// Cast to STRING: each number in its shortest form that reads back to the
/// same value ("0.039187793", "1e-05"); "NaN", "INF" and "-INF" for the
/// special values; integers in decimal; booleans as "1" and "0".
std::vector<std::string> formatNumbers(const std::vector<char> &data,
                                       DataType type);

/// Cast from STRING: plain and scientific notation ("3.14", "1E8"), the
/// literals "NaN", "INF", "+INF" and "-INF" in any case; a string with a
/// fractional part given to an integer type is truncated, a number past a
/// floating type's range is infinity or zero. popart::error naming `what`
/// and the element for a string that is not a number or is out of an
/// integer type's range.
std::vector<char> parseNumbers(const std::vector<std::string> &strings,
                               DataType to, const std::string &what);

/// StringNormalizer (ai.onnx 10): removes the stop words, then changes the
/// case of what is left. Takes a [C] or [1, C] tensor; when every element
/// is removed, the output is one empty string of shape [1] (or [1, 1]).
class StringNormalizer {
public:
  /// Reads and checks the node's attributes: case_change_action (LOWER,
  /// UPPER or NONE), is_case_sensitive, stopwords and locale (a locale of
  /// the C++ library, "C.UTF-8" when not given; popart::error naming the
  /// node and the locale when the system has no such locale).
  explicit StringNormalizer(const onnx::NodeProto &node);

  /// The output's shape for an input of `in`, at most (the shape before
  /// any stop word is removed); popart::error for other ranks.
  Shape maximumShape(const Shape &in) const;

  /// The output for `strings` of shape `in`; `outShape` is set to its shape.
  std::vector<std::string> apply(const std::vector<std::string> &strings,
                                 const Shape &in, Shape &outShape) const;

private:
  std::string lowered(const std::string &s) const;
  std::string changeCase(const std::string &s, bool upper) const;

  std::string name;
  std::string action = "NONE";
  bool caseSensitive = false;
  std::vector<std::string> stopwords;
  std::locale locale;
};

} // namespace stringops
} // namespace popart

#endif
