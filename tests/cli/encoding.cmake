# Input that is not UTF-8. Text lines of a Latin-1 file ("K\xFCche"): translated (their
# malformed bytes as U+FFFD), with one warning on standard error that names the first such
# line and byte and says how to convert the file; UTF-8 input gets no warning. An HTML
# page that declares Latin-1 and is in it: no warning, its translation written back in
# Latin-1 (a kept attribute's byte 0xE9 as it was, no UTF-8 and no U+FFFD in it); see
# below for --encoding and UTF-16.
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P encoding.cmake
set(dir "${CMAKE_CURRENT_BINARY_DIR}/encoding")
file(MAKE_DIRECTORY "${dir}")
string(ASCII 252 u_umlaut)
string(ASCII 233 e_acute)
file(WRITE "${dir}/latin1.txt" "The file could not be opened.\nThe K${u_umlaut}che is open.\nThe caf${e_acute} is closed.\n")
file(WRITE "${dir}/utf8.txt" "The file could not be opened.\nThe café is closed.\n")
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
foreach(part "input line 2 is not UTF-8" "byte 0xFC at byte 6" "--encoding windows-1252")
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

# --encoding: the Latin-1 file read as Latin-1 (no warning) and its translation written in
# it: the UTF-8 file's translation, converted by iconv. A UTF-16 file with a byte order
# mark (Windows' "Unicode"): read by its mark and translated into UTF-16 with one, the
# same text. An unknown encoding: a clear error.
find_program(ICONV iconv)
if(ICONV)
  execute_process(COMMAND "${ICONV}" -f ISO-8859-1 -t UTF-8 INPUT_FILE "${dir}/latin1.txt"
                  OUTPUT_FILE "${dir}/latin1.utf8.txt" RESULT_VARIABLE rc)
  execute_process(COMMAND "${ICONV}" -f UTF-8 -t UTF-16 INPUT_FILE "${dir}/latin1.utf8.txt"
                  OUTPUT_FILE "${dir}/utf16.txt" RESULT_VARIABLE rc16)
  if(NOT rc EQUAL 0 OR NOT rc16 EQUAL 0)
    message(FATAL_ERROR "iconv failed: ${rc} ${rc16}")
  endif()
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${dir}/latin1.utf8.txt"
                  OUTPUT_FILE "${dir}/want.utf8.txt" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "latin1.utf8.txt: exit ${rc}: ${err}")
  endif()
  execute_process(COMMAND "${ICONV}" -f UTF-8 -t WINDOWS-1252 INPUT_FILE "${dir}/want.utf8.txt"
                  OUTPUT_FILE "${dir}/want.latin1.txt" RESULT_VARIABLE rc)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --encoding latin1
                  INPUT_FILE "${dir}/latin1.txt" OUTPUT_FILE "${dir}/got.latin1.txt" ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "--encoding latin1: exit ${rc}, standard error:\n${err}")
  endif()
  file(READ "${dir}/want.latin1.txt" want HEX)
  file(READ "${dir}/got.latin1.txt" got HEX)
  if(NOT got STREQUAL want OR got STREQUAL "")
    message(FATAL_ERROR "--encoding latin1: got ${got}, want ${want}")
  endif()
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${dir}/utf16.txt"
                  OUTPUT_FILE "${dir}/got.utf16.txt" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "utf16.txt: exit ${rc}, standard error:\n${err}")
  endif()
  file(READ "${dir}/got.utf16.txt" got HEX)
  if(NOT got MATCHES "^fffe")
    message(FATAL_ERROR "utf16.txt: the translation is not UTF-16 with a byte order mark: ${got}")
  endif()
  execute_process(COMMAND "${ICONV}" -f UTF-16 -t UTF-8 INPUT_FILE "${dir}/got.utf16.txt"
                  OUTPUT_FILE "${dir}/got.utf16.utf8.txt" RESULT_VARIABLE rc)
  file(READ "${dir}/want.utf8.txt" want)
  file(READ "${dir}/got.utf16.utf8.txt" got)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
    message(FATAL_ERROR "utf16.txt: translated as\n${got}\nnot as the UTF-8 file:\n${want}")
  endif()
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --encoding x-no-such "Hello"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "x-no-such")
  message(FATAL_ERROR "--encoding x-no-such: exit ${rc}: ${err}")
endif()

# A --format document that is not UTF-8 (a Latin-1 subtitle or text file): read as
# windows-1252 with a note, its translation written in it, as --encoding latin1 gives it.
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format wrapped
                INPUT_FILE "${dir}/latin1.txt" OUTPUT_VARIABLE guessed ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT err MATCHES "read as windows-1252")
  message(FATAL_ERROR "--format wrapped of latin1.txt: exit ${rc}, no note:\n${err}")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format wrapped --encoding latin1
                INPUT_FILE "${dir}/latin1.txt" OUTPUT_VARIABLE given ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT guessed STREQUAL given OR guessed STREQUAL "")
  message(FATAL_ERROR "--format wrapped of latin1.txt gave\n${guessed}\nwith --encoding latin1:\n${given}")
endif()

# A UTF-8 byte order mark (Windows' editors, Excel's CSV): left out of the text and
# written back first; the rest as the file without it gives.
string(ASCII 239 187 191 bom)
file(WRITE "${dir}/bom.csv" "${bom}key,text\napp.open,Open the file\n")
file(WRITE "${dir}/nobom.csv" "key,text\napp.open,Open the file\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format csv INPUT_FILE "${dir}/bom.csv"
                OUTPUT_VARIABLE with ERROR_VARIABLE err RESULT_VARIABLE rc)
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format csv INPUT_FILE "${dir}/nobom.csv"
                OUTPUT_VARIABLE without ERROR_VARIABLE err2 RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT with STREQUAL "${bom}${without}" OR NOT without MATCHES "^[^\n]*\napp.open,")
  message(FATAL_ERROR "bom.csv: exit ${rc}/${rc2}: '${with}' vs '${without}': ${err} ${err2}")
endif()

# An argument that names a file is translated as text, with a note on how to translate
# the file (here: its --format by its extension).
if(NOT dir MATCHES " ")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" "${dir}/bom.csv"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err MATCHES "is a file, but arguments are translated as text" OR
     NOT err MATCHES "--format csv <")
    message(FATAL_ERROR "a file name as TEXT: exit ${rc}, no note:\n${err}")
  endif()
endif()

# A binary property list (Xcode's compiled .strings, bytes that are no UTF-8) is refused
# by the reader, with its advice, and no note or warning about its encoding.
string(ASCII 209 b1)
string(ASCII 1 b2)
foreach(f strings stringsdict)
  file(WRITE "${dir}/compiled.${f}" "bplist00${b1}${b2}TabcUhello")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format ${f} INPUT_FILE "${dir}/compiled.${f}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT err MATCHES "binary property list" OR NOT err MATCHES "plutil -convert xml1" OR
     err MATCHES "windows-1252|not UTF-8")
    message(FATAL_ERROR "compiled.${f}: exit ${rc}:\n${err}")
  endif()
endforeach()
