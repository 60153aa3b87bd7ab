#include "TileWork.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>

using namespace poplar;

namespace popnn {
namespace detail {

std::string describe(const Tensor &t) {
  std::string s = "'" + t.getDebugStr() + "' [";
  const auto shape = t.shape();
  for (std::size_t i = 0; i != shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void checkFloatingPoint(const Tensor &t, const std::string &opName,
                        const std::string &what) {
  const Type type = t.elementType();
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error(opName + ": " + what + " " + describe(t) +
                                 " has element type " + type.toString().str() +
                                 "; FLOAT or HALF expected");
}

void checkSameShape(const Tensor &a, const std::string &aName, const Tensor &b,
                    const std::string &bName, const std::string &opName) {
  if (a.shape() != b.shape())
    throw poputil::poplibs_error(opName + ": " + aName + " " + describe(a) +
                                 " and " + bName + " " + describe(b) +
                                 " must have the same shape");
  if (a.elementType() != b.elementType())
    throw poputil::poplibs_error(
        opName + ": " + aName + " " + describe(a) + " and " + bName + " " +
        describe(b) + " must have the same element type (" +
        a.elementType().toString().str() + " and " +
        b.elementType().toString().str() + ")");
}

} // namespace detail
} // namespace popnn
