// nonstd::any, used by attribute maps of the builder (custom ops, scoped
// attributes). It is Boost's any, which programs compiled as C++14 and the
// library compiled as C++17 share (std::any is C++17 only); any_cast of a
// pointer gives nullptr for another type, as with std::any.
#ifndef POPART_VENDORED_ANY_HPP
#define POPART_VENDORED_ANY_HPP

#include <boost/any.hpp>

namespace nonstd {
using boost::any;
using boost::any_cast;
using boost::bad_any_cast;
} // namespace nonstd

#endif
