// A full disk, as the fault-injection tests make one: RLIMIT_FSIZE.
#ifndef SDK_TESTS_SUPPORT_FILESIZELIMIT_HPP
#define SDK_TESTS_SUPPORT_FILESIZELIMIT_HPP

#include <catch2/catch.hpp>

#include <csignal>
#include <sys/resource.h>

namespace sdktest {

// While it lives, writes to files past `bytes` fail with EFBIG, as on a
// full disk; the processes this one starts (popc, the host compiler)
// inherit the limit.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    oldHandler = ::signal(SIGXFSZ, SIG_IGN);
    ::getrlimit(RLIMIT_FSIZE, &old);
    rlimit limited = old;
    limited.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, oldHandler);
  }
  FileSizeLimit(const FileSizeLimit &) = delete;
  FileSizeLimit &operator=(const FileSizeLimit &) = delete;

private:
  rlimit old{};
  void (*oldHandler)(int) = nullptr;
};

} // namespace sdktest

#endif
