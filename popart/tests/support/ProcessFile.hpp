// Names for files a test writes into its working directory. A test built
// for several targets runs once per target at the same time, so each
// process gets its own name.
#ifndef POPART_TESTS_PROCESSFILE_HPP
#define POPART_TESTS_PROCESSFILE_HPP

#include <string>

#include <unistd.h>

namespace popart_test {

// "<stem>_<pid><extension>", for example "model_1234.onnx".
inline std::string processFile(const std::string &stem,
                               const std::string &extension) {
  return stem + "_" + std::to_string(::getpid()) + extension;
}

} // namespace popart_test

#endif
