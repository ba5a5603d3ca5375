# cmake -DPYTHON=... -DREFERENCE=stream_reference.py -DDUMP=divcc-stream-dump
#       -DMIN_LINES=N -P CompareStreamReference.cmake
#
# Runs the pure-Python model of divcc's streams and divcc's own
# divcc-stream-dump, and fails unless both succeed and print the same,
# well-formed, non-trivial output.

foreach(Var PYTHON REFERENCE DUMP MIN_LINES)
  if(NOT DEFINED ${Var})
    message(FATAL_ERROR "CompareStreamReference.cmake: ${Var} is not set")
  endif()
endforeach()

# stream_reference.py imports tests/divtest.
set(ENV{PYTHONPATH} "${CMAKE_CURRENT_LIST_DIR}/..")
execute_process(COMMAND "${PYTHON}" "${REFERENCE}"
  RESULT_VARIABLE PyResult OUTPUT_VARIABLE PyOut ERROR_VARIABLE PyErr)
if(NOT PyResult EQUAL 0)
  message(FATAL_ERROR "${REFERENCE} failed (${PyResult}):\n${PyErr}")
endif()

execute_process(COMMAND "${DUMP}"
  RESULT_VARIABLE DumpResult OUTPUT_VARIABLE DumpOut ERROR_VARIABLE DumpErr)
if(NOT DumpResult EQUAL 0)
  message(FATAL_ERROR "${DUMP} failed (${DumpResult}):\n${DumpErr}")
endif()

# Both outputs must be non-trivial: enough lines, each with 64-bit words.
string(REGEX MATCHALL "[^\n]+" Lines "${DumpOut}")
list(LENGTH Lines LineCount)
if(LineCount LESS MIN_LINES)
  message(FATAL_ERROR
    "divcc-stream-dump printed ${LineCount} lines, expected at least "
    "${MIN_LINES}:\n${DumpOut}")
endif()
foreach(Line IN LISTS Lines)
  if(NOT Line MATCHES
     "^secret=[0-9a-f]+ t=[0-9a-f]* m=[0-9a-f]* f=[0-9a-f]* words\\[[0-9]+\\.\\.[0-9]+\\]:( [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])+$")
    message(FATAL_ERROR "malformed line from divcc-stream-dump: ${Line}")
  endif()
endforeach()

if(NOT PyOut STREQUAL DumpOut)
  message(FATAL_ERROR
    "divcc's streams differ from the Python reference.\n"
    "--- stream_reference.py:\n${PyOut}"
    "--- divcc-stream-dump:\n${DumpOut}")
endif()
message(STATUS "${LineCount} lines identical")
