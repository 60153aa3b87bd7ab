// Facts about each element type that the library needs and users do not:
// size on the device, whether it is a floating point or signed type.
#ifndef POPLAR_SRC_CORE_TYPEINFO_HPP
#define POPLAR_SRC_CORE_TYPEINFO_HPP

#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>

namespace poplar {

enum class TypeId : std::uint8_t {
  Invalid,
  Bool,
  Char,
  UnsignedChar,
  SignedChar,
  UnsignedShort,
  Short,
  UnsignedInt,
  Int,
  UnsignedLong,
  Long,
  UnsignedLongLong,
  LongLong,
  Quarter,
  Half,
  Float,
  Double,
};

struct TypeBuilder {
  static constexpr Type make(TypeId id) {
    return Type(static_cast<std::uint8_t>(id));
  }
  static constexpr TypeId id(const Type &t) { return static_cast<TypeId>(t.id); }
};

inline TypeId typeId(const Type &t) { return TypeBuilder::id(t); }

/// Bytes one element occupies (on the host for host-only types).
std::size_t typeSize(const Type &t);
bool isFloatingPoint(const Type &t);
bool isIntegral(const Type &t);
bool isSigned(const Type &t);
/// True for types a tensor on the device may have.
bool isDeviceType(const Type &t);

} // namespace poplar

#endif // POPLAR_SRC_CORE_TYPEINFO_HPP
