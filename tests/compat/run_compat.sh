#!/usr/bin/env bash
# Builds and runs a program against the installed SDK as a user of the
# original does: `source <sdk>/enable.sh`, then the guide's command line.
#   run_compat.sh <sdk prefix> <work dir> <expected output> <build> <run> [files...]
# The files (sources, codelets) are copied into the work dir; <build> and
# <run> are shell command lines run there. What <run> prints (standard
# output, then standard error) must equal the expected file; an expected
# file ending in .regex holds one regular expression per printed line.
# With EXPECT_FAIL=1 in the environment the run must exit non-zero.
set -euo pipefail
sdk=$1 work=$2 expected=$3 build=$4 run=$5
shift 5
rm -rf "$work"
mkdir -p "$work"
for f in "$@"; do cp -r "$f" "$work/"; done
cd "$work"
# shellcheck disable=SC1091
source "$sdk/enable.sh"
echo "+ $build"
eval "$build"
echo "+ $run"
set +e
eval "$run" > "$work/stdout.txt" 2> "$work/stderr.txt"
rc=$?
set -e
cd "$work"
cat stdout.txt stderr.txt > printed.txt
if [ "${EXPECT_FAIL:-0}" = 1 ]; then
  [ "$rc" -ne 0 ] || { echo "FAIL: '$run' succeeded, expected it to fail"; cat printed.txt; exit 1; }
elif [ "$rc" -ne 0 ]; then
  echo "FAIL: '$run' exited with $rc"; cat printed.txt; exit 1
fi
if [[ "$expected" == *.regex ]]; then
  mapfile -t want < "$expected"
  mapfile -t got < printed.txt
  ok=1
  [ "${#want[@]}" -eq "${#got[@]}" ] || ok=0
  for i in "${!want[@]}"; do
    [ $ok = 1 ] || break
    [[ "${got[$i]:-}" =~ ^${want[$i]}$ ]] || ok=0
  done
  [ $ok = 1 ] || { echo "FAIL: printed"; cat printed.txt; echo "expected lines matching"; cat "$expected"; exit 1; }
else
  diff -u "$expected" printed.txt || { echo "FAIL: the output differs"; exit 1; }
fi
echo "ok"
