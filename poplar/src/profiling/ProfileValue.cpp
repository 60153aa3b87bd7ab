// ProfileValue: a tagged union of the five JSON-like kinds, and its JSON and
// CBOR encodings (through nlohmann_json).
#include <poplar/ProfileValue.hpp>

#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <ostream>

namespace poplar {
namespace {

const char *kindName(ProfileValue::Type t) {
  switch (t) {
  case ProfileValue::Type::STRING:
    return "a string";
  case ProfileValue::Type::NUMBER:
    return "a number";
  case ProfileValue::Type::BOOL_:
    return "a boolean";
  case ProfileValue::Type::VECTOR:
    return "a vector";
  case ProfileValue::Type::MAP:
    return "a map";
  }
  return "unknown";
}

[[noreturn]] void wrongKind(ProfileValue::Type actual, const char *wanted) {
  throw poplar_error(std::string("ProfileValue: the value is ") +
                     kindName(actual) + ", not " + wanted);
}

// Whole numbers within the exactly representable range print as integers.
nlohmann::json toJson(const ProfileValue &v) {
  switch (v.type()) {
  case ProfileValue::Type::STRING:
    return v.asString();
  case ProfileValue::Type::BOOL_:
    return v.asBool();
  case ProfileValue::Type::NUMBER: {
    const double d = v.asDouble();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.007199254740992e15) {
      if (d >= 0)
        return static_cast<std::uint64_t>(d);
      return static_cast<std::int64_t>(d);
    }
    return d;
  }
  case ProfileValue::Type::VECTOR: {
    nlohmann::json a = nlohmann::json::array();
    for (const auto &e : v.asVector())
      a.push_back(toJson(e));
    return a;
  }
  case ProfileValue::Type::MAP: {
    nlohmann::json o = nlohmann::json::object();
    for (const auto &[key, e] : v.asMap())
      o[key] = toJson(e);
    return o;
  }
  }
  return nullptr;
}

} // namespace

ProfileValue::ProfileValue() : kind(Type::MAP), map(new Map()) {}
ProfileValue::ProfileValue(String s)
    : kind(Type::STRING), string(new String(std::move(s))) {}
ProfileValue::ProfileValue(const char *s)
    : kind(Type::STRING), string(new String(s ? s : "")) {}
ProfileValue::ProfileValue(Vector v)
    : kind(Type::VECTOR), vector(new Vector(std::move(v))) {}
ProfileValue::ProfileValue(Map m) : kind(Type::MAP), map(new Map(std::move(m))) {}
ProfileValue::ProfileValue(Boolean b) : kind(Type::BOOL_), boolean(b) {}
ProfileValue::ProfileValue(Number n) : kind(Type::NUMBER), number(n) {}

ProfileValue::ProfileValue(const ProfileValue &other) : kind(Type::NUMBER), number(0) {
  copyFrom(other);
}

ProfileValue::ProfileValue(ProfileValue &&other) noexcept
    : kind(Type::NUMBER), number(0) {
  takeFrom(other);
}

// Takes other's contents, leaving it a number, which owns nothing.
void ProfileValue::takeFrom(ProfileValue &other) noexcept {
  kind = other.kind;
  switch (kind) {
  case Type::NUMBER:
    number = other.number;
    break;
  case Type::BOOL_:
    boolean = other.boolean;
    break;
  case Type::STRING:
    string = other.string;
    break;
  case Type::VECTOR:
    vector = other.vector;
    break;
  case Type::MAP:
    map = other.map;
    break;
  }
  other.kind = Type::NUMBER;
  other.number = 0;
}

ProfileValue &ProfileValue::operator=(const ProfileValue &other) {
  if (this != &other) {
    ProfileValue copy(other);
    *this = std::move(copy);
  }
  return *this;
}

ProfileValue &ProfileValue::operator=(ProfileValue &&other) noexcept {
  if (this != &other) {
    destroy();
    takeFrom(other);
  }
  return *this;
}

ProfileValue::~ProfileValue() { destroy(); }

void ProfileValue::destroy() noexcept {
  switch (kind) {
  case Type::STRING:
    delete string;
    break;
  case Type::VECTOR:
    delete vector;
    break;
  case Type::MAP:
    delete map;
    break;
  default:
    break;
  }
  kind = Type::NUMBER;
  number = 0;
}

void ProfileValue::copyFrom(const ProfileValue &other) {
  switch (other.kind) {
  case Type::NUMBER:
    number = other.number;
    break;
  case Type::BOOL_:
    boolean = other.boolean;
    break;
  case Type::STRING:
    string = new String(*other.string);
    break;
  case Type::VECTOR:
    vector = new Vector(*other.vector);
    break;
  case Type::MAP:
    map = new Map(*other.map);
    break;
  }
  kind = other.kind;
}

