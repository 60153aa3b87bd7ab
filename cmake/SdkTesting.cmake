# Test helpers. Every test program is a Catch2 executable linked with one
# shared main; add_multitarget_test runs the same program once per device
# variant (the variant reaches the test through SDK_TEST_DEVICE).
# The label `sanitize` marks the tests that scripts/sanitize.sh also runs
# in the clang build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-fuzz): chosen for what they reach per second of build and run. A
# multi-target test may give it to some of its device variants only
# (SANITIZE_DEVICES): the variants run the same library code, and one of
# them costs a third of the time. The target sanitize_tests builds the
# programs of those tests and nothing else.
set(SDK_TEST_DEVICES Cpu IpuModel1 IpuModel2 CACHE STRING "Device variants multi-target tests run on")

# Codelets compiled at run time by tests are cached in the build tree, not
# in the user's home.
set(SDK_TEST_ENVIRONMENT "POPLAR_CODELET_CACHE_DIR=${PROJECT_BINARY_DIR}/codelet-cache")

# The label `sanitize_extra` marks the Python tests and the tutorials'
# output tests, run in the same build by `SDK_SANITIZE_LABEL=sanitize_extra
# scripts/sanitize.sh`, a part of CI of its own (scripts/test.sh); the
# target sanitize_extra_tests builds what they run.
add_custom_target(sanitize_tests)
add_custom_target(sanitize_extra_tests)

# The label `sanitize_compat` marks the compatibility tests (tests/compat)
# in the sanitizer build, run by `SDK_SANITIZE_LABEL=sanitize_compat
# scripts/sanitize.sh`: they install that build's SDK, so the target
# sanitize_compat_tests builds everything it installs (the targets listed
# in the global property SDK_INSTALLED_TARGETS; CMakeLists.txt).
add_custom_target(sanitize_compat_tests)

# sdk_sanitize_test(<test> [EXTRA] PROGRAMS <target>...): labels `sanitize`
# (with EXTRA `sanitize_extra`) a test that is not a test program of its own
# (a tutorial's output check, a script running a tool, Python tests) and has
# sanitize_tests (sanitize_extra_tests) build the programs it runs.
function(sdk_sanitize_test test)
  cmake_parse_arguments(ARG "EXTRA" "" "PROGRAMS" ${ARGN})
  set(label sanitize)
  if(ARG_EXTRA)
    set(label sanitize_extra)
  endif()
  set_property(TEST ${test} APPEND PROPERTY LABELS ${label})
  add_dependencies(${label}_tests ${ARG_PROGRAMS})
endfunction()

function(sdk_test_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sdk_test_main ${ARG_LIBS})
  target_compile_options(${name} PRIVATE ${SDK_WARNINGS})
endfunction()

# add_unit_test(<name> SOURCES ... LIBS ... [LABELS ...]): one ctest entry.
function(add_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  sdk_test_executable(${name} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "unit;${ARG_LABELS}"
    ENVIRONMENT "${SDK_TEST_ENVIRONMENT}")
  if(sanitize IN_LIST ARG_LABELS)
    add_dependencies(sanitize_tests ${name})
  endif()
endfunction()

# add_multitarget_test(<name> SOURCES ... LIBS ... [LABELS ...]
# [SANITIZE_DEVICES <variant>...]): one ctest entry per device variant,
# named <name>_<Variant>; the variants listed in SANITIZE_DEVICES are also
# labelled `sanitize`.
function(add_multitarget_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS;DEVICES;SANITIZE_DEVICES" ${ARGN})
  if(NOT ARG_DEVICES)
    set(ARG_DEVICES ${SDK_TEST_DEVICES})
  endif()
  sdk_test_executable(${name} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
  foreach(device ${ARG_DEVICES})
    set(labels multitarget ${device} ${ARG_LABELS})
    if(device IN_LIST ARG_SANITIZE_DEVICES)
      list(APPEND labels sanitize)
    endif()
    if(sanitize IN_LIST labels)
      add_dependencies(sanitize_tests ${name})
    endif()
    add_test(NAME ${name}_${device} COMMAND ${name})
    set_tests_properties(${name}_${device} PROPERTIES
      ENVIRONMENT "SDK_TEST_DEVICE=${device};${SDK_TEST_ENVIRONMENT}"
      LABELS "${labels}")
  endforeach()
endfunction()
