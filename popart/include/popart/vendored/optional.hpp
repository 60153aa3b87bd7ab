// nonstd::optional, the spelling the original's builder methods use for
// optional ONNX attributes; here it is the standard library's optional.
#ifndef POPART_VENDORED_OPTIONAL_HPP
#define POPART_VENDORED_OPTIONAL_HPP

#include <optional>

namespace nonstd {
using std::nullopt;
using std::nullopt_t;
using std::optional;
} // namespace nonstd

#endif
