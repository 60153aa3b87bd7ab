#ifndef POPLAR_PROFILEVALUE_HPP
#define POPLAR_PROFILEVALUE_HPP

#include <poplar/StringRef.hpp>
#include <poplar/poplar_export.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {

/// A JSON-like value, as the graph and execution profiles are made of: a
/// map from strings to values, a vector of values, a string, a number or a
/// boolean. A default-constructed value is an empty map.
class POPLAR_API ProfileValue {
public:
  using String = std::string;
  using Boolean = bool;
  using Number = double;
  using Vector = std::vector<ProfileValue>;
  using Map = std::map<std::string, ProfileValue>;

  enum class Type { STRING, NUMBER, BOOL_, VECTOR, MAP };

  ProfileValue();
  ProfileValue(String s);
  ProfileValue(const char *s);
  ProfileValue(Vector v);
  ProfileValue(Map m);
  ProfileValue(Boolean b);
  ProfileValue(Number n);
  /// Any other arithmetic value is a number.
  template <class T,
            class = typename std::enable_if<std::is_arithmetic<T>::value &&
                                     !std::is_same<T, bool>::value &&
                                     !std::is_same<T, double>::value>::type>
  ProfileValue(T n) : ProfileValue(static_cast<Number>(n)) {}

  ProfileValue(const ProfileValue &other);
  ProfileValue(ProfileValue &&other) noexcept;
  ProfileValue &operator=(const ProfileValue &other);
  ProfileValue &operator=(ProfileValue &&other) noexcept;
  ~ProfileValue();

  Type type() const { return kind; }

  /// The value as the given kind; throws poplar::poplar_error when it is of
  /// another kind (asInt and asUint also when a number is not a whole
  /// number in range).
  const String &asString() const;
  bool asBool() const;
  std::int64_t asInt() const;
  std::uint64_t asUint() const;
  double asDouble() const;
  const Vector &asVector() const;
  const Map &asMap() const;
  Vector &asVector();
  Map &asMap();

  /// The element of a map (throws poplar::poplar_error if absent) or of a
  /// vector (throws poplar::index_error if out of range).
  const ProfileValue &operator[](StringRef key) const;
  const ProfileValue &operator[](const char *key) const {
    return (*this)[StringRef(key)];
  }
  const ProfileValue &operator[](const std::string &key) const {
    return (*this)[StringRef(key)];
  }
  template <class I, class = typename std::enable_if<std::is_integral<I>::value>::type>
  const ProfileValue &operator[](I index) const {
    return at(static_cast<std::size_t>(index));
  }
  const ProfileValue &at(std::size_t index) const;
  const ProfileValue &at(StringRef key) const { return (*this)[key]; }
  /// The element of a map, or nullptr if the key is absent (or this is not
  /// a map).
  const ProfileValue *getOrNull(StringRef key) const;

  /// Elements of a vector or map, characters of a string; 0 otherwise.
  std::size_t size() const;

  /// A vector of numbers as unsigned integers.
  std::vector<std::uint64_t> toUintVector() const;
  /// The sum of a vector of numbers.
  double sumDouble() const;
  std::int64_t sumInt() const;
  std::uint64_t sumUint() const;
  /// The sum of a vector of vectors of numbers.
  std::int64_t sum2DInt() const;
  std::uint64_t sum2DUint() const;

  friend POPLAR_API bool operator==(const ProfileValue &a,
                                    const ProfileValue &b);
  friend bool operator!=(const ProfileValue &a, const ProfileValue &b) {
    return !(a == b);
  }

private:
  void destroy() noexcept;
  void copyFrom(const ProfileValue &other);
  void takeFrom(ProfileValue &other) noexcept;

  Type kind;
  union {
    Number number;
    Boolean boolean;
    String *string;
    Vector *vector;
    Map *map;
  };
};

/// Writes the value as JSON (indented when prettyPrint).
POPLAR_API void serializeToJSON(std::ostream &out, const ProfileValue &value,
                                bool prettyPrint = false);
/// Writes the value as CBOR (RFC 8949).
POPLAR_API void serializeToCBOR(std::ostream &out, const ProfileValue &value);

} // namespace poplar

#endif // POPLAR_PROFILEVALUE_HPP
