#include "TestValues.hpp"

#include <limits>
#include <sstream>

using namespace poplar;

namespace popops_test {
namespace {
const double inf = std::numeric_limits<double>::infinity();
const double nan = std::numeric_limits<double>::quiet_NaN();
} // namespace

Values unaryValues(const Type &type) {
  if (type == FLOAT || type == HALF)
    return {-2.5, -1,   -0.5, 0,   0.25, 0.5,  1,  1.5,
            2,    3.75, 10,   100, inf,  -inf, nan};
  if (type == INT)
    return {-2147483648.0, -100, -7, -1, 0, 1, 2, 5, 1000, 2147483647};
  if (type == UNSIGNED_INT)
    return {0, 1, 2, 5, 7, 1000, 2147483648.0, 4294967295.0};
  if (type == SHORT)
    return {-32768, -100, -7, -1, 0, 1, 2, 5, 1000, 32767};
  if (type == UNSIGNED_SHORT)
    return {0, 1, 2, 5, 7, 1000, 32768, 65535};
  if (type == BOOL)
    return {0, 1, 1, 0};
  return {0, 1, 2, 3};
}

Values binaryLhs(const Type &type) {
  if (type == FLOAT || type == HALF)
    return {-3.5, -1, 0, 0.5, 1, 2, 7.25, 100, inf, nan, 6, -6};
  if (type == INT)
    return {-2147483648.0, -100, -7, -1, 0, 1, 5, 1000, 2147483647, 12, -9, 9};
  if (type == UNSIGNED_INT)
    return {0, 1, 5, 7, 1000, 4294967295.0, 2147483648.0, 12, 3, 100, 9, 9};
  if (type == SHORT)
    return {-32768, -100, -7, -1, 0, 1, 5, 1000, 32767, 12, -9, 9};
  if (type == UNSIGNED_SHORT)
    return {0, 1, 5, 7, 1000, 65535, 32768, 12, 3, 100, 9, 9};
  return {0, 0, 1, 1};
}

Values binaryRhs(const Type &type) {
  if (type == FLOAT || type == HALF)
    return {2, -0.5, 3, 0.5, 0, -4, 1.5, 7, 1, 2, -4, 4};
  if (type == INT)
    return {-1, 7, -2, 0, 3, 31, 32, -1, 2, 40, 4, -4};
  if (type == UNSIGNED_INT)
    return {1, 0, 3, 2, 7, 31, 32, 40, 4294967295.0, 5, 4, 9};
  if (type == SHORT)
    return {-1, 7, -2, 0, 3, 15, 16, -1, 2, 40, 4, -4};
  if (type == UNSIGNED_SHORT)
    return {1, 0, 3, 2, 7, 15, 16, 40, 65535, 5, 4, 9};
  return {0, 1, 0, 1};
}

double tolerance(const Type &type) { return type == HALF ? 2e-3 : 1e-5; }

std::string compare(const Values &got, const Values &expected, bool exact,
                    double relTol) {
  std::ostringstream os;
  if (got.size() != expected.size()) {
    os << got.size() << " values, expected " << expected.size();
    return os.str();
  }
  for (std::size_t i = 0; i != got.size(); ++i)
    if (!close(got[i], expected[i], exact, relTol)) {
      os.precision(10);
      os << "element " << i << " is " << got[i] << ", expected " << expected[i];
      return os.str();
    }
  return "";
}

} // namespace popops_test
