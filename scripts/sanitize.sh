#!/usr/bin/env bash
# Runs the tests labelled `sanitize` (cmake/SdkTesting.cmake) in the clang
# build ./build-fuzz, whose libraries are built with AddressSanitizer and
# UndefinedBehaviorSanitizer: any report (a memory error, a leak, undefined
# behaviour) fails the test. Only the programs those tests run are built.
#
#   scripts/sanitize.sh [ctest arguments...]
#
#   SDK_SANITIZE_LABEL=sanitize_extra   the Python tests (in the build's own
#                                       interpreter, sdk_asan_python) and
#                                       the tutorials' output tests instead
#   SDK_SANITIZE_LABEL=sanitize_compat  the compatibility tests instead:
#                                       this build's SDK installed, programs
#                                       built against it as the original's
#                                       guides build them, with the same
#                                       sanitizers (tests/compat)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SDK_BUILD_JOBS:-$(nproc)}

start=$(date +%s)
# shellcheck source=scripts/clang-build.sh
source scripts/clang-build.sh
configure_clang_build
# <label>_tests: the programs those tests run (cmake/SdkTesting.cmake).
label=${SDK_SANITIZE_LABEL:-sanitize}
cmake --build "$clang_build" -j "$jobs" --target "${label}_tests"
echo "sanitize: the programs of $(ctest --test-dir "$clang_build" -N -L "^$label\$" |
  sed -n 's/^Total Tests: //p') tests ($label) built in $(( $(date +%s) - start )) s"

# Every report stops the program with an error; leaks are reported at exit.
# intercept_tls_get_addr=0: clang-14's __tls_get_addr interceptor takes some
# of glibc's dynamic TLS blocks (those of dlopen'ed libraries, such as the
# codelet libraries) for pre-2.25 blocks with a header when their address
# is 16 bytes past a page boundary (1 block in 128), and records a bogus range that LeakSanitizer's tracer then
# reads and dies on (docs/reliability.md). Without the interceptor those
# blocks are ordinary heap blocks reachable from the threads' DTVs, so no
# leak goes unreported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir "$clang_build" -L "^$label\$" --output-on-failure \
  -j "${SDK_TEST_JOBS:-$(nproc)}" --timeout 900 "$@"
echo "sanitize: done in $(( $(date +%s) - start )) s"
