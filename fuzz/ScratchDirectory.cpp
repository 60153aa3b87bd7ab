// libFuzzer's initialisation for the harnesses that need nothing more than
// a scratch directory of their own to work in (sdk_fuzz_harness SCRATCH).
#include "FuzzSupport.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::enterScratchDirectory();
  return 0;
}
