# The bundled model (models/edgemt-en-de.emt) is what `translate` uses without --model:
# it is found from the build tree, loads and verifies, and turns each input line into
# exactly one non-empty output line; the file stays well under 25 MiB.
#   cmake -DTRANSLATE=... -DMODEL_FILE=... [-DEMULATOR=...] -P bundled_model.cmake
file(SIZE "${MODEL_FILE}" size)
math(EXPR limit "25 * 1024 * 1024")
if(size GREATER_EQUAL limit)
  message(FATAL_ERROR "${MODEL_FILE} is ${size} bytes, not under 25 MiB")
endif()
set(input "The file could not be opened.\n\nSave the document before closing the window.\n")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/bundled_model_input.txt" "${input}")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --stats
                INPUT_FILE "${CMAKE_CURRENT_BINARY_DIR}/bundled_model_input.txt"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "translate without --model failed (${rc}):\n${err}")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "3 lines in, ${n} out:\n${out}")
endif()
list(GET lines 0 first)
list(GET lines 1 second)
list(GET lines 2 third)
if(first STREQUAL "\n" OR third STREQUAL "\n" OR NOT second STREQUAL "\n")
  message(FATAL_ERROR "expected a translation, an empty line, a translation; got:\n${out}")
endif()
if(NOT err MATCHES "model file:")
  message(FATAL_ERROR "translate --stats printed no model line:\n${err}")
endif()
message(STATUS "bundled model (${size} bytes):\n${out}${err}")
