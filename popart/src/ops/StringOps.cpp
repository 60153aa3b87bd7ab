#include "ops/StringOps.hpp"

#include "ir/HostData.hpp"

#include <popart/error.hpp>

#include <onnx/onnx_pb.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <utility>
#include <set>
#include <stdexcept>
#include <type_traits>

namespace popart {
namespace stringops {

namespace {

template <typename T> std::string shortest(T value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "INF" : "-INF";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// from_chars over the whole string; a leading '+' is allowed too.
template <typename T> bool parseWhole(const std::string &s, T &value) {
  const char *begin = s.data();
  const char *end = s.data() + s.size();
  if (begin != end && *begin == '+') {
    ++begin;
    if (begin != end && *begin == '-')
      return false;
  }
  if (begin == end)
    return false;
  const auto result = std::from_chars(begin, end, value);
  if constexpr (std::is_floating_point_v<T>) {
    // Past the type's range: infinity or zero, as strtod gives, through
    // the wider long double.
    if (result.ec == std::errc::result_out_of_range && result.ptr == end &&
        !std::is_same_v<T, long double>) {
      long double wide;
      if (!parseWhole(std::string(begin, end), wide))
        return false;
      value = static_cast<T>(wide);
      return true;
    }
  }
  return result.ec == std::errc() && result.ptr == end;
}

// The values of an integer type narrower than 64 bits.
std::pair<double, double> integerRange(DataType type) {
  switch (type) {
  case DataType::INT32: return {INT32_MIN, INT32_MAX};
  case DataType::INT16: return {INT16_MIN, INT16_MAX};
  case DataType::INT8: return {INT8_MIN, INT8_MAX};
  case DataType::UINT32: return {0, UINT32_MAX};
  case DataType::UINT16: return {0, UINT16_MAX};
  case DataType::UINT8: return {0, UINT8_MAX};
  default:
    throw error("Cast from STRING to {} is not supported",
                getDataTypeInfo(type).name());
  }
}

} // namespace

std::vector<std::string> formatNumbers(const std::vector<char> &data,
                                       DataType type) {
  std::vector<std::string> out;
  switch (type) {
  case DataType::FLOAT: {
    out.resize(data.size() / sizeof(float));
    for (std::size_t i = 0; i < out.size(); ++i) {
      float v;
      std::memcpy(&v, data.data() + i * sizeof(float), sizeof(float));
      out[i] = shortest(v);
    }
    return out;
  }
  case DataType::DOUBLE: {
    out.resize(data.size() / sizeof(double));
    for (std::size_t i = 0; i < out.size(); ++i) {
      double v;
      std::memcpy(&v, data.data() + i * sizeof(double), sizeof(double));
      out[i] = shortest(v);
    }
    return out;
  }
  case DataType::FLOAT16: // every half value is a float: its shortest form
    for (double v : toDoubles(data, type))
      out.push_back(shortest(static_cast<float>(v)));
    return out;
  case DataType::UINT64: {
    out.resize(data.size() / sizeof(uint64_t));
    for (std::size_t i = 0; i < out.size(); ++i) {
      uint64_t v;
      std::memcpy(&v, data.data() + i * sizeof(v), sizeof(v));
      out[i] = std::to_string(v);
    }
    return out;
  }
  default: // the other integers and BOOL, exactly
    for (int64_t v : toInt64s(data, type))
      out.push_back(std::to_string(v));
    return out;
  }
}

std::vector<char> parseNumbers(const std::vector<std::string> &strings,
                               DataType to, const std::string &what) {
  auto bad = [&](std::size_t i, const char *why) {
    return error("{}: element {} (\"{}\") {}", what, i, strings[i], why);
  };
  std::vector<char> out;
  if (to == DataType::INT64 || to == DataType::UINT64) {
    out.resize(strings.size() * 8);
    for (std::size_t i = 0; i < strings.size(); ++i) {
      int64_t i64 = 0;
      uint64_t u64 = 0;
      const bool exact = to == DataType::INT64 ? parseWhole(strings[i], i64)
                                               : parseWhole(strings[i], u64);
      if (!exact) { // "100.5" -> 100
        double d;
        if (!parseWhole(strings[i], d))
          throw bad(i, "is not a number");
        const double lo = to == DataType::INT64 ? -0x1p63 : 0.0;
        const double hi = to == DataType::INT64 ? 0x1p63 : 0x1p64;
        if (!(d > lo - 1 && d < hi))
          throw bad(i, "is out of the range of the type cast to");
        if (to == DataType::INT64) // each conversion only in its range
          i64 = static_cast<int64_t>(d);
        else
          u64 = static_cast<uint64_t>(d);
      }
      std::memcpy(out.data() + i * 8,
                  to == DataType::INT64 ? static_cast<const void *>(&i64) : &u64,
                  8);
    }
    return out;
  }
  std::vector<double> values(strings.size());
  const bool floating = to == DataType::DOUBLE || to == DataType::FLOAT16;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (to == DataType::FLOAT) {
      float f; // rounded once, from the decimal text
      if (!parseWhole(strings[i], f))
        throw bad(i, "is not a number");
      values[i] = f;
      continue;
    }
    if (!parseWhole(strings[i], values[i]))
      throw bad(i, "is not a number");
    if (floating || to == DataType::BOOL)
      continue;
    const double t = std::trunc(values[i]);
    const auto [lo, hi] = integerRange(to);
    if (!(t >= lo && t <= hi))
      throw bad(i, "is out of the range of the type cast to");
    values[i] = t;
  }
  if (to == DataType::BOOL)
    for (double &v : values)
      v = v != 0 ? 1 : 0;
  return fromDoubles(values, to);
}

// ---------------------------------------------------------------------------

namespace {

std::string describe(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return node.op_type() + " '" + node.name() + "'";
  return node.op_type() + " (output '" +
         (node.output_size() ? node.output(0) : std::string()) + "')";
}

// UTF-8 (or the locale's narrow encoding) to wide characters and back,
// through the locale's own conversion facet.
using Convert = std::codecvt<wchar_t, char, std::mbstate_t>;

std::wstring widen(const std::string &s, const std::locale &locale,
                   const std::string &what) {
  const auto &facet = std::use_facet<Convert>(locale);
  std::mbstate_t state{};
  std::wstring out(s.size(), L'\0');
  const char *next = nullptr;
  wchar_t *written = nullptr;
  const auto result = facet.in(state, s.data(), s.data() + s.size(), next,
                               out.data(), out.data() + out.size(), written);
  if (result != Convert::ok && result != Convert::noconv)
    throw error("{}: \"{}\" is not text in the locale's encoding", what, s);
  if (result == Convert::noconv)
    return std::wstring(s.begin(), s.end());
  out.resize(static_cast<std::size_t>(written - out.data()));
  return out;
}

std::string narrow(const std::wstring &s, const std::locale &locale,
                   const std::string &what) {
  const auto &facet = std::use_facet<Convert>(locale);
  std::mbstate_t state{};
  std::string out(s.size() * std::size_t(facet.max_length() > 0
                                              ? facet.max_length()
                                              : 4),
                  '\0');
  const wchar_t *next = nullptr;
  char *written = nullptr;
  const auto result = facet.out(state, s.data(), s.data() + s.size(), next,
                                out.data(), out.data() + out.size(), written);
  if (result != Convert::ok && result != Convert::noconv)
    throw error("{}: a changed character has no encoding in the locale", what);
  out.resize(static_cast<std::size_t>(written - out.data()));
  return out;
}

} // namespace

StringNormalizer::StringNormalizer(const onnx::NodeProto &node)
    : name(describe(node)) {
  std::string localeName = "C.UTF-8";
  for (const auto &a : node.attribute()) {
    if (a.name() == "case_change_action")
      action = a.s();
    else if (a.name() == "is_case_sensitive")
      caseSensitive = a.i() != 0;
    else if (a.name() == "stopwords")
      stopwords.assign(a.strings().begin(), a.strings().end());
    else if (a.name() == "locale")
      localeName = a.s();
    else
      throw error("{}: unknown attribute '{}'", name, a.name());
  }
  if (action != "LOWER" && action != "UPPER" && action != "NONE")
    throw error("{}: case_change_action '{}' is not LOWER, UPPER or NONE",
                name, action);
  try {
    locale = std::locale(localeName);
  } catch (const std::runtime_error &) {
    throw error("{}: locale '{}' is not available on this system (the C++ "
                "library's locales: see `locale -a`)",
                name, localeName);
  }
  if (!caseSensitive)
    for (auto &word : stopwords)
      word = lowered(word);
}

std::string StringNormalizer::changeCase(const std::string &s,
                                         bool upper) const {
  std::wstring wide = widen(s, locale, name);
  const auto &ctype = std::use_facet<std::ctype<wchar_t>>(locale);
  if (upper)
    ctype.toupper(wide.data(), wide.data() + wide.size());
  else
    ctype.tolower(wide.data(), wide.data() + wide.size());
  return narrow(wide, locale, name);
}

std::string StringNormalizer::lowered(const std::string &s) const {
  return changeCase(s, false);
}

Shape StringNormalizer::maximumShape(const Shape &in) const {
  if (in.size() == 1 || (in.size() == 2 && in[0] == 1)) {
    Shape out = in;
    out.back() = std::max<int64_t>(out.back(), 1);
    return out;
  }
  throw error("{} takes a [C] or [1, C] tensor, not one of shape {}", name, in);
}

std::vector<std::string>
StringNormalizer::apply(const std::vector<std::string> &strings,
                        const Shape &in, Shape &outShape) const {
  outShape = maximumShape(in);
  const std::set<std::string> stop(stopwords.begin(), stopwords.end());
  std::vector<std::string> out;
  for (const auto &s : strings) {
    if (stop.count(caseSensitive ? s : lowered(s)))
      continue;
    out.push_back(action == "NONE" ? s : changeCase(s, action == "UPPER"));
  }
  if (out.empty())
    out.emplace_back();
  outShape.back() = static_cast<int64_t>(out.size());
  return out;
}

} // namespace stringops
} // namespace popart
