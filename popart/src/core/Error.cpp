#include "core/LoggingState.hpp"

#include <popart/error.hpp>
#include <popart/logging.hpp>

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace popart {

error::error(const std::string &what) : std::runtime_error(what) {
  if (logging::isInitialised())
    logging::err("{}", what);
}
error::~error() = default;
internal_error::~internal_error() = default;
runtime_error::~runtime_error() = default;
memory_allocation_err::memory_allocation_err(const std::string &info)
    : error(info) {}
memory_allocation_err::~memory_allocation_err() = default;

ErrorSource getErrorSource(const std::exception &e) {
  if (dynamic_cast<const internal_error *>(&e))
    return ErrorSource::popart_internal;
  if (dynamic_cast<const error *>(&e))
    return ErrorSource::popart;
  if (dynamic_cast<const poputil::poplibs_error *>(&e))
    return ErrorSource::poplibs;
  if (dynamic_cast<const poplar::poplar_error *>(&e))
    return ErrorSource::poplar;
  return ErrorSource::unknown;
}

} // namespace popart
