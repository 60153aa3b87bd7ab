# add_sdk_library: the one way a library of the SDK is declared.
#
#   add_sdk_library(<name>
#     PACKAGE <package>            # CMake package the target is exported in
#     SOURCES <src>...             # explicit list, no globbing
#     [PUBLIC_DEPS <target>...]    # targets users of the library also need
#     [PRIVATE_DEPS <target>...]
#     [PKGCONFIG_REQUIRES <pc>...] # pkg-config modules the .pc file requires
#     [DESCRIPTION <text>])
#
# It builds a shared library with hidden symbols and an export header
# (<name>/<name>_export.hpp defining <NAME>_API), adds the namespaced alias
# <package>::<name>, sets the include directories, and installs the library,
# its headers, its export set and a pkg-config file.
include(GenerateExportHeader)
include(CMakePackageConfigHelpers)

set(SDK_WARNINGS -Wall -Wextra -Wno-unused-parameter)

function(add_sdk_library name)
  cmake_parse_arguments(ARG "" "PACKAGE;DESCRIPTION"
    "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS;PKGCONFIG_REQUIRES" ${ARGN})
  if(NOT ARG_PACKAGE)
    message(FATAL_ERROR "add_sdk_library(${name}): PACKAGE is required")
  endif()

  # The code is compiled once into an object library: the shared library is
  # made from it, and unit tests of internals link it directly.
  string(TOUPPER ${name} upper)
  set(export_dir ${CMAKE_CURRENT_BINARY_DIR}/generated/include)
  add_library(${name}_objects OBJECT ${ARG_SOURCES})
  target_compile_definitions(${name}_objects PRIVATE ${name}_EXPORTS)
  target_compile_options(${name}_objects PRIVATE ${SDK_WARNINGS})
  target_include_directories(${name}_objects PUBLIC
    ${CMAKE_CURRENT_SOURCE_DIR}/include ${export_dir} ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${name}_objects PUBLIC ${ARG_PUBLIC_DEPS} ${ARG_PRIVATE_DEPS})

  add_library(${name} SHARED $<TARGET_OBJECTS:${name}_objects>)
  add_library(${ARG_PACKAGE}::${name} ALIAS ${name})
  set_target_properties(${name} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
    EXPORT_NAME ${name}
    # Libraries find the SDK libraries they need beside themselves, so
    # that `g++ prog.cpp -lpopart -lpoplar` links without naming those.
    INSTALL_RPATH "$ORIGIN")
  generate_export_header(${name}
    BASE_NAME ${upper}
    EXPORT_MACRO_NAME ${upper}_API
    EXPORT_FILE_NAME ${export_dir}/${name}/${name}_export.hpp)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${export_dir}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})

  set_property(GLOBAL APPEND PROPERTY SDK_INSTALLED_TARGETS ${name})
  install(TARGETS ${name} EXPORT ${ARG_PACKAGE}Targets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ ${export_dir}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

  set(PC_NAME ${name})
  set(PC_DESCRIPTION "${ARG_DESCRIPTION}")
  list(JOIN ARG_PKGCONFIG_REQUIRES " " PC_REQUIRES)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/library.pc.in
    ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

# install_sdk_package: the CMake package files (config, version, targets) of
# one tier, so that find_package(<package>) works after an install.
function(install_sdk_package package)
  set(dest ${CMAKE_INSTALL_LIBDIR}/cmake/${package})
  install(EXPORT ${package}Targets NAMESPACE ${package}:: DESTINATION ${dest})
  configure_package_config_file(
    ${CMAKE_CURRENT_SOURCE_DIR}/cmake/${package}Config.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/${package}Config.cmake
    INSTALL_DESTINATION ${dest})
  write_basic_package_version_file(
    ${CMAKE_CURRENT_BINARY_DIR}/${package}ConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES
    ${CMAKE_CURRENT_BINARY_DIR}/${package}Config.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/${package}ConfigVersion.cmake
    DESTINATION ${dest})
endfunction()
