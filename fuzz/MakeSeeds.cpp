// Writes seeds for the profile harness: the autoReport files (profile.pop,
// debug.cbor) of the tests' small IPU Model program, into the directory
// given as the argument.
#include "SmallReport.hpp"

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <directory>\n", argv[0]);
    return 2;
  }
  sdktest::writeSmallReport(argv[1]);
  return 0;
}
