#ifndef POPLAR_TYPE_HPP
#define POPLAR_TYPE_HPP

#include <poplar/StringRef.hpp>
#include <poplar/poplar_export.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace poplar {

struct TypeBuilder;

/// An element type of data on the device (FLOAT, HALF, INT, ...). Types are
/// compared by identity; their sizes come from the Target
/// (Target::getTypeSize) because they are a property of the device.
class POPLAR_API Type {
public:
  constexpr Type() = default;

  /// The name of the type as it appears in vertex names ("float", "half",
  /// "unsigned int", ...).
  StringRef toString() const;
  std::size_t hash() const { return id; }

  friend bool operator==(const Type &a, const Type &b) { return a.id == b.id; }
  friend bool operator!=(const Type &a, const Type &b) { return a.id != b.id; }
  friend bool operator<(const Type &a, const Type &b) { return a.id < b.id; }

private:
  friend struct TypeBuilder;
  constexpr explicit Type(std::uint8_t typeId) : id(typeId) {}
  std::uint8_t id = 0;
};

POPLAR_API std::ostream &operator<<(std::ostream &os, const Type &t);

extern POPLAR_API const Type BOOL;
extern POPLAR_API const Type CHAR;
extern POPLAR_API const Type UNSIGNED_CHAR;
extern POPLAR_API const Type SIGNED_CHAR;
extern POPLAR_API const Type UNSIGNED_SHORT;
extern POPLAR_API const Type SHORT;
extern POPLAR_API const Type UNSIGNED_INT;
extern POPLAR_API const Type INT;
extern POPLAR_API const Type UNSIGNED_LONG;
extern POPLAR_API const Type LONG;
extern POPLAR_API const Type UNSIGNED_LONGLONG;
extern POPLAR_API const Type LONGLONG;
extern POPLAR_API const Type QUARTER;
extern POPLAR_API const Type HALF;
extern POPLAR_API const Type FLOAT;
/// A host-only type: usable for host data given to the API, never as the
/// element type of a tensor on the IPU.
extern POPLAR_API const Type DOUBLE;

/// Maps a host C++ type to the device type that holds the same values.
template <class T> struct equivalent_device_type {};
#define POPLAR_EQUIVALENT_DEVICE_TYPE(HOST, DEVICE)                            \
  template <> struct equivalent_device_type<HOST> {                            \
    const Type &value = DEVICE;                                                \
  };
POPLAR_EQUIVALENT_DEVICE_TYPE(bool, BOOL)
POPLAR_EQUIVALENT_DEVICE_TYPE(char, CHAR)
POPLAR_EQUIVALENT_DEVICE_TYPE(signed char, SIGNED_CHAR)
POPLAR_EQUIVALENT_DEVICE_TYPE(unsigned char, UNSIGNED_CHAR)
POPLAR_EQUIVALENT_DEVICE_TYPE(short, SHORT)
POPLAR_EQUIVALENT_DEVICE_TYPE(unsigned short, UNSIGNED_SHORT)
POPLAR_EQUIVALENT_DEVICE_TYPE(int, INT)
POPLAR_EQUIVALENT_DEVICE_TYPE(unsigned, UNSIGNED_INT)
POPLAR_EQUIVALENT_DEVICE_TYPE(long, LONG)
POPLAR_EQUIVALENT_DEVICE_TYPE(unsigned long, UNSIGNED_LONG)
POPLAR_EQUIVALENT_DEVICE_TYPE(long long, LONGLONG)
POPLAR_EQUIVALENT_DEVICE_TYPE(unsigned long long, UNSIGNED_LONGLONG)
POPLAR_EQUIVALENT_DEVICE_TYPE(float, FLOAT)
POPLAR_EQUIVALENT_DEVICE_TYPE(double, DOUBLE)
POPLAR_EQUIVALENT_DEVICE_TYPE(long double, DOUBLE)
#undef POPLAR_EQUIVALENT_DEVICE_TYPE

} // namespace poplar

namespace std {
template <> struct hash<poplar::Type> {
  std::size_t operator()(const poplar::Type &t) const { return t.hash(); }
};
} // namespace std

#endif // POPLAR_TYPE_HPP
