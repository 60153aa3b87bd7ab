#include <popops/Operation.hpp>

#include <istream>
#include <ostream>
#include <string>
#include <utility>

namespace popops {
namespace {

constexpr std::pair<Operation, const char *> names[] = {
    {Operation::ADD, "ADD"},
    {Operation::MUL, "MUL"},
    {Operation::MIN, "MIN"},
    {Operation::MAX, "MAX"},
    {Operation::LOGICAL_AND, "LOGICAL_AND"},
    {Operation::LOGICAL_OR, "LOGICAL_OR"},
    {Operation::SQUARE_ADD, "SQUARE_ADD"},
    {Operation::LOG_ADD, "LOG_ADD"}};

} // namespace

std::istream &operator>>(std::istream &is, Operation &op) {
  std::string token;
  is >> token;
  for (const auto &[value, name] : names)
    if (token == name) {
      op = value;
      return is;
    }
  is.setstate(std::ios::failbit);
  return is;
}

std::ostream &operator<<(std::ostream &os, const Operation &op) {
  for (const auto &[value, name] : names)
    if (value == op)
      return os << name;
  return os << "Operation(" << static_cast<int>(op) << ")";
}

} // namespace popops
