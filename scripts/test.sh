#!/usr/bin/env bash
# The second command of the README: builds what is missing and runs every
# test (unit, multi-device, tutorial output and install tests) with ctest,
# then, in the clang build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-fuzz), the tests labelled sanitize (scripts/sanitize.sh) and the
# fuzzing harnesses for a bounded time (scripts/fuzz.sh).
#
#   SDK_RUN_FUZZ=0           leave out the clang part (sanitizers and fuzzers)
#   SDK_TEST_BUDGET_SECONDS  the time the whole command may take (default
#                            2700, CI's 45 minutes): the clang part starts
#                            only if its measured cost (about 15 minutes on
#                            a clean 2-core machine) still fits, and says so
#                            when it does not
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "${SDK_TEST_JOBS:-$(nproc)}" "$@"
[ "${SDK_RUN_FUZZ:-1}" = 1 ] || exit 0

budget=${SDK_TEST_BUDGET_SECONDS:-2700}
clang_part=${SDK_CLANG_PART_SECONDS:-1080} # docs/reliability.md, Cost in CI
elapsed=$(( $(date +%s) - start ))
if [ $(( elapsed + clang_part )) -gt "$budget" ]; then
  echo "test: NOT RUN: the sanitizer tests and fuzzers: ${elapsed} s have" \
       "gone, and their ${clang_part} s would pass the budget of ${budget} s" \
       "(SDK_TEST_BUDGET_SECONDS); run scripts/sanitize.sh and scripts/fuzz.sh"
  exit 0
fi
scripts/sanitize.sh
SDK_FUZZ_SECONDS=${SDK_FUZZ_SECONDS:-20} scripts/fuzz.sh
echo "test: all parts done in $(( $(date +%s) - start )) s"
