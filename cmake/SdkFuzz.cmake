# SDK_FUZZ: the libFuzzer harnesses of fuzz/, in a build of their own made
# with clang (scripts/fuzz.sh: build-fuzz). Every library of the build is
# compiled with libFuzzer's coverage instrumentation and with
# AddressSanitizer and UndefinedBehaviorSanitizer; the harnesses add
# libFuzzer's driver when they link (sdk_fuzz_harness, fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SDK_FUZZ needs clang (for example "
    "-DCMAKE_CXX_COMPILER=clang++-14); this build uses ${CMAKE_CXX_COMPILER_ID}")
endif()

# vptr is left out: with hidden visibility a class's type_info differs
# between the libraries, which the vptr check mistakes for a bad cast.
# Every report is fatal, so that the fuzzer records it as a crash.
set(SDK_SANITIZE address,undefined)
add_compile_options(-fsanitize=fuzzer-no-link,${SDK_SANITIZE}
  -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=${SDK_SANITIZE} -fno-sanitize=vptr)