const ProfileValue::String &ProfileValue::asString() const {
  if (kind != Type::STRING)
    wrongKind(kind, "a string");
  return *string;
}

bool ProfileValue::asBool() const {
  if (kind != Type::BOOL_)
    wrongKind(kind, "a boolean");
  return boolean;
}

double ProfileValue::asDouble() const {
  if (kind != Type::NUMBER)
    wrongKind(kind, "a number");
  return number;
}

std::int64_t ProfileValue::asInt() const {
  const double d = asDouble();
  if (d != std::floor(d) || d < -9.2233720368547758e18 || d >= 9.2233720368547758e18)
    throw poplar_error("ProfileValue: " + std::to_string(d) +
                       " is not a whole number in the range of int64");
  return static_cast<std::int64_t>(d);
}

std::uint64_t ProfileValue::asUint() const {
  const double d = asDouble();
  if (d != std::floor(d) || d < 0 || d >= 1.8446744073709552e19)
    throw poplar_error("ProfileValue: " + std::to_string(d) +
                       " is not a whole number in the range of uint64");
  return static_cast<std::uint64_t>(d);
}

const ProfileValue::Vector &ProfileValue::asVector() const {
  if (kind != Type::VECTOR)
    wrongKind(kind, "a vector");
  return *vector;
}

ProfileValue::Vector &ProfileValue::asVector() {
  if (kind != Type::VECTOR)
    wrongKind(kind, "a vector");
  return *vector;
}

const ProfileValue::Map &ProfileValue::asMap() const {
  if (kind != Type::MAP)
    wrongKind(kind, "a map");
  return *map;
}

ProfileValue::Map &ProfileValue::asMap() {
  if (kind != Type::MAP)
    wrongKind(kind, "a map");
  return *map;
}

const ProfileValue &ProfileValue::operator[](StringRef key) const {
  const auto &m = asMap();
  auto it = m.find(key.str());
  if (it == m.end())
    throw poplar_error("ProfileValue: the map has no key '" + key.str() + "'");
  return it->second;
}

const ProfileValue &ProfileValue::at(std::size_t index) const {
  const auto &v = asVector();
  if (index >= v.size())
    throw index_error("ProfileValue: index " + std::to_string(index) +
                      " is out of range (the vector has " +
                      std::to_string(v.size()) + " elements)");
  return v[index];
}

const ProfileValue *ProfileValue::getOrNull(StringRef key) const {
  if (kind != Type::MAP)
    return nullptr;
  auto it = map->find(key.str());
  return it == map->end() ? nullptr : &it->second;
}

std::size_t ProfileValue::size() const {
  switch (kind) {
  case Type::STRING:
    return string->size();
  case Type::VECTOR:
    return vector->size();
  case Type::MAP:
    return map->size();
  default:
    return 0;
  }
}

std::vector<std::uint64_t> ProfileValue::toUintVector() const {
  std::vector<std::uint64_t> out;
  out.reserve(size());
  for (const auto &e : asVector())
    out.push_back(e.asUint());
  return out;
}

double ProfileValue::sumDouble() const {
  double sum = 0;
  for (const auto &e : asVector())
    sum += e.asDouble();
  return sum;
}

std::int64_t ProfileValue::sumInt() const {
  std::int64_t sum = 0;
  for (const auto &e : asVector())
    sum += e.asInt();
  return sum;
}

std::uint64_t ProfileValue::sumUint() const {
  std::uint64_t sum = 0;
  for (const auto &e : asVector())
    sum += e.asUint();
  return sum;
}

std::int64_t ProfileValue::sum2DInt() const {
  std::int64_t sum = 0;
  for (const auto &e : asVector())
    sum += e.sumInt();
  return sum;
}

std::uint64_t ProfileValue::sum2DUint() const {
  std::uint64_t sum = 0;
  for (const auto &e : asVector())
    sum += e.sumUint();
  return sum;
}

bool operator==(const ProfileValue &a, const ProfileValue &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case ProfileValue::Type::NUMBER:
    return a.number == b.number;
  case ProfileValue::Type::BOOL_:
    return a.boolean == b.boolean;
  case ProfileValue::Type::STRING:
    return *a.string == *b.string;
  case ProfileValue::Type::VECTOR:
    return *a.vector == *b.vector;
  case ProfileValue::Type::MAP:
    return *a.map == *b.map;
  }
  return false;
}

void serializeToJSON(std::ostream &out, const ProfileValue &value,
                     bool prettyPrint) {
  const nlohmann::json j = toJson(value);
  out << (prettyPrint ? j.dump(2) : j.dump());
  if (prettyPrint)
    out << '\n';
}

void serializeToCBOR(std::ostream &out, const ProfileValue &value) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(toJson(value));
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

} // namespace poplar
