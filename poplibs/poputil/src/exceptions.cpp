#include <poputil/exceptions.hpp>

namespace poputil {

poplibs_error::poplibs_error(const std::string &message)
    : std::runtime_error(message), type("poplibs_error") {}
poplibs_error::poplibs_error(const char *message)
    : poplibs_error(std::string(message)) {}

} // namespace poputil
