# SDK_TSAN: a clang build in which every library and test program is built
# with ThreadSanitizer (scripts/tsan.sh: build-tsan). Only the tests
# labelled `tsan` are built and run from it: the threaded parts (the
# Engine's vertex execution and copies on oneTBB's threads, engines run
# from threads of their own, the codelet cache shared by threads and
# processes).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SDK_TSAN needs clang (for example "
    "-DCMAKE_CXX_COMPILER=clang++-14); this build uses ${CMAKE_CXX_COMPILER_ID}")
endif()
if(SDK_FUZZ)
  message(FATAL_ERROR "SDK_TSAN and SDK_FUZZ cannot share a build: "
    "ThreadSanitizer does not combine with AddressSanitizer")
endif()
# oneTBB's headers are left uninstrumented, as its library is
# (cmake/tsan-ignorelist.txt says why).
add_compile_options(-fsanitize=thread -fno-omit-frame-pointer
  -fsanitize-ignorelist=${CMAKE_CURRENT_LIST_DIR}/tsan-ignorelist.txt)
add_link_options(-fsanitize=thread)
