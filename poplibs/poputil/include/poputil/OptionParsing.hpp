// Parsing of string options (poplar::OptionFlags) into typed values, as
// the PopLibs operations parse theirs: an OptionSpec maps each option name
// to a handler that parses its value into a variable. Bad names and
// values throw poplar::invalid_option naming the option.
//
//   unsigned tiles = 0;
//   bool fast = false;
//   poplibs::OptionSpec spec{
//       {"tilesPerIPU", poplibs::OptionHandler::createWithInteger(tiles)},
//       {"fast", poplibs::OptionHandler::createWithBool(fast)}};
//   for (const auto &option : options)
//     spec.parse(option.first, option.second);
#ifndef POPUTIL_OPTIONPARSING_HPP
#define POPUTIL_OPTIONPARSING_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>

#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#if __cplusplus >= 201703L
#include <optional>
#endif

namespace poplibs {
namespace parse {

/// The whole of str as an integer of type T (decimal, or hex with 0x).
template <typename T> T asInteger(const poplar::StringRef &str) {
  const std::string s = str.str();
  std::istringstream in(s);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    in >> std::hex;
  T value{};
  in >> value;
  if (s.empty() || in.fail() || !in.eof())
    throw poplar::invalid_option("Not a valid integer: '" + s + "'");
  return value;
}

/// The whole of str as a floating-point number.
template <typename T> T asFloatingPoint(const poplar::StringRef &str) {
  const std::string s = str.str();
  std::istringstream in(s);
  T value{};
  in >> value;
  if (s.empty() || in.fail() || !in.eof())
    throw poplar::invalid_option("Not a floating point number: '" + s + "'");
  return value;
}

/// The names of an enumeration's values: "'a', 'b' and 'c'".
template <typename T>
inline std::string describeEnumValues(const std::map<std::string, T> &valueMap) {
  std::string s;
  std::size_t i = 0;
  for (const auto &entry : valueMap) {
    if (i != 0)
      s += i + 1 == valueMap.size() ? " and " : ", ";
    s += "'" + entry.first + "'";
    ++i;
  }
  return s;
}

template <typename T>
T asEnum(const poplar::StringRef &value, const std::map<std::string, T> &map) {
  auto it = map.find(value.str());
  if (it == map.end())
    throw poplar::invalid_option("Not one of the values: " +
                                 describeEnumValues(map));
  return it->second;
}

inline bool asBool(const poplar::StringRef &value) {
  static const std::map<std::string, bool> values = {{"true", true},
                                                     {"false", false}};
  return asEnum(value, values);
}

} // namespace parse

/// Parses the value of one option into a variable.
class OptionHandler {
public:
  template <typename T>
  OptionHandler(T &&valueHandler)
      : valueHandler(std::forward<T>(valueHandler)) {}
  void parseValue(poplar::StringRef value) const { valueHandler(value); }

  /// The value is one of the names of valueMap.
  template <typename T, typename ValueMapT = std::map<std::string, T>>
  static OptionHandler createWithEnum(T &output, ValueMapT &&valueMap) {
    std::map<std::string, T> map(std::forward<ValueMapT>(valueMap));
    return OptionHandler([map, &output](poplar::StringRef value) {
      output = parse::asEnum(value, map);
    });
  }

  template <typename T> static OptionHandler createWithInteger(T &output) {
    return OptionHandler([&output](poplar::StringRef value) {
      output = parse::asInteger<T>(value);
    });
  }

  /// "true" or "false".
  template <typename T> static OptionHandler createWithBool(T &output) {
    return OptionHandler([&output](poplar::StringRef value) {
      output = static_cast<T>(parse::asBool(value));
    });
  }

  /// Throws poplar::invalid_option unless value is within the bounds.
  template <typename T>
  static void ensureValueIsWithinBounds(T value, const T &lowerBound,
                                        bool lowerBoundIsInclusive,
                                        const T &upperBound,
                                        bool upperBoundIsInclusive) {
    if (value < lowerBound || (!lowerBoundIsInclusive && value == lowerBound))
      throw poplar::invalid_option(
          "Value must be greater than " +
          std::string(lowerBoundIsInclusive ? "or equal to " : "") +
          std::to_string(lowerBound));
    if (value > upperBound || (!upperBoundIsInclusive && value == upperBound))
      throw poplar::invalid_option(
          "Value must be less than " +
          std::string(upperBoundIsInclusive ? "or equal to " : "") +
          std::to_string(upperBound));
  }

