// Values as error messages print them.
#ifndef POPART_SRC_CORE_DESCRIBE_HPP
#define POPART_SRC_CORE_DESCRIBE_HPP

#include <popart/tensorinfo.hpp>

#include <sstream>
#include <string>

namespace popart {

// A tensor's type and shape, e.g. "(FLOAT, [2 3])".
inline std::string describe(const TensorInfo &info) {
  std::ostringstream s;
  s << info;
  return s.str();
}

} // namespace popart

#endif
