# add_gp_library: codelets compiled by popc into a graph program file.
#
#   add_gp_library(<name>
#     SOURCES <cpp>...                 # codelet sources, one .gp from all
#     [INCLUDE_DIRECTORIES <dir>...]   # relative to the current source dir
#     [FLAGS <flag>...]                # more popc options (-D, -W, -O, -g...)
#     [DESTINATION <dir>]              # install dir, default the lib dir
#     [NO_INSTALL])                    # not installed (tests)
#
# Builds ${CMAKE_CURRENT_BINARY_DIR}/<name>.gp with the popc of this build
# (or, outside the SDK's own build, the popc found on PATH) and makes the
# target <name>_gp, built by default. popc writes a dependency file, so
# editing a header a codelet includes rebuilds the .gp.
function(add_gp_library name)
  cmake_parse_arguments(ARG "NO_INSTALL" "DESTINATION" "SOURCES;INCLUDE_DIRECTORIES;FLAGS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "add_gp_library(${name}): SOURCES is required")
  endif()
  if(NOT ARG_DESTINATION)
    set(ARG_DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
  if(TARGET popc)
    set(popc popc)
  else()
    find_program(POPC_EXECUTABLE popc REQUIRED)
    set(popc ${POPC_EXECUTABLE})
  endif()

  set(sources "")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND sources ${src})
  endforeach()
  set(includes "")
  foreach(dir IN LISTS ARG_INCLUDE_DIRECTORIES)
    get_filename_component(dir ${dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND includes -I${dir})
  endforeach()

  set(output ${CMAKE_CURRENT_BINARY_DIR}/${name}.gp)
  set(depfile ${CMAKE_CURRENT_BINARY_DIR}/${name}.gp.d)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${popc} ${ARG_FLAGS} ${includes} ${sources}
            -o ${output} --depfile ${depfile}
    DEPENDS ${popc} ${sources}
    DEPFILE ${depfile}
    COMMENT "Compiling codelets ${name}.gp"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name}_gp ALL DEPENDS ${output})
  if(NOT ARG_NO_INSTALL)
    set_property(GLOBAL APPEND PROPERTY SDK_INSTALLED_TARGETS ${name}_gp)
    install(FILES ${output} DESTINATION ${ARG_DESTINATION})
  endif()
endfunction()
