#ifndef POPLAR_OPTIONFLAGS_HPP
#define POPLAR_OPTIONFLAGS_HPP

#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>
#include <poplar/poplar_export.hpp>

#include <initializer_list>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>

namespace poplar {

/// A set of string options, as taken by Engine, the PopLibs operations and
/// the device factories. Keys are unique; setting a key again replaces its
/// value.
class POPLAR_API OptionFlags {
public:
  using OptionFlag = std::pair<const std::string, std::string>;
  using initializer_list = std::initializer_list<OptionFlag>;
  using map_type = std::map<std::string, std::string>;
  using const_iterator = map_type::const_iterator;

  OptionFlags() = default;
  OptionFlags(initializer_list flags);

  void set(StringRef option, StringRef value);
  void set(initializer_list flags);
  /// The value of an option; throws poplar::invalid_option if it is unset.
  StringRef at(StringRef option) const;
  const_iterator find(StringRef option) const;
  bool contains(StringRef option) const { return find(option) != end(); }
  void remove(StringRef option);
  void clear() { flags.clear(); }
  bool empty() const { return flags.empty(); }
  std::size_t size() const { return flags.size(); }

  const_iterator begin() const { return flags.begin(); }
  const_iterator end() const { return flags.end(); }

  friend bool operator==(const OptionFlags &a, const OptionFlags &b) {
    return a.flags == b.flags;
  }
  friend bool operator!=(const OptionFlags &a, const OptionFlags &b) {
    return !(a == b);
  }

private:
  map_type flags;
};

/// Prints the flags as a JSON object.
POPLAR_API std::ostream &operator<<(std::ostream &os, const OptionFlags &flags);
/// Reads a JSON object of string (or number or boolean) values into flags;
/// throws poplar::parse_error on malformed input.
POPLAR_API void readJSON(std::istream &is, OptionFlags &flags);
POPLAR_API void readJSON(StringRef json, OptionFlags &flags);

} // namespace poplar

#endif // POPLAR_OPTIONFLAGS_HPP
