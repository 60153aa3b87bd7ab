#!/usr/bin/env bash
# The second command of the README: builds what is missing and runs every
# test (unit, multi-device, tutorial output and install tests) with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "${SDK_TEST_JOBS:-$(nproc)}" "$@"
