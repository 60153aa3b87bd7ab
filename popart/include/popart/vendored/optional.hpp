// nonstd::optional, the spelling the original's builder methods use for
// optional ONNX attributes. It is Boost's optional, which programs compiled
// as C++14 and the library compiled as C++17 share (std::optional is
// C++17 only): `if (x)`, `*x`, `x.value()`, `x.has_value()` and
// nonstd::nullopt work as with std::optional.
#ifndef POPART_VENDORED_OPTIONAL_HPP
#define POPART_VENDORED_OPTIONAL_HPP

#include <boost/none.hpp>
#include <boost/optional.hpp>

namespace nonstd {
using boost::optional;
using nullopt_t = boost::none_t;
const nullopt_t nullopt = boost::none;
} // namespace nonstd

#endif
