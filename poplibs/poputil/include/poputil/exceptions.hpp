#ifndef POPUTIL_EXCEPTIONS_HPP
#define POPUTIL_EXCEPTIONS_HPP

#include <poputil/poputil_export.hpp>

#include <stdexcept>
#include <string>

namespace poputil {

/// The exception every PopLibs library throws for bad input: the message
/// names the operation and the tensor or type at fault.
struct POPUTIL_API poplibs_error : std::runtime_error {
  std::string type;
  explicit poplibs_error(const std::string &message);
  explicit poplibs_error(const char *message);
};

} // namespace poputil

#endif // POPUTIL_EXCEPTIONS_HPP
