#include "core/TypeInfo.hpp"

#include <ostream>

namespace poplar {

const Type BOOL = TypeBuilder::make(TypeId::Bool);
const Type CHAR = TypeBuilder::make(TypeId::Char);
const Type UNSIGNED_CHAR = TypeBuilder::make(TypeId::UnsignedChar);
const Type SIGNED_CHAR = TypeBuilder::make(TypeId::SignedChar);
const Type UNSIGNED_SHORT = TypeBuilder::make(TypeId::UnsignedShort);
const Type SHORT = TypeBuilder::make(TypeId::Short);
const Type UNSIGNED_INT = TypeBuilder::make(TypeId::UnsignedInt);
const Type INT = TypeBuilder::make(TypeId::Int);
const Type UNSIGNED_LONG = TypeBuilder::make(TypeId::UnsignedLong);
const Type LONG = TypeBuilder::make(TypeId::Long);
const Type UNSIGNED_LONGLONG = TypeBuilder::make(TypeId::UnsignedLongLong);
const Type LONGLONG = TypeBuilder::make(TypeId::LongLong);
const Type QUARTER = TypeBuilder::make(TypeId::Quarter);
const Type HALF = TypeBuilder::make(TypeId::Half);
const Type FLOAT = TypeBuilder::make(TypeId::Float);
const Type DOUBLE = TypeBuilder::make(TypeId::Double);

namespace {

struct TypeFacts {
  const char *name;
  std::size_t size;
  bool floating;
  bool isSignedType;
  bool onDevice;
};

const TypeFacts &facts(const Type &t) {
  static const TypeFacts table[] = {
      {"<invalid>", 0, false, false, false},
      {"bool", 1, false, false, true},
      {"char", 1, false, true, true},
      {"unsigned char", 1, false, false, true},
      {"signed char", 1, false, true, true},
      {"unsigned short", 2, false, false, true},
      {"short", 2, false, true, true},
      {"unsigned int", 4, false, false, true},
      {"int", 4, false, true, true},
      {"unsigned long", 8, false, false, false},
      {"long", 8, false, true, false},
      {"unsigned long long", 8, false, false, true},
      {"long long", 8, false, true, true},
      {"quarter", 1, true, true, true},
      {"half", 2, true, true, true},
      {"float", 4, true, true, true},
      {"double", 8, true, true, false},
  };
  return table[static_cast<std::size_t>(typeId(t))];
}

} // namespace

StringRef Type::toString() const { return facts(*this).name; }

std::ostream &operator<<(std::ostream &os, const Type &t) {
  return os << t.toString();
}

std::size_t typeSize(const Type &t) { return facts(t).size; }
bool isFloatingPoint(const Type &t) { return facts(t).floating; }
bool isIntegral(const Type &t) {
  return typeId(t) != TypeId::Invalid && !facts(t).floating;
}
bool isSigned(const Type &t) { return facts(t).isSignedType; }
bool isDeviceType(const Type &t) { return facts(t).onDevice; }

} // namespace poplar
