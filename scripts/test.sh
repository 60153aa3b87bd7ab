#!/usr/bin/env bash
# The second command of the README: builds what is missing and runs every
# test (unit, multi-device, tutorial output and install tests) with ctest,
# then the clang parts, each in the order below and each only if it still
# fits the budget:
#   1. in the clang build with AddressSanitizer and UndefinedBehaviorSanitizer
#      (build-fuzz), the fuzzing harnesses for a bounded time (scripts/fuzz.sh);
#   2. in the clang build with ThreadSanitizer (build-tsan), the tests
#      labelled tsan (scripts/tsan.sh);
#   3. there, with PopLibs and PopART built too, the ONNX conformance cases
#      labelled tsan_conformance;
#   4. back in build-fuzz, the tests labelled sanitize (scripts/sanitize.sh);
#   5. there, the Python tests and the tutorials' output tests (label
#      sanitize_extra);
#   6. last, there, the compatibility tests: that build's SDK installed,
#      programs built against it with the original's command lines and run
#      under the same sanitizers (label sanitize_compat).
#
#   SDK_RUN_FUZZ=0           leave out the clang parts (sanitizers and fuzzers)
#   SDK_TEST_BUDGET_SECONDS  the time the whole command may take (default
#                            2640, a minute inside CI's 45): each clang part starts
#                            only if its measured cost (docs/reliability.md,
#                            Cost in CI) still fits, and says so when it
#                            does not
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "${SDK_TEST_JOBS:-$(nproc)}" "$@"
[ "${SDK_RUN_FUZZ:-1}" = 1 ] || exit 0

budget=${SDK_TEST_BUDGET_SECONDS:-2640}
# fits <seconds> <what>: whether a part of that cost still fits the budget;
# says so when it does not.
fits() {
  local elapsed=$(( $(date +%s) - start ))
  if [ $(( elapsed + $1 )) -gt "$budget" ]; then
    echo "test: NOT RUN: $2: ${elapsed} s have gone, and their $1 s would" \
         "pass the budget of ${budget} s (SDK_TEST_BUDGET_SECONDS)"
    return 1
  fi
}

# docs/reliability.md, Cost in CI
fuzz_part=${SDK_FUZZ_PART_SECONDS:-780}
tsan_part=${SDK_TSAN_PART_SECONDS:-300}
tsan_conformance_part=${SDK_TSAN_CONFORMANCE_PART_SECONDS:-600}
sanitize_part=${SDK_SANITIZE_PART_SECONDS:-1050}
sanitize_extra_part=${SDK_SANITIZE_EXTRA_PART_SECONDS:-600}
sanitize_compat_part=${SDK_SANITIZE_COMPAT_PART_SECONDS:-600}
if fits "$fuzz_part" "the fuzzers (scripts/fuzz.sh)"; then
  SDK_FUZZ_SECONDS=${SDK_FUZZ_SECONDS:-20} scripts/fuzz.sh
fi
if fits "$tsan_part" "the ThreadSanitizer tests (scripts/tsan.sh)"; then
  scripts/tsan.sh
fi
if fits "$tsan_conformance_part" "the ONNX conformance cases under ThreadSanitizer (SDK_TSAN_LABEL=tsan_conformance scripts/tsan.sh)"; then
  SDK_TSAN_LABEL=tsan_conformance scripts/tsan.sh
fi
if fits "$sanitize_part" "the sanitizer tests (scripts/sanitize.sh)"; then
  scripts/sanitize.sh
fi
if fits "$sanitize_extra_part" "the Python tests and tutorials under ASan and UBSan (SDK_SANITIZE_LABEL=sanitize_extra scripts/sanitize.sh)"; then
  SDK_SANITIZE_LABEL=sanitize_extra scripts/sanitize.sh
fi
if fits "$sanitize_compat_part" "the compatibility tests under ASan and UBSan (SDK_SANITIZE_LABEL=sanitize_compat scripts/sanitize.sh)"; then
  SDK_SANITIZE_LABEL=sanitize_compat scripts/sanitize.sh
fi
echo "test: all parts done in $(( $(date +%s) - start )) s"
