// nonstd::any, used by attribute maps of the builder (custom ops, scoped
// attributes); here it is the standard library's any.
#ifndef POPART_VENDORED_ANY_HPP
#define POPART_VENDORED_ANY_HPP

#include <any>

namespace nonstd {
using std::any;
using std::any_cast;
using std::bad_any_cast;
} // namespace nonstd

#endif
