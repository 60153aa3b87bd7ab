#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/) in ./build-fuzz with clang-14,
# every library instrumented for libFuzzer and built with AddressSanitizer
# and UndefinedBehaviorSanitizer, and runs each harness for a bounded time
# on its seed corpus. Fails if any harness finds a crash, a sanitizer
# report, a leak, a time-out or an input that needs too much memory; the
# input is kept in build-fuzz/fuzz-work/<harness>/ (reproduce with
# `build-fuzz/fuzz/<harness> <file>`).
#
#   scripts/fuzz.sh [harness...]        (default: all of them)
#
#   SDK_FUZZ_SECONDS   time for each harness (default 30)
#   SDK_FUZZ_TIMEOUT   seconds one input may take before it counts as a hang
#                      (default 30; raise it for runs at idle priority)
#   SDK_FUZZ_KEEP=1    keep the corpora of earlier runs and grow them
#   SDK_BUILD_JOBS     build jobs (default: the number of cores)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${SDK_FUZZ_SECONDS:-30}
unit_timeout=${SDK_FUZZ_TIMEOUT:-30}
jobs=${SDK_BUILD_JOBS:-$(nproc)}
all=(fuzz_tensor_view fuzz_options fuzz_codelet_file fuzz_onnx_tensor
     fuzz_onnx_model fuzz_profile fuzz_popc_reflection fuzz_executable)
if [ $# -gt 0 ]; then harnesses=("$@"); else harnesses=("${all[@]}"); fi
onnx_data=/usr/share/libonnx-testdata/data

start=$(date +%s)
# shellcheck source=scripts/clang-build.sh
source scripts/clang-build.sh
configure_clang_build
build=$clang_build
cmake --build "$build" -j "$jobs" --target sdk_fuzzers
echo "fuzz: harnesses built in $(( $(date +%s) - start )) s"

work=$build/fuzz-work
# As in scripts/sanitize.sh: clang-14's __tls_get_addr interceptor can make
# LeakSanitizer's tracer crash at exit once codelet libraries have run on
# several threads (docs/reliability.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-intercept_tls_get_addr=0}
mkdir -p "$work"

# seeds <harness> <dir>: the seed corpus of a harness.
seeds() {
  local h=$1 dir=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  case $h in
    fuzz_options|fuzz_codelet_file)
      cp "fuzz/seeds/${h#fuzz_}"/* "$dir/" ;;
    fuzz_onnx_tensor)
      # One input and output of each ONNX backend node test.
      local n=0
      for f in "$onnx_data"/node/*/test_data_set_0/input_0.pb \
               "$onnx_data"/node/*/test_data_set_0/output_0.pb; do
        if [ $(( n++ % 4 )) -eq 0 ]; then cp "$f" "$dir/$n.pb"; fi
      done ;;
    fuzz_onnx_model)
      # Models that pass the conformance tests: every sixth, by name.
      local n=0 name
      while read -r name; do
        [ -f "$onnx_data/node/$name/model.onnx" ] || continue
        if [ $(( n++ % 6 )) -eq 0 ]; then cp "$onnx_data/node/$name/model.onnx" "$dir/$name.onnx"; fi
      done < <(grep -v '^#' tests/conformance/expected_pass.txt | sed 's,^node/,,')
      ;;
    fuzz_profile)
      "$build/fuzz/fuzz_make_seeds" "$work/reports" > /dev/null 2>&1
      { printf '\0'; cat "$work/reports/profile.pop"; } > "$dir/profile"
      { printf '\1'; cat "$work/reports/debug.cbor"; } > "$dir/debug" ;;
    fuzz_executable)
      # One input for each mode, made by the harness; the whole files
      # (modes 0 and 2) are cut to their first 64 KiB: the decoders behind
      # their checksums are reached through modes 1, 3 and 4.
      SDK_FUZZ_WRITE_SEEDS=$dir "$build/fuzz/fuzz_executable" > /dev/null 2>&1
      for m in 0 2; do
        head -c 65536 "$dir/mode$m" > "$dir/cut$m" && rm "$dir/mode$m"
      done ;;
    fuzz_popc_reflection)
      cp tools/popc/tests/data/*.cpp "$dir/"
      for f in tools/popc/tests/data/errors/*.cpp; do cp "$f" "$dir/error-$(basename "$f")"; done
      cp tutorials/poplar/tut3_vertices/complete/tut3_codelets.cpp "$dir/" ;;
  esac
}

dict() {
  case $1 in
    fuzz_options) echo "-dict=$root/fuzz/dict/options.dict" ;;
    fuzz_onnx_model) echo "-dict=$root/fuzz/dict/onnx.dict" ;;
    fuzz_popc_reflection) echo "-dict=$root/fuzz/dict/codelet.dict" ;;
  esac
}

# stat <log> <name>: a final statistic of libFuzzer's.
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -n 1; }

failed=0
summary=()
for h in "${harnesses[@]}"; do
  dir=$work/$h
  mkdir -p "$dir"
  seeds "$h" "$dir/seeds"
  [ "${SDK_FUZZ_KEEP:-0}" = 1 ] || rm -rf "$dir/corpus"
  mkdir -p "$dir/corpus"
  log=$dir/run.log
  echo "fuzz: $h for ${seconds} s"
  status=0
  # The output of the code under test is closed (-close_fd_mask: stdout,
  # and popc's diagnostics on stderr too); libFuzzer's and the sanitizers'
  # reports, and the harnesses' own messages, still reach the log.
  mask=1
  [ "$h" = fuzz_popc_reflection ] && mask=3
  # The harnesses work in a scratch directory of their own: every path
  # given to them is absolute.
  "$build/fuzz/$h" -max_total_time="$seconds" -timeout="$unit_timeout" -rss_limit_mb=4096 \
    -print_final_stats=1 -close_fd_mask=$mask -artifact_prefix="$dir/" \
    $(dict "$h") "$dir/corpus" "$dir/seeds" > "$log" 2>&1 || status=$?
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1 || true)
  line=$(printf '%-22s %9s execs %7s/s  %s' "$h" \
    "$(stat "$log" number_of_executed_units)" "$(stat "$log" average_exec_per_sec)" "$cov")
  if [ $status -ne 0 ]; then
    failed=$((failed + 1))
    summary+=("$line  FAILED")
    echo "fuzz: $h FAILED (exit $status); the end of $log:"
    tail -n 60 "$log"
  else
    summary+=("$line  ok")
  fi
done

echo
printf '%s\n' "${summary[@]}"
echo "fuzz: $(( ${#harnesses[@]} - failed )) passed, $failed failed"
[ $failed -eq 0 ]
