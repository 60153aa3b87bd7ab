#include "core/ElementConversion.hpp"

#include "core/Half.hpp"
#include "core/TypeInfo.hpp"

#include <poplar/exceptions.hpp>

#include <cstdint>
#include <cstring>

namespace poplar {
namespace {

// Calls f with a value of the C++ type that stores `type`, where HALF is
// represented by a tag so callers convert through float.
struct HalfTag {};

template <class F> decltype(auto) visitType(const Type &type, F &&f) {
  switch (typeId(type)) {
  case TypeId::Bool:
    return f(bool{});
  case TypeId::Char:
    return f(char{});
  case TypeId::UnsignedChar:
    return f((unsigned char){});
  case TypeId::SignedChar:
    return f((signed char){});
  case TypeId::UnsignedShort:
    return f((unsigned short){});
  case TypeId::Short:
    return f(short{});
  case TypeId::UnsignedInt:
    return f(unsigned{});
  case TypeId::Int:
    return f(int{});
  case TypeId::UnsignedLong:
    return f((unsigned long){});
  case TypeId::Long:
    return f(long{});
  case TypeId::UnsignedLongLong:
    return f((unsigned long long){});
  case TypeId::LongLong:
    return f((long long){});
  case TypeId::Half:
    return f(HalfTag{});
  case TypeId::Float:
    return f(float{});
  case TypeId::Double:
    return f(double{});
  case TypeId::Quarter:
  case TypeId::Invalid:
    break;
  }
  throw type_error("Type '" + type.toString().str() +
                   "' has no host representation");
}

template <class D, class S> D castElement(S value) {
  if constexpr (std::is_same_v<D, bool>)
    return value != S{};
  else
    return static_cast<D>(value);
}

template <class T> T load(const void *p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

template <class S, class D>
void convertArray(const void *src, void *dst, std::size_t n) {
  using SrcValue = std::conditional_t<std::is_same_v<S, HalfTag>, float, S>;
  using DstValue = std::conditional_t<std::is_same_v<D, HalfTag>, float, D>;
  constexpr std::size_t srcSize =
      std::is_same_v<S, HalfTag> ? 2 : sizeof(S);
  constexpr std::size_t dstSize =
      std::is_same_v<D, HalfTag> ? 2 : sizeof(D);
  auto *in = static_cast<const unsigned char *>(src);
  auto *out = static_cast<unsigned char *>(dst);
  for (std::size_t i = 0; i != n; ++i) {
    SrcValue value;
    if constexpr (std::is_same_v<S, HalfTag>)
      value = halfToFloat(load<std::uint16_t>(in + i * srcSize));
    else
      value = load<S>(in + i * srcSize);
    DstValue result = castElement<DstValue>(value);
    if constexpr (std::is_same_v<D, HalfTag>) {
      std::uint16_t bits = floatToHalf(result);
      std::memcpy(out + i * dstSize, &bits, 2);
    } else {
      std::memcpy(out + i * dstSize, &result, dstSize);
    }
  }
}

} // namespace

void convertElements(const Type &srcType, const void *src, const Type &dstType,
                     void *dst, std::size_t n) {
  if (srcType == dstType) {
    std::memcpy(dst, src, n * typeSize(srcType));
    return;
  }
  visitType(srcType, [&](auto s) {
    visitType(dstType, [&](auto d) {
      convertArray<decltype(s), decltype(d)>(src, dst, n);
    });
  });
}

double elementAsDouble(const Type &type, const void *element) {
  double value;
  convertElements(type, element, DOUBLE, &value, 1);
  return value;
}

long long elementAsInteger(const Type &type, const void *element) {
  long long value;
  convertElements(type, element, LONGLONG, &value, 1);
  return value;
}

} // namespace poplar
