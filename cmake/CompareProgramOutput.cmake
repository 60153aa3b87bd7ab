# Runs PROGRAM (with PROGRAM_ARGS, separated by '|') and checks that its
# output equals the file EXPECTED. With EXPECT_FAIL the program must exit
# non-zero; otherwise with zero.
string(REPLACE "|" ";" args "${PROGRAM_ARGS}")
execute_process(COMMAND ${PROGRAM} ${args}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${EXPECTED} expected)
set(actual "${out}${err}")
if(EXPECT_FAIL)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} succeeded but was expected to fail")
  endif()
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${rc}):\n${actual}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM} printed:\n${actual}\nexpected:\n${expected}")
endif()
message(STATUS "${PROGRAM}: output matches ${EXPECTED}")
