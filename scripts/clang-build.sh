# Sourced by scripts/fuzz.sh, scripts/sanitize.sh and scripts/tsan.sh:
# configures the clang-14 builds. ./build-fuzz is the one in which every
# library is instrumented for libFuzzer and built with AddressSanitizer and
# UndefinedBehaviorSanitizer (cmake/SdkFuzz.cmake); ./build-tsan the one
# built with ThreadSanitizer (cmake/SdkTsan.cmake). Only the targets asked
# for are built from them; -O1 and line tables keep that within CI's time.
clang_build=$PWD/build-fuzz
tsan_build=$PWD/build-tsan

# configure_clang <dir> <cmake arguments...>: tests on, benchmarks off; the
# arguments say which sanitizer and whether tutorials and Python are made.
configure_clang() {
  local dir=$1
  shift
  mkdir -p "$dir"
  CC=clang-14 cmake -S . -B "$dir" -G Ninja \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DSDK_BUILD_TESTS=ON -DSDK_BUILD_BENCHMARKS=OFF "$@" \
    > "$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; return 1; }
}

# build-fuzz has the tutorials and the Python packages too: the tests of
# the label `sanitize` include Python tests (run with ASan's runtime
# preloaded into the Python interpreter) and tutorials' output tests.
configure_clang_build() {
  configure_clang "$clang_build" -DSDK_FUZZ=ON -DSDK_TSAN=OFF \
    -DSDK_BUILD_TUTORIALS=ON -DSDK_BUILD_PYTHON=ON
}
configure_tsan_build() {
  configure_clang "$tsan_build" -DSDK_TSAN=ON -DSDK_FUZZ=OFF \
    -DSDK_BUILD_TUTORIALS=OFF -DSDK_BUILD_PYTHON=OFF
}

# test_targets <build dir> <label>: the programs of the tests with a label.
# A test is named after its program, with _<device> after it for a
# multi-target test (cmake/SdkTesting.cmake).
test_targets() {
  ctest --test-dir "$1" -L "^$2\$" -N | sed -n 's/^ *Test *#[0-9]*: *//p' |
    sed -E 's/_(Cpu|IpuModel[0-9]*)$//' | sort -u
}
