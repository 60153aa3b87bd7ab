#!/usr/bin/env bash
# Regenerates docs/onnx_conformance.md: every ONNX backend test case of
# Debian's libonnx-testdata (node, simple, pytorch-converted,
# pytorch-operator) through a popart InferenceSession on the CPU device.
#   scripts/conformance-table.sh [build dir]   (default: build)
# With UPDATE_EXPECTED=1 it also rewrites tests/conformance/expected_pass.txt
# with the cases that pass.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
data=/usr/share/libonnx-testdata/data
runner=$build/tests/conformance/onnx_conformance
[ -x "$runner" ] || { echo "build onnx_conformance first ($runner)" >&2; exit 1; }
mkdir -p docs
args=(--device cpu --jobs "${SDK_TEST_JOBS:-2}" --timeout 120
      --table docs/onnx_conformance.md
      --notes tests/conformance/conformance_notes.md
      --random-cases tests/conformance/random_cases.txt)
if [ "${UPDATE_EXPECTED:-0}" = 1 ]; then
  args+=(--pass-list tests/conformance/expected_pass.txt)
fi
"$runner" "${args[@]}" "$data/node" "$data/simple" \
  "$data/pytorch-converted" "$data/pytorch-operator"
