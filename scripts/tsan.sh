#!/usr/bin/env bash
# Runs the tests labelled `tsan` (the Engine's vertex execution and copies
# on oneTBB's threads, engines run from several threads, the codelet cache
# shared by threads and processes, the ONNX conformance runner) in the
# clang build ./build-tsan, whose libraries and tests are built with
# ThreadSanitizer: any report fails the test. Only those tests and what
# they need are built.
#
#   scripts/tsan.sh [ctest arguments...]
#
#   SDK_TSAN_LABEL=tsan_conformance   the ONNX conformance runner's cases
#                                     instead (onnx_conformance_IpuModel2),
#                                     which needs PopLibs and PopART built
#                                     with ThreadSanitizer too
#
# scripts/tsan.supp holds the suppressions, each with the reason for it.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SDK_BUILD_JOBS:-$(nproc)}

start=$(date +%s)
# shellcheck source=scripts/clang-build.sh
source scripts/clang-build.sh
configure_tsan_build
# popc compiles the codelets the tests add at run time.
label=${SDK_TSAN_LABEL:-tsan}
mapfile -t targets < <(test_targets "$tsan_build" "$label")
cmake --build "$tsan_build" -j "$jobs" --target popc "${targets[@]}"
echo "tsan: ${#targets[@]} test programs ($label) built in $(( $(date +%s) - start )) s"

# A report makes the program exit with 66 when it ends; the second stack
# of each race is kept in full.
export TSAN_OPTIONS=${TSAN_OPTIONS:-exitcode=66:halt_on_error=0:history_size=4:second_deadlock_stack=1:report_atomic_races=0:suppressions=$PWD/scripts/tsan.supp}
ctest --test-dir "$tsan_build" -L "^$label\$" --output-on-failure \
  -j "${SDK_TEST_JOBS:-$(nproc)}" --timeout 900 "$@"
echo "tsan: done in $(( $(date +%s) - start )) s"
