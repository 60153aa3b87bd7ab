#!/usr/bin/env bash
# The first command of the README: installs the dependencies, builds the
# SDK, installs it into ./install (or $SDK_PREFIX) and runs the quickstart:
# the tutorials, each built from the installed SDK as the user guide shows.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=${SDK_PREFIX:-$root/install}

scripts/install-deps.sh
scripts/build.sh
cmake --install build --prefix "$prefix"

echo
echo "== The SDK is installed in $prefix"
echo "== To use it: source $prefix/enable.sh"
# shellcheck disable=SC1091
source "$prefix/enable.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tutorials=$prefix/share/poplar-sdk/tutorials

echo
echo "== Tutorial 1: programs and variables (IPU Model)"
g++ --std=c++17 "$tutorials/poplar/tut1_variables/complete/tut1_ipu_model_complete.cpp" \
  -lpoplar -o "$work/tut1"
"$work/tut1"