  /// A floating-point number within the bounds (by default, any).
  template <typename T>
  static OptionHandler
  createWithDouble(T &output,
                   double lowerBound = std::numeric_limits<double>::lowest(),
                   bool lowerBoundIsInclusive = true,
                   double upperBound = std::numeric_limits<double>::max(),
                   bool upperBoundIsInclusive = true) {
    return OptionHandler([&output, lowerBound, lowerBoundIsInclusive,
                          upperBound,
                          upperBoundIsInclusive](poplar::StringRef value) {
      const double v = parse::asFloatingPoint<double>(value);
      ensureValueIsWithinBounds(v, lowerBound, lowerBoundIsInclusive,
                                upperBound, upperBoundIsInclusive);
      output = static_cast<T>(v);
    });
  }

  static OptionHandler createWithString(std::string &output) {
    return OptionHandler(
        [&output](poplar::StringRef value) { output = value.str(); });
  }

  /// A comma-separated list of values of type T.
  template <typename T>
  static OptionHandler createWithList(std::vector<T> &output) {
    return OptionHandler([&output](poplar::StringRef value) {
      std::vector<T> values;
      std::istringstream in(value.str());
      std::string element;
      while (std::getline(in, element, ',')) {
        std::istringstream elementIn(element);
        T v{};
        elementIn >> v;
        if (element.empty() || elementIn.fail() ||
            !(elementIn >> std::ws).eof())
          throw poplar::invalid_option("Not a valid list element: '" +
                                       element + "'");
        values.push_back(v);
      }
      output = values;
    });
  }

private:
  std::function<void(poplar::StringRef)> valueHandler;
};

/// The options an operation accepts, by name.
class OptionSpec {
  using value_type = std::pair<const std::string, OptionHandler>;
  using map_type = std::map<const std::string, OptionHandler>;
  using initializer_list_t = std::initializer_list<value_type>;

public:
  OptionSpec(initializer_list_t &&handlers) : handlers(handlers) {}

  /// Parses one option; throws poplar::invalid_option naming it if it is
  /// unknown (unless ignoreUnknown) or its value is not valid.
  void parse(poplar::StringRef option, poplar::StringRef value,
             bool ignoreUnknown = false) const {
    auto it = handlers.find(option.str());
    if (it == handlers.end()) {
      if (ignoreUnknown)
        return;
      std::string known;
      for (const auto &h : handlers)
        known += (known.empty() ? "" : ", ") + h.first;
      throw poplar::invalid_option("Unrecognised option '" + option.str() +
                                   "' (the options are " + known + ")");
    }
    try {
      it->second.parseValue(value);
    } catch (const poplar::invalid_option &e) {
      throw poplar::invalid_option("Invalid value '" + value.str() +
                                   "' for option '" + option.str() +
                                   "': " + e.what());
    }
  }

  /// Parses every option of flags.
  void parse(const poplar::OptionFlags &flags,
             bool ignoreUnknown = false) const {
    for (const auto &option : flags)
      parse(option.first, option.second, ignoreUnknown);
  }

private:
  map_type handlers;
};

#if __cplusplus >= 201703L
/// An optional floating-point number within the bounds.
template <typename T>
inline OptionHandler createOptionalDoubleHandler(
    std::optional<T> &output,
    double lowerBound = std::numeric_limits<double>::lowest(),
    bool lowerBoundIsInclusive = true,
    double upperBound = std::numeric_limits<double>::max(),
    bool upperBoundIsInclusive = true) {
  return OptionHandler([&output, lowerBound, lowerBoundIsInclusive, upperBound,
                        upperBoundIsInclusive](poplar::StringRef value) {
    T v{};
    OptionHandler::createWithDouble(v, lowerBound, lowerBoundIsInclusive,
                                    upperBound, upperBoundIsInclusive)
        .parseValue(value);
    output = v;
  });
}
#endif

} // namespace poplibs

#endif // POPUTIL_OPTIONPARSING_HPP
