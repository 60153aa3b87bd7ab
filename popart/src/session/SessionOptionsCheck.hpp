// The check that every session option set to a value other than its
// default is one this implementation honours; the others are refused with
// a popart::error naming the field and why.
#ifndef POPART_SRC_SESSION_SESSIONOPTIONSCHECK_HPP
#define POPART_SRC_SESSION_SESSIONOPTIONSCHECK_HPP

#include <popart/sessionoptions.hpp>

namespace popart {

void checkSessionOptions(const SessionOptions &options, bool training);

} // namespace popart

#endif
