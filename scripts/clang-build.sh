# Sourced by scripts/fuzz.sh and scripts/sanitize.sh: configures
# ./build-fuzz, the clang-14 build in which every library is instrumented
# for libFuzzer and built with AddressSanitizer and UndefinedBehaviorSanitizer
# (cmake/SdkFuzz.cmake). Only the targets asked for are built from it; -O1
# and line tables keep that within CI's time.
clang_build=$PWD/build-fuzz

configure_clang_build() {
  mkdir -p "$clang_build"
  CC=clang-14 cmake -S . -B "$clang_build" -G Ninja -DSDK_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DSDK_BUILD_TESTS=ON -DSDK_BUILD_BENCHMARKS=OFF -DSDK_BUILD_TUTORIALS=OFF \
    -DSDK_BUILD_PYTHON=OFF > "$clang_build/configure.log" 2>&1 ||
    { cat "$clang_build/configure.log"; return 1; }
}
