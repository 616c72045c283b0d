# Input that is not UTF-8. Text lines of a Latin-1 file ("K\xFCche"): translated (their
# malformed bytes as U+FFFD), with one warning on standard error that names the first such
# line and byte and says how to convert the file; UTF-8 input gets no warning. An HTML
# page that declares Latin-1 and is in it: no warning, its translation written back in
# Latin-1 (a kept attribute's byte 0xE9 as it was, no UTF-8 and no U+FFFD in it).
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P encoding.cmake
set(dir "${CMAKE_CURRENT_BINARY_DIR}/encoding")
file(MAKE_DIRECTORY "${dir}")
string(ASCII 252 u_umlaut)
string(ASCII 233 e_acute)
file(WRITE "${dir}/latin1.txt" "The file could not be opened.\nThe K${u_umlaut}che is open.\nThe caf${e_acute} is closed.\n")
file(WRITE "${dir}/utf8.txt" "The file could not be opened.\nThe caf\u00e9 is closed.\n")
file(WRITE "${dir}/latin1.html"
     "<html><head><meta charset=\"iso-8859-1\"></head><body><p title=\"caf${e_acute}\">The kitchen is open. "
     "The caf${e_acute} is closed.</p></body></html>\n")

execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${dir}/latin1.txt"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "latin1.txt: exit ${rc}: ${err}")
endif()
string(REGEX MATCHALL "\n" lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "latin1.txt: ${n} output lines, expected 3:\n${out}")
endif()
string(REGEX MATCHALL "is not UTF-8" warnings "${err}")
list(LENGTH warnings w)
if(NOT w EQUAL 1)
  message(FATAL_ERROR "latin1.txt: expected one warning, got ${w}:\n${err}")
endif()
foreach(part "input line 2 is not UTF-8" "byte 0xFC at byte 6" "iconv")
  string(FIND "${err}" "${part}" at)
  if(at LESS 0)
    message(FATAL_ERROR "latin1.txt: the warning lacks '${part}':\n${err}")
  endif()
endforeach()

execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${dir}/utf8.txt"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR err MATCHES "not UTF-8")
  message(FATAL_ERROR "utf8.txt: exit ${rc}, warned:\n${err}")
endif()

execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format html
                INPUT_FILE "${dir}/latin1.html" OUTPUT_FILE "${dir}/latin1.out.html"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR err MATCHES "not UTF-8")
  message(FATAL_ERROR "latin1.html: exit ${rc}, warned:\n${err}")
endif()
file(READ "${dir}/latin1.out.html" hex HEX)
# <meta charset="iso-8859-1"> and title="caf\xE9" as they were
string(REPLACE " " "" want "7469746c653d22636166e922")  # title="caf\xE9"
string(FIND "${hex}" "${want}" at)
if(at LESS 0)
  message(FATAL_ERROR "latin1.html: the title attribute did not keep its Latin-1 byte: ${hex}")
endif()
string(REGEX MATCH "^(..)*c3" has_c3 "${hex}")
string(REGEX MATCH "^(..)*efbfbd" has_fffd "${hex}")
if(has_c3 OR has_fffd)
  message(FATAL_ERROR "latin1.html: the output holds UTF-8 or U+FFFD: ${hex}")
endif()
