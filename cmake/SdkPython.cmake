# Python packages of the SDK: a pure-Python package directory with one
# pybind11 extension module in it, laid out the same in the build tree
# (${PROJECT_BINARY_DIR}/python, for the tests) and in the installation
# (<prefix>/python, which enable.sh puts on PYTHONPATH).
#
#   add_sdk_python_package(<package>
#     MODULE <extension module name>   # imported as <package>.<module>
#     SOURCES <src>...                 # of the extension module
#     PYTHON_FILES <file>...           # package files; a .in file is configured
#     LIBS <target>...)
#
# The extension is built for SDK_PYTHON (Debian's /usr/bin/python3 by
# default: its numpy, onnx and torch are the ones the SDK works with).
set(SDK_PYTHON /usr/bin/python3 CACHE FILEPATH "The Python the SDK's Python packages are built for")
set(SDK_PYTHON_BINARY_DIR ${PROJECT_BINARY_DIR}/python)

set(Python_EXECUTABLE ${SDK_PYTHON})
set(PYBIND11_FINDPYTHON ON)
set(_python_components Interpreter Development.Module)
if(SDK_FUZZ)
  # The sanitizer build's interpreter, sdk_asan_python (tests/), embeds it.
  list(APPEND _python_components Development.Embed)
endif()
find_package(Python REQUIRED COMPONENTS ${_python_components})
find_package(pybind11 2.6 CONFIG REQUIRED)

function(add_sdk_python_package package)
  cmake_parse_arguments(ARG "" "MODULE" "SOURCES;PYTHON_FILES;LIBS" ${ARGN})
  set(out ${SDK_PYTHON_BINARY_DIR}/${package})
  # NO_EXTRAS: no link-time optimisation (slow to link, little gain here).
  pybind11_add_module(${ARG_MODULE} MODULE NO_EXTRAS ${ARG_SOURCES})
  target_link_libraries(${ARG_MODULE} PRIVATE ${ARG_LIBS})
  # Bindings forward calls: -O1 (after the build type's -O3, so it wins)
  # makes code as good for that and compiles pybind11's templates in about
  # two thirds of the time. In the sanitizer build -O0, which compiles them
  # in 40% of the time of -O1 there (the sanitizers' checks are all kept).
  set(optimise -O1)
  if(SDK_FUZZ)
    set(optimise -O0)
  endif()
  target_compile_options(${ARG_MODULE} PRIVATE ${SDK_WARNINGS} ${optimise})
  file(RELATIVE_PATH libdir ${CMAKE_INSTALL_PREFIX}/${SDK_INSTALL_PYTHONDIR}/${package}
       ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR})
  set_target_properties(${ARG_MODULE} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${out}
    INSTALL_RPATH "$ORIGIN/${libdir}")
  set_property(GLOBAL APPEND PROPERTY SDK_INSTALLED_TARGETS ${ARG_MODULE})
  install(TARGETS ${ARG_MODULE} LIBRARY DESTINATION ${SDK_INSTALL_PYTHONDIR}/${package})

  # A file keeps its place below the package's folder (popart/ir/ops/x.py
  # is the module popart.ir.ops.x).
  foreach(file ${ARG_PYTHON_FILES})
    string(FIND "${file}" "${package}/" at)
    if(at LESS 0)
      message(FATAL_ERROR "Python file ${file} is not in a folder ${package}/")
    endif()
    string(LENGTH "${package}/" skip)
    math(EXPR at "${at} + ${skip}")
    string(SUBSTRING "${file}" ${at} -1 name)
    string(REGEX REPLACE "\\.in$" "" name ${name})
    if(file MATCHES "\\.in$")
      configure_file(${file} ${out}/${name} @ONLY)
    else()
      configure_file(${file} ${out}/${name} COPYONLY)
    endif()
    get_filename_component(subdir ${name} DIRECTORY)
    install(FILES ${out}/${name} DESTINATION ${SDK_INSTALL_PYTHONDIR}/${package}/${subdir})
  endforeach()
endfunction()

# add_python_test(<name> <test file or directory>... [LABELS ...] [ENVIRONMENT ...]):
# one ctest entry running pytest with SDK_PYTHON on the build tree's
# packages. A test module that needs a missing Debian package fails (the
# import error is a test error), it is not skipped.
#
# In the sanitizer build (SDK_FUZZ) the tests run in sdk_asan_python
# (tests/support/AsanPython.cpp), the same CPython started by a program that
# carries ASan's runtime, with Python's own allocator off
# (PYTHONMALLOC=malloc), so that ASan sees every Python object the bindings
# touch. Leak detection is off there: CPython keeps objects to the end by
# design. No report is suppressed: numpy, torch and onnx, loaded into the
# same process, raised none (docs/reliability.md).
function(add_python_test name)
  cmake_parse_arguments(ARG "" "" "LABELS;ENVIRONMENT" ${ARGN})
  if(NOT SDK_BUILD_TESTS)
    return()
  endif()
  set(python ${SDK_PYTHON})
  if(SDK_FUZZ)
    set(python sdk_asan_python)
  endif()
  add_test(NAME ${name}
    COMMAND ${python} -m pytest -q -p no:cacheprovider -p sdk_pytest
            ${ARG_UNPARSED_ARGUMENTS})
  set_tests_properties(${name} PROPERTIES LABELS "python;${ARG_LABELS}"
    ENVIRONMENT "PYTHONPATH=${SDK_PYTHON_BINARY_DIR}:${PROJECT_SOURCE_DIR}/tests/support;PYTHONDONTWRITEBYTECODE=1;${SDK_TEST_ENVIRONMENT};${ARG_ENVIRONMENT}")
  if(SDK_FUZZ)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT_MODIFICATION
      "PYTHONMALLOC=set:malloc;ASAN_OPTIONS=string_append::detect_leaks=0")
  endif()
endfunction()
