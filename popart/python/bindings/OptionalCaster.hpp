// Conversions of nonstd::optional (Boost's optional, see
// popart/vendored/optional.hpp) between Python and C++: None is an empty
// optional, any other value the optional's value. pybind11/stl.h has these
// for std::optional only.
#ifndef POPART_PYTHON_OPTIONALCASTER_HPP
#define POPART_PYTHON_OPTIONALCASTER_HPP

#include <popart/vendored/optional.hpp>

#include <pybind11/stl.h>

namespace pybind11 {
namespace detail {

template <typename T>
struct type_caster<boost::optional<T>> : optional_caster<boost::optional<T>> {};

template <> struct type_caster<boost::none_t> : void_caster<boost::none_t> {};

} // namespace detail
} // namespace pybind11

#endif
