#include <popops/Expr.hpp>

#include "ExprOpInfo.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <ostream>
#include <sstream>

namespace popops {
namespace expr {
namespace {

void newline(std::ostream &os, unsigned indent, bool prettyPrint) {
  if (prettyPrint)
    os << '\n' << std::string(indent * 2, ' ');
  else
    os << ' ';
}

// Name(arg, arg...) with the operands printed one level deeper.
void printOperation(std::ostream &os, const char *name,
                    std::initializer_list<const Expr *> args, unsigned indent,
                    bool prettyPrint) {
  os << name << '(';
  bool first = true;
  for (const Expr *arg : args) {
    if (!first)
      os << ',';
    if (prettyPrint)
      newline(os, indent + 1, true);
    else if (!first)
      os << ' ';
    arg->print(os, indent + 1, prettyPrint);
    first = false;
  }
  os << ')';
}

std::string lowerName(const char *name) {
  std::string s = name;
  for (auto &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

Expr::~Expr() = default;

std::ostream &operator<<(std::ostream &os, const Expr &expr) {
  expr.print(os, 0, false);
  return os;
}

bool deepEquals(const Expr &a, const Expr &b) { return a.deepEquals(b); }

// Const

Const::Const(const Const &other)
    : Expr(other), type(other.type), storage(other.storage) {
  setData(other.data.get(), other.size);
}

Const &Const::operator=(const Const &other) {
  if (this != &other) {
    Expr::operator=(other);
    type = other.type;
    storage = other.storage;
    setData(other.data.get(), other.size);
  }
  return *this;
}

void Const::setData(const void *bytes, std::size_t n) {
  size = n;
  data.reset(new char[n]);
  std::memcpy(data.get(), bytes, n);
}

double Const::getDataAsDouble() const {
  switch (storage) {
  case Storage::Floating:
    if (size == sizeof(float)) {
      float f;
      std::memcpy(&f, data.get(), sizeof f);
      return f;
    } else {
      double d;
      std::memcpy(&d, data.get(), sizeof d);
      return d;
    }
  case Storage::Signed:
    return static_cast<double>(
        static_cast<std::int64_t>(getDataForUnsignedIntegral()));
  case Storage::Unsigned:
    return static_cast<double>(getDataForUnsignedIntegral());
  }
  return 0;
}

std::uint64_t Const::getDataForUnsignedIntegral() const {
  if (storage == Storage::Floating) {
    // Saturating: a float constant beyond 64 bits (Clip's default bound,
    // FLT_MAX) or NaN has no integer value to convert exactly.
    const double d = getDataAsDouble();
    if (std::isnan(d))
      return 0;
    if (d < 0)
      return d <= -0x1p63 ? std::uint64_t(1) << 63
                          : static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
    return d >= 0x1p64 ? ~std::uint64_t(0) : static_cast<std::uint64_t>(d);
  }
  // Little-endian: the low bytes first; sign-extend signed values.
  std::uint64_t value = 0;
  std::memcpy(&value, data.get(), size);
  if (storage == Storage::Signed && size < 8 && (value >> (size * 8 - 1)) & 1u)
    value |= ~std::uint64_t(0) << (size * 8);
  return value;
}

std::string Const::printValue() const {
  std::ostringstream os;
  switch (storage) {
  case Storage::Floating: {
    // The shortest decimal that reads back as the stored value.
    const double value = getDataAsDouble();
    const bool single = size == sizeof(float);
    char buffer[40];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
      const double back = std::strtod(buffer, nullptr);
      if (single ? static_cast<float>(back) == static_cast<float>(value)
                 : back == value)
        break;
    }
    os << buffer;
    break;
  }
  case Storage::Signed:
    os << static_cast<std::int64_t>(getDataForUnsignedIntegral());
    break;
  case Storage::Unsigned:
    if (type == poplar::BOOL)
      os << (getDataForUnsignedIntegral() ? "true" : "false");
    else
      os << getDataForUnsignedIntegral();
    break;
  }
  return os.str();
}

std::unique_ptr<Expr> Const::clone() const {
  return std::make_unique<Const>(*this);
}

std::string Const::name(const std::vector<poplar::Tensor> &) const {
  std::string s = printValue();
  for (auto &c : s)
    if (c == '.' || c == '-' || c == '+')
      c = '_';
  return s;
}

bool Const::deepEquals(const Expr &other) const {
  const Const *o = other.getAs<Const>();
  return o && o->type == type && o->storage == storage && o->size == size &&
         std::memcmp(o->data.get(), data.get(), size) == 0;
}

void Const::print(std::ostream &os, unsigned, bool) const {
  os << (type == poplar::HALF ? "ConstHalf(" : "Const(") << printValue() << ')';
}

// Cast

std::unique_ptr<Expr> Cast::clone() const {
  return std::make_unique<Cast>(*this);
}

std::string Cast::name(const std::vector<poplar::Tensor> &inputs) const {
  std::string type = bType.toString().str();
  for (auto &c : type)
    if (c == ' ')
      c = '_';
  return "Cast_" + a->name(inputs) + "_" + type;
}

bool Cast::deepEquals(const Expr &other) const {
  const Cast *o = other.getAs<Cast>();
  return o && o->bType == bType && a->deepEquals(*o->a);
}

void Cast::print(std::ostream &os, unsigned indent, bool prettyPrint) const {
  os << "Cast(";
  if (prettyPrint)
    newline(os, indent + 1, true);
  a->print(os, indent + 1, prettyPrint);
  os << ", " << bType << ')';
}

// PlaceHolder

std::unique_ptr<Expr> PlaceHolder::clone() const {
  return std::make_unique<PlaceHolder>(*this);
}

std::string PlaceHolder::name(const std::vector<poplar::Tensor> &inputs) const {
  if (index >= 1 && index <= inputs.size() && inputs[index - 1].valid())
    return inputs[index - 1].getDebugStr();
  return "_" + std::to_string(index);
}

bool PlaceHolder::deepEquals(const Expr &other) const {
  const PlaceHolder *o = other.getAs<PlaceHolder>();
  return o && o->index == index;
}

void PlaceHolder::print(std::ostream &os, unsigned, bool) const {
  os << '_' << index;
}

// UnaryOp

std::unique_ptr<Expr> UnaryOp::clone() const {
  return std::make_unique<UnaryOp>(*this);
}

std::string UnaryOp::name(const std::vector<poplar::Tensor> &inputs) const {
  return lowerName(popops::detail::opName(type)) + "_" + exprName(inputs);
}

bool UnaryOp::deepEquals(const Expr &other) const {
  const UnaryOp *o = other.getAs<UnaryOp>();
  return o && o->type == type && a->deepEquals(*o->a);
}

void UnaryOp::print(std::ostream &os, unsigned indent, bool prettyPrint) const {
  printOperation(os, popops::detail::opName(type), {a.get()}, indent,
                 prettyPrint);
}

// BinaryOp

std::unique_ptr<Expr> BinaryOp::clone() const {
  return std::make_unique<BinaryOp>(*this);
}

std::string BinaryOp::name(const std::vector<poplar::Tensor> &inputs) const {
  return lowerName(popops::detail::opName(type)) + "_" + exprName(inputs);
}

bool BinaryOp::deepEquals(const Expr &other) const {
  const BinaryOp *o = other.getAs<BinaryOp>();
  return o && o->type == type && a->deepEquals(*o->a) && b->deepEquals(*o->b);
}

void BinaryOp::print(std::ostream &os, unsigned indent,
                     bool prettyPrint) const {
  printOperation(os, popops::detail::opName(type), {a.get(), b.get()}, indent,
                 prettyPrint);
}

// TernaryOp

std::unique_ptr<Expr> TernaryOp::clone() const {
  return std::make_unique<TernaryOp>(*this);
}

std::string TernaryOp::name(const std::vector<poplar::Tensor> &inputs) const {
  return lowerName(popops::detail::opName(type)) + "_" + exprName(inputs);
}

bool TernaryOp::deepEquals(const Expr &other) const {
  const TernaryOp *o = other.getAs<TernaryOp>();
  return o && o->type == type && a->deepEquals(*o->a) && b->deepEquals(*o->b) &&
         c->deepEquals(*o->c);
}

void TernaryOp::print(std::ostream &os, unsigned indent,
                      bool prettyPrint) const {
  printOperation(os, popops::detail::opName(type), {a.get(), b.get(), c.get()},
                 indent, prettyPrint);
}

} // namespace expr
} // namespace popops
