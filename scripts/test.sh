#!/usr/bin/env bash
# The second command of the README: builds what is missing and runs every
# test (unit, multi-device, tutorial output and install tests) with ctest,
# then, in the clang build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-fuzz), the tests labelled sanitize (scripts/sanitize.sh) and the
# fuzzing harnesses for a bounded time (scripts/fuzz.sh) when SDK_RUN_FUZZ=1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "${SDK_TEST_JOBS:-$(nproc)}" "$@"
if [ "${SDK_RUN_FUZZ:-0}" = 1 ]; then
  scripts/sanitize.sh
  scripts/fuzz.sh
fi
